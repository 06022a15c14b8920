/* C half of ilp64_attr.F90 (the 8-byte Fortran INTEGER build): the C reader and writer of the
 * conversion tables (MPI 4.1 §20.3.7, docs/DESIGN.md "What each reader gets"). The C interface does
 * not change with -fdefault-integer-8 (mpi.h's MPI_Fint stays int), so these routines take
 * the Fortran INTEGERs they are passed by reference as int64_t. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

static int set_val = 3;

static void fail(int64_t *nfail, const char *what) {
    printf("FAIL (C): %s\n", what);
    ++*nfail;
}

/* The C types of the Fortran INTEGER and LOGICAL of this build. */
void c_sizes_(int64_t *nfail) {
    int size = 0;
    MPI_Type_size(MPI_INTEGER, &size);
    if (size != 8) fail(nfail, "C sees MPI_INTEGER of 8 bytes");
    MPI_Type_size(MPI_LOGICAL, &size);
    if (size != 8) fail(nfail, "C sees MPI_LOGICAL of 8 bytes");
}

/* FortranAddress row, C column: a pointer to an internal MPI_Aint holding the value. */
void c_read_aint_(int64_t *comm, int64_t *keyval, MPI_Aint *expect, int64_t *nfail) {
    MPI_Aint *p = NULL;
    int flag = 0;
    int rc = MPI_Comm_get_attr(MPI_Comm_f2c((MPI_Fint)*comm), (int)*keyval, &p, &flag);
    if (rc != MPI_SUCCESS || !flag || p == NULL || *p != *expect)
        fail(nfail, "C reads a pointer to the MPI_Aint 2**40");
}

/* FortranInteger row, C column: a pointer to the internal int, which holds the low 32 bits of
 * the 8-byte INTEGER (the C interface is unchanged: C readers of MPI_ATTR_PUT values and of
 * the integer-valued predefined attributes read an int). */
void c_read_int_(int64_t *comm, int64_t *keyval, int64_t *expect_low, int64_t *nfail) {
    int *p = NULL;
    int flag = 0;
    char what[200];
    int rc = MPI_Comm_get_attr(MPI_Comm_f2c((MPI_Fint)*comm), (int)*keyval, &p, &flag);
    snprintf(what, sizeof what, "C reads a pointer to the int %ld (rc %d flag %d got %ld)",
             (long)*expect_low, rc, flag, p ? (long)*p : -1L);
    if (rc != MPI_SUCCESS || !flag || p == NULL || *p != (int)*expect_low) fail(nfail, what);
    /* MPI_TAG_UB, as if set by MPI_ATTR_PUT: an int too. */
    rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &p, &flag);
    if (rc != MPI_SUCCESS || !flag || p == NULL || *p < 32767) fail(nfail, "C reads MPI_TAG_UB");
}

/* CPointer row: C sets a pointer; returns its address for the Fortran readers. */
void c_set_pointer_(int64_t *comm, int64_t *keyval, MPI_Aint *addr, int64_t *nfail) {
    if (MPI_Comm_set_attr(MPI_Comm_f2c((MPI_Fint)*comm), (int)*keyval, &set_val) != MPI_SUCCESS)
        fail(nfail, "C MPI_Comm_set_attr");
    *addr = (MPI_Aint)&set_val;
}
