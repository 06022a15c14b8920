/* C half of handoff_mp.f90: reads a Fortran-set attribute of a dup (an MPI_Aint* to the value,
 * MPI 4.1 §20.3.7) and frees the dup from C. */
#include <mpi.h>
#include <stddef.h>

int c_read_from_dup_(MPI_Fint *comm, MPI_Fint *keyval)
{
    MPI_Aint *p = NULL;
    int flag = 0;
    if (MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &p, &flag) != MPI_SUCCESS || !flag || !p)
        return -1;
    return (int)*p;
}

int c_free_(MPI_Fint *comm)
{
    MPI_Comm c = MPI_Comm_f2c(*comm);
    return MPI_Comm_free(&c);
}
