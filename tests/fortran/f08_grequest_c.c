/* The C half of f08_grequest.F90: MPI 4.1 §19.3.5 from C, on statuses of mpi_f08. */
#include <mpi.h>

/* Whether the status Fortran passed is mpi_f08's MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE. */
int f08_is_status_ignore(MPI_F08_status *p) { return p == MPI_F08_STATUS_IGNORE; }
int f08_is_statuses_ignore(MPI_F08_status *p) { return p == MPI_F08_STATUSES_IGNORE; }

/* A C status (tag 23, four ints, cancelled) written into an mpi_f08 status. */
int f08_fill_status(MPI_F08_status *out)
{
    MPI_Status c;
    c.MPI_SOURCE = 0;
    c.MPI_TAG = 23;
    c.MPI_ERROR = MPI_SUCCESS;
    MPI_Status_set_elements(&c, MPI_INT, 4);
    MPI_Status_set_cancelled(&c, 1);
    return MPI_Status_c2f08(&c, out);
}

/* An mpi_f08 status read back in C: its tag times 1000 plus its count of ints. */
int f08_read_status(const MPI_F08_status *in)
{
    MPI_Status c;
    int n = -1;
    if (MPI_Status_f082c(in, &c) != MPI_SUCCESS)
        return -1;
    MPI_Get_count(&c, MPI_INT, &n);
    return c.MPI_TAG * 1000 + n;
}
