/* C half of type_win_matrix.F90: the C writer and the C reader of the writer x reader matrix
 * (MPI 4.1 §20.3.7, docs/DESIGN.md "What each reader gets") for datatypes and windows. Called from
 * Fortran: every argument by reference, gfortran's trailing underscore. KIND is 1 for a
 * datatype, 2 for a window. */
#include <mpi.h>
#include <stdio.h>
#include <stdint.h>

static int set_val = 3;

static void fail(MPI_Fint *nfail, const char *what) {
    printf("FAIL (C): %s\n", what);
    ++*nfail;
}

static int c_set(int kind, MPI_Fint obj, int keyval, void *value) {
    return kind == 1 ? MPI_Type_set_attr(MPI_Type_f2c(obj), keyval, value)
                     : MPI_Win_set_attr(MPI_Win_f2c(obj), keyval, value);
}

static int c_get(int kind, MPI_Fint obj, int keyval, void *value, int *flag) {
    return kind == 1 ? MPI_Type_get_attr(MPI_Type_f2c(obj), keyval, value, flag)
                     : MPI_Win_get_attr(MPI_Win_f2c(obj), keyval, value, flag);
}

/* Writer C: creates two C keyvals of the kind and sets &set_val and (void*)17 on them. */
void c_set_matrix_(MPI_Fint *kind, MPI_Fint *obj, MPI_Fint *k_int, MPI_Fint *k_17,
                   MPI_Aint *addr_int, MPI_Fint *nfail) {
    int k1 = MPI_KEYVAL_INVALID, k2 = MPI_KEYVAL_INVALID, rc;
    if (*kind == 1)
        rc = MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k1, NULL) |
             MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k2, NULL);
    else
        rc = MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &k1, NULL) |
             MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &k2, NULL);
    if (rc != MPI_SUCCESS) fail(nfail, "MPI_{Type,Win}_create_keyval");
    if (c_set(*kind, *obj, k1, &set_val) || c_set(*kind, *obj, k2, (void *)17))
        fail(nfail, "MPI_{Type,Win}_set_attr");
    *k_int = k1;
    *k_17 = k2;
    *addr_int = (MPI_Aint)&set_val;
}

/* Reader C on a C-set value: the pointer itself. */
void c_read_pointer_(MPI_Fint *kind, MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *expect,
                     MPI_Fint *nfail) {
    void *p = NULL;
    int flag = 0;
    char what[200];
    int rc = c_get(*kind, *obj, *keyval, &p, &flag);
    snprintf(what, sizeof what,
             "kind %d: C reads the C pointer %#lx back unchanged (got %p, flag %d, rc %d)",
             (int)*kind, (unsigned long)*expect, p, flag, rc);
    if (rc != MPI_SUCCESS || !flag || (MPI_Aint)p != *expect) fail(nfail, what);
}

/* Reader C on a Fortran MPI_{TYPE,WIN}_SET_ATTR value: a pointer to an internal MPI_Aint. */
void c_read_aint_(MPI_Fint *kind, MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *expect,
                  MPI_Fint *nfail) {
    MPI_Aint *p = NULL;
    int flag = 0;
    char what[200];
    int rc = c_get(*kind, *obj, *keyval, &p, &flag);
    snprintf(what, sizeof what,
             "kind %d: C gets an MPI_Aint* to %ld for a Fortran SET_ATTR value (got %ld, flag %d, "
             "rc %d)",
             (int)*kind, (long)*expect, p ? (long)*p : -999999L, flag, rc);
    if (rc != MPI_SUCCESS || !flag || p == NULL || *p != *expect) fail(nfail, what);
}

/* Reader C on an integer-valued predefined window attribute: an int* (MPI 4.1 §20.3.7). */
void c_read_int_(MPI_Fint *win, MPI_Fint *keyval, MPI_Fint *expect, MPI_Fint *nfail) {
    int *p = NULL, flag = 0;
    char what[200];
    int rc = MPI_Win_get_attr(MPI_Win_f2c(*win), *keyval, &p, &flag);
    snprintf(what, sizeof what, "C gets an int* to %d for keyval %d (got %d, flag %d, rc %d)",
             (int)*expect, (int)*keyval, p ? *p : -999999, flag, rc);
    if (rc != MPI_SUCCESS || !flag || p == NULL || *p != *expect) fail(nfail, what);
}

/* A datatype and a window created in C, for the matrix on objects of either language. */
void c_make_objects_(MPI_Fint *type, MPI_Fint *win, MPI_Aint *base, MPI_Fint *nfail) {
    static double memory[16];
    MPI_Datatype t;
    MPI_Win w;
    if (MPI_Type_vector(2, 1, 3, MPI_INT, &t) || MPI_Type_commit(&t))
        fail(nfail, "MPI_Type_vector in C");
    if (MPI_Win_create(memory, sizeof memory, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &w))
        fail(nfail, "MPI_Win_create in C");
    *type = MPI_Type_c2f(t);
    *win = MPI_Win_c2f(w);
    *base = (MPI_Aint)memory;
}
