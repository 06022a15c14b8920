/* C half of f08_callbacks.F90: C callbacks on a C keyval driven from mpi_f08, dups and frees
 * from C of objects carrying mpi_f08 callbacks, and C readers of what the callbacks stored
 * (MPI 4.1 §7.7.2-§7.7.4, §20.3.7). Handles arrive as MPI_VAL integers, by reference. */
#include <mpi.h>
#include <stdio.h>

static int c_copies, c_deletes;

static int c_copy(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag) {
    (void)old; (void)keyval; (void)extra;
    ++c_copies;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int c_delete(MPI_Comm comm, int keyval, void *val, void *extra) {
    (void)comm; (void)keyval; (void)val; (void)extra;
    ++c_deletes;
    return MPI_SUCCESS;
}

static int c_type_copy(MPI_Datatype old, int keyval, void *extra, void *in, void *out, int *flag) {
    (void)old; (void)keyval; (void)extra;
    ++c_copies;
    *(void **)out = (char *)in + 2;
    *flag = 1;
    return MPI_SUCCESS;
}

static int c_type_delete(MPI_Datatype t, int keyval, void *val, void *extra) {
    (void)t; (void)keyval; (void)val; (void)extra;
    ++c_deletes;
    return MPI_SUCCESS;
}

static int c_win_delete(MPI_Win w, int keyval, void *val, void *extra) {
    (void)w; (void)keyval; (void)val; (void)extra;
    ++c_deletes;
    return MPI_SUCCESS;
}

/* kind: 0 comm, 1 datatype, 2 window. A C keyval with C callbacks; sets (void*)500. */
void c_keyval_and_set_(MPI_Fint *kind, MPI_Fint *h, MPI_Fint *keyval) {
    int k = MPI_KEYVAL_INVALID;
    switch (*kind) {
    case 0:
        MPI_Comm_create_keyval(c_copy, c_delete, &k, NULL);
        MPI_Comm_set_attr(MPI_Comm_f2c(*h), k, (void *)500);
        break;
    case 1:
        MPI_Type_create_keyval(c_type_copy, c_type_delete, &k, NULL);
        MPI_Type_set_attr(MPI_Type_f2c(*h), k, (void *)500);
        break;
    default:
        MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, c_win_delete, &k, NULL);
        MPI_Win_set_attr(MPI_Win_f2c(*h), k, (void *)500);
    }
    *keyval = k;
}

void c_counts_(MPI_Fint *copies, MPI_Fint *deletes) {
    *copies = c_copies;
    *deletes = c_deletes;
}

void c_comm_dup_(MPI_Fint *h, MPI_Fint *newh, MPI_Fint *rc) {
    MPI_Comm n = MPI_COMM_NULL;
    *rc = MPI_Comm_dup(MPI_Comm_f2c(*h), &n);
    *newh = MPI_Comm_c2f(n);
}

void c_type_dup_(MPI_Fint *h, MPI_Fint *newh, MPI_Fint *rc) {
    MPI_Datatype n = MPI_DATATYPE_NULL;
    *rc = MPI_Type_dup(MPI_Type_f2c(*h), &n);
    *newh = MPI_Type_c2f(n);
}

void c_comm_free_(MPI_Fint *h, MPI_Fint *rc) {
    MPI_Comm c = MPI_Comm_f2c(*h);
    *rc = MPI_Comm_free(&c);
    *h = MPI_Comm_c2f(c);
}

void c_type_free_(MPI_Fint *h, MPI_Fint *rc) {
    MPI_Datatype t = MPI_Type_f2c(*h);
    *rc = MPI_Type_free(&t);
    *h = MPI_Type_c2f(t);
}

/* kind 0 comm, 1 datatype: sets a C pointer (&target) on the object. */
static int target;
void c_set_target_(MPI_Fint *kind, MPI_Fint *h, MPI_Fint *keyval, MPI_Aint *addr) {
    if (*kind == 0) MPI_Comm_set_attr(MPI_Comm_f2c(*h), *keyval, &target);
    else MPI_Type_set_attr(MPI_Type_f2c(*h), *keyval, &target);
    *addr = (MPI_Aint)&target;
}

/* What C reads: flag and the pointer (as an integer); *deref the MPI_Aint it points to when
 * want_aint. */
void c_get_(MPI_Fint *kind, MPI_Fint *h, MPI_Fint *keyval, MPI_Aint *ptr, MPI_Aint *deref,
            MPI_Fint *flag) {
    void *p = NULL;
    int f = 0;
    if (*kind == 0) MPI_Comm_get_attr(MPI_Comm_f2c(*h), *keyval, &p, &f);
    else if (*kind == 1) MPI_Type_get_attr(MPI_Type_f2c(*h), *keyval, &p, &f);
    else MPI_Win_get_attr(MPI_Win_f2c(*h), *keyval, &p, &f);
    *flag = f;
    *ptr = (MPI_Aint)p;
    *deref = 0;
    if (f && p && (MPI_Aint)p > 4096) *deref = *(MPI_Aint *)p;
}
