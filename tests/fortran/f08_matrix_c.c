/* C half of f08_matrix.F90: the C writer and C reader of the writer x reader matrix (MPI 4.1
 * §20.3.7, docs/DESIGN.md "What each reader gets") against mpi_f08 programs. Handles arrive as the
 * MPI_VAL integers (comm%MPI_VAL), by reference. */
#include <mpi.h>
#include <stdio.h>

static int set_val = 3;

static void fail(MPI_Fint *nfail, const char *what) {
    printf("FAIL (C): %s\n", what);
    ++*nfail;
}

/* kind: 0 comm, 1 datatype, 2 window. */
static int c_set(int kind, MPI_Fint h, int keyval, void *v) {
    switch (kind) {
    case 0: return MPI_Comm_set_attr(MPI_Comm_f2c(h), keyval, v);
    case 1: return MPI_Type_set_attr(MPI_Type_f2c(h), keyval, v);
    default: return MPI_Win_set_attr(MPI_Win_f2c(h), keyval, v);
    }
}

static int c_get(int kind, MPI_Fint h, int keyval, void *v, int *flag) {
    switch (kind) {
    case 0: return MPI_Comm_get_attr(MPI_Comm_f2c(h), keyval, v, flag);
    case 1: return MPI_Type_get_attr(MPI_Type_f2c(h), keyval, v, flag);
    default: return MPI_Win_get_attr(MPI_Win_f2c(h), keyval, v, flag);
    }
}

/* Writer C: sets &set_val on the object; returns the address stored. */
void c_set_pointer_(MPI_Fint *kind, MPI_Fint *h, MPI_Fint *keyval, MPI_Aint *addr, MPI_Fint *nfail) {
    if (c_set(*kind, *h, *keyval, &set_val) != MPI_SUCCESS) fail(nfail, "C *_set_attr");
    *addr = (MPI_Aint)&set_val;
}

/* Reader C of a value an mpi_f08 program set with *_SET_ATTR (ADDRESS_KIND): a pointer to an
 * MPI_Aint holding the value. */
void c_read_aint_(MPI_Fint *kind, MPI_Fint *h, MPI_Fint *keyval, MPI_Aint *expect, MPI_Fint *nfail) {
    MPI_Aint *p = NULL;
    int flag = 0;
    char what[200];
    int rc = c_get(*kind, *h, *keyval, &p, &flag);
    snprintf(what, sizeof what, "C reads kind %d: a pointer to the MPI_Aint %ld (rc %d flag %d got %ld)",
             (int)*kind, (long)*expect, rc, flag, p ? (long)*p : -1L);
    if (rc != MPI_SUCCESS || !flag || p == NULL || *p != *expect) fail(nfail, what);
}

/* Reader C of a C-set pointer: the pointer itself. */
void c_read_pointer_(MPI_Fint *kind, MPI_Fint *h, MPI_Fint *keyval, MPI_Aint *expect, MPI_Fint *nfail) {
    void *p = NULL;
    int flag = 0;
    int rc = c_get(*kind, *h, *keyval, &p, &flag);
    if (rc != MPI_SUCCESS || !flag || (MPI_Aint)p != *expect) fail(nfail, "C reads the C pointer back");
}

/* The Fortran handle of C's MPI_COMM_WORLD, MPI_INT and a window, as mpi_f08 sees them. */
void c_handles_(MPI_Fint *world, MPI_Fint *self, MPI_Fint *integer, MPI_Fint *nfail) {
    if (*world != MPI_Comm_c2f(MPI_COMM_WORLD)) fail(nfail, "MPI_COMM_WORLD%MPI_VAL is C's handle");
    if (*self != MPI_Comm_c2f(MPI_COMM_SELF)) fail(nfail, "MPI_COMM_SELF%MPI_VAL is C's handle");
    if (*integer != MPI_Type_c2f(MPI_INTEGER)) fail(nfail, "MPI_INTEGER%MPI_VAL is C's MPI_INTEGER");
}
