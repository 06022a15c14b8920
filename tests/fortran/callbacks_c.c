/* C half of callbacks.F90: C sets, dups and frees on Fortran-created keyvals, and owns a
 * C-created keyval whose C callbacks Fortran's MPI_COMM_DUP / MPI_COMM_FREE run. */
#include <mpi.h>
#include <stdio.h>
#include <stdint.h>

static void fail(MPI_Fint *nfail, const char *what) {
    printf("FAIL (C): %s\n", what);
    ++*nfail;
}

void c_set_ptr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *value, MPI_Fint *ierr) {
    *ierr = MPI_Comm_set_attr(MPI_Comm_f2c(*comm), *keyval, (void *)(intptr_t)*value);
}

void c_dup_(MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *ierr) {
    MPI_Comm nc = MPI_COMM_NULL;
    *ierr = MPI_Comm_dup(MPI_Comm_f2c(*comm), &nc);
    *newcomm = MPI_Comm_c2f(nc);
}

void c_free_(MPI_Fint *comm, MPI_Fint *ierr) {
    MPI_Comm c = MPI_Comm_f2c(*comm);
    *ierr = MPI_Comm_free(&c);
    *comm = MPI_Comm_c2f(c);
}

void c_free_keyval_(MPI_Fint *keyval, MPI_Fint *ierr) {
    int k = *keyval;
    *ierr = MPI_Comm_free_keyval(&k);
    *keyval = k;
}

/* C reads of a Fortran-typed value: int* for FortranInteger, MPI_Aint* for FortranAddress. */
void c_get_int_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *value, MPI_Fint *flag, MPI_Fint *ierr) {
    int *p = NULL, f = 0;
    *ierr = MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &p, &f);
    *flag = f;
    *value = (f && p) ? *p : -999999;
}

void c_get_aint_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *value, MPI_Fint *flag, MPI_Fint *ierr) {
    MPI_Aint *p = NULL;
    int f = 0;
    *ierr = MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &p, &f);
    *flag = f;
    *value = (f && p) ? *p : -999999;
}

/* ---- a C-created keyval ---- */
static int c_extra = 0;
static int copies, deletes;
static MPI_Comm seen_comm;
static int seen_keyval;
static void *seen_extra;
static MPI_Aint seen_value;
static void *seen_pointer;

static int c_copy(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag) {
    copies++;
    seen_comm = oldcomm;
    seen_keyval = keyval;
    seen_extra = extra;
    seen_pointer = in;
    seen_value = in ? *(MPI_Aint *)in : -1;
    /* Hand back, unchanged, the pointer to the internal MPI_Aint: docs/DESIGN.md says the value and
     * its provenance are copied, never a pointer into the old object. */
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int c_delete(MPI_Comm comm, int keyval, void *value, void *extra) {
    deletes++;
    seen_comm = comm;
    seen_keyval = keyval;
    seen_extra = extra;
    seen_pointer = value;
    seen_value = value ? *(MPI_Aint *)value : -1;
    return MPI_SUCCESS;
}

void c_make_keyval_(MPI_Fint *keyval, MPI_Fint *ierr) {
    int k;
    *ierr = MPI_Comm_create_keyval(c_copy, c_delete, &k, &c_extra);
    *keyval = k;
}

/* What the C callbacks last saw (MPI 4.1 §7.7.2: the C convention, since C created the
 * keyval; the value is what a C reader gets: a pointer to an MPI_Aint for a
 * MPI_COMM_SET_ATTR value). */
void c_seen_(MPI_Fint *ncopies, MPI_Fint *ndeletes, MPI_Fint *comm, MPI_Fint *keyval,
             MPI_Fint *extra_ok, MPI_Aint *value, MPI_Aint *pointer) {
    *ncopies = copies;
    *ndeletes = deletes;
    *comm = MPI_Comm_c2f(seen_comm);
    *keyval = seen_keyval;
    *extra_ok = seen_extra == &c_extra;
    *value = seen_value;
    *pointer = (MPI_Aint)seen_pointer;
}

void c_get_pointer_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *pointer, MPI_Fint *nfail) {
    void *p = NULL;
    int f = 0;
    if (MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &p, &f) != MPI_SUCCESS || !f)
        fail(nfail, "C get_attr");
    *pointer = (MPI_Aint)p;
}
