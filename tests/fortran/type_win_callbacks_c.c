/* C half of type_win_callbacks.F90: a C-created datatype keyval with C copy and delete
 * functions, a C-created window keyval with a C delete function, and C calls (MPI_Type_dup,
 * MPI_Type_free, MPI_Type_get_attr) on Fortran-created keyvals. Called from Fortran: every
 * argument by reference, gfortran's trailing underscore. */
#include <mpi.h>
#include <stdio.h>
#include <stdint.h>

static int copies, deletes;
static MPI_Datatype seen_type;
static MPI_Win seen_win;
static void *seen_value;
static void *seen_extra;
static int extra_token;

/* C copy function: the new value is the old pointer plus one (stored as a C pointer). */
static int c_type_copy(MPI_Datatype oldtype, int keyval, void *extra, void *in, void *out,
                       int *flag) {
    (void)keyval;
    copies++;
    seen_type = oldtype;
    seen_value = in;
    seen_extra = extra;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int c_type_delete(MPI_Datatype type, int keyval, void *value, void *extra) {
    (void)keyval;
    deletes++;
    seen_type = type;
    seen_value = value;
    seen_extra = extra;
    return MPI_SUCCESS;
}

static int c_win_delete(MPI_Win win, int keyval, void *value, void *extra) {
    (void)keyval;
    deletes++;
    seen_win = win;
    seen_value = value;
    seen_extra = extra;
    return MPI_SUCCESS;
}

void c_type_keyval_(MPI_Fint *keyval, MPI_Fint *ierr) {
    int k;
    *ierr = MPI_Type_create_keyval(c_type_copy, c_type_delete, &k, &extra_token);
    *keyval = k;
}

void c_win_keyval_(MPI_Fint *keyval, MPI_Fint *ierr) {
    int k;
    *ierr = MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, c_win_delete, &k, &extra_token);
    *keyval = k;
}

/* What the C callbacks saw: counts, the handle (as Fortran sees it), the value as an integer,
 * and whether extra_state was the keyval's. */
void c_seen_(MPI_Fint *ncopy, MPI_Fint *ndelete, MPI_Fint *type, MPI_Fint *win, MPI_Aint *value,
             MPI_Fint *extra_ok) {
    *ncopy = copies;
    *ndelete = deletes;
    *type = MPI_Type_c2f(seen_type);
    *win = MPI_Win_c2f(seen_win);
    *value = (MPI_Aint)(intptr_t)seen_value;
    *extra_ok = seen_extra == &extra_token;
}

void c_set_type_ptr_(MPI_Fint *type, MPI_Fint *keyval, MPI_Aint *value, MPI_Fint *ierr) {
    *ierr = MPI_Type_set_attr(MPI_Type_f2c(*type), *keyval, (void *)(intptr_t)*value);
}

void c_set_win_ptr_(MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *value, MPI_Fint *ierr) {
    *ierr = MPI_Win_set_attr(MPI_Win_f2c(*win), *keyval, (void *)(intptr_t)*value);
}

void c_type_dup_(MPI_Fint *type, MPI_Fint *newtype, MPI_Fint *ierr) {
    MPI_Datatype t = MPI_DATATYPE_NULL;
    *ierr = MPI_Type_dup(MPI_Type_f2c(*type), &t);
    *newtype = MPI_Type_c2f(t);
}

void c_type_free_(MPI_Fint *type, MPI_Fint *ierr) {
    MPI_Datatype t = MPI_Type_f2c(*type);
    *ierr = MPI_Type_free(&t);
    *type = MPI_Type_c2f(t);
}

/* C reader of a value a Fortran routine stored: an MPI_Aint* (docs/DESIGN.md: a Fortran
 * ADDRESS_KIND copy routine's result is stored as FortranAddress). */
void c_get_type_aint_(MPI_Fint *type, MPI_Fint *keyval, MPI_Aint *value, MPI_Fint *flag,
                      MPI_Fint *ierr) {
    MPI_Aint *p = NULL;
    int f = 0;
    *ierr = MPI_Type_get_attr(MPI_Type_f2c(*type), *keyval, &p, &f);
    *flag = f;
    *value = (f && p) ? *p : -999999;
}

/* C reader of a value a C function stored: the pointer. */
void c_get_type_ptr_(MPI_Fint *type, MPI_Fint *keyval, MPI_Aint *value, MPI_Fint *flag,
                     MPI_Fint *ierr) {
    void *p = NULL;
    int f = 0;
    *ierr = MPI_Type_get_attr(MPI_Type_f2c(*type), *keyval, &p, &f);
    *flag = f;
    *value = (MPI_Aint)(intptr_t)p;
}

/* A datatype created in C, so callbacks see a C-created handle. */
void c_make_type_(MPI_Fint *type, MPI_Fint *ierr) {
    MPI_Datatype t;
    *ierr = MPI_Type_contiguous(2, MPI_INT, &t);
    *type = MPI_Type_c2f(t);
}
