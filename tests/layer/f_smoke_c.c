/* The C reader of tests/layer/f_smoke.f90 and f08_smoke.f90: reads a communicator attribute
 * from C (MPI 4.1 §20.3.7: a Fortran-set value reads as a pointer to an MPI_Aint holding it). */
#include <mpi.h>
#include <stddef.h>

int c_read_(MPI_Fint *comm, MPI_Fint *keyval)
{
    MPI_Aint *p = NULL;
    int flag = 0;
    if (MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &p, &flag) != MPI_SUCCESS || !flag || !p)
        return -1;
    return (int)*p;
}
