/* C half of f08_mixed.F90: C beside mpi_f08, mpi and mpif.h units in one program sees the
 * same keyvals and attributes (MPI 4.1 §19.3.4 handle conversion, §20.3.7). */
#include <mpi.h>
#include <stdio.h>

static void fail(MPI_Fint *nfail, const char *what) {
    printf("FAIL (C): %s\n", what);
    ++*nfail;
}

/* The handle an mpi_f08 unit passes as comm%MPI_VAL converts with MPI_Comm_f2c; C reads
 * the ADDRESS_KIND value `aval` on keyval ka (a pointer to an MPI_Aint) and the INTEGER value
 * `ival` put by MPI_ATTR_PUT on keyval ki (a pointer to an int), then sets (void*)4242 on kc. */
void c_mixed_(MPI_Fint *fcomm, MPI_Fint *ka, MPI_Aint *aval, MPI_Fint *ki, MPI_Fint *ival,
              MPI_Fint *kc, MPI_Fint *nfail) {
    MPI_Comm comm = MPI_Comm_f2c(*fcomm);
    MPI_Aint *pa = NULL;
    int *pi = NULL, flag = 0;
    if (MPI_Comm_c2f(comm) != *fcomm) fail(nfail, "MPI_Comm_c2f(MPI_Comm_f2c(h)) == h");
    if (MPI_Comm_get_attr(comm, *ka, &pa, &flag) || !flag || *pa != *aval)
        fail(nfail, "C reads the mpi_f08 ADDRESS_KIND value through MPI_Aint*");
    flag = 0;
    if (MPI_Comm_get_attr(comm, *ki, &pi, &flag) || !flag || *pi != (int)*ival)
        fail(nfail, "C reads the mpif.h MPI_ATTR_PUT value through int*");
    if (MPI_Comm_set_attr(comm, *kc, (void *)4242)) fail(nfail, "C MPI_Comm_set_attr");
}
