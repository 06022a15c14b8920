/* The data-moving collectives over one process (MPI 4.1 §6): gather, scatter, allgather,
 * alltoall move the process's own part from the send to the receive buffer, along both
 * datatypes' typemaps; MPI_IN_PLACE leaves it where it is; scan is the process's own
 * contribution; exscan leaves rank 0's buffer alone. */
#include <mpi.h>
#include "check.h"

int main(int argc, char **argv)
{
    int send[4] = {1, 2, 3, 4}, recv[4], i, rc, cls;
    double d[4] = {0, 0, 0, 0}, strided[8];
    MPI_Datatype vec;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    for (i = 0; i < 4; i++) recv[i] = -1;
    CHECK_EQ(MPI_Gather(send, 4, MPI_INT, recv, 4, MPI_INT, 0, MPI_COMM_WORLD), MPI_SUCCESS, "MPI 4.1 §6.5 MPI_Gather");
    CHECK(recv[0] == 1 && recv[3] == 4, "MPI 4.1 §6.5: the root receives its own part");
    for (i = 0; i < 4; i++) recv[i] = -1;
    CHECK_EQ(MPI_Allgather(send, 2, MPI_INT, recv, 2, MPI_INT, MPI_COMM_WORLD), MPI_SUCCESS, "MPI 4.1 §6.7 MPI_Allgather");
    CHECK(recv[0] == 1 && recv[1] == 2 && recv[2] == -1, "MPI 4.1 §6.7: one part of two ints");
    for (i = 0; i < 4; i++) recv[i] = -1;
    CHECK_EQ(MPI_Scatter(send, 3, MPI_INT, recv, 3, MPI_INT, 0, MPI_COMM_WORLD), MPI_SUCCESS, "MPI 4.1 §6.6 MPI_Scatter");
    CHECK(recv[2] == 3 && recv[3] == -1, "MPI 4.1 §6.6: the root keeps its part");
    for (i = 0; i < 4; i++) recv[i] = -1;
    CHECK_EQ(MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD), MPI_SUCCESS, "MPI 4.1 §6.8 MPI_Alltoall");
    CHECK(recv[0] == 1 && recv[1] == -1, "MPI 4.1 §6.8: the block for itself");

    /* Different typemaps on both sides: 4 doubles gathered into a strided vector. */
    for (i = 0; i < 4; i++) d[i] = i + 0.5;
    for (i = 0; i < 8; i++) strided[i] = -1;
    MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    CHECK_EQ(MPI_Gather(d, 4, MPI_DOUBLE, strided, 1, vec, 0, MPI_COMM_WORLD), MPI_SUCCESS, "MPI 4.1 §6.5: type signatures match, layouts differ");
    CHECK(strided[0] == 0.5 && strided[1] == -1 && strided[6] == 3.5, "MPI 4.1 §6.5: received along the receive type's typemap");
    MPI_Type_free(&vec);

    /* MPI_IN_PLACE */
    for (i = 0; i < 4; i++) recv[i] = 9;
    CHECK_EQ(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, 4, MPI_INT, MPI_COMM_WORLD), MPI_SUCCESS, "MPI 4.1 §6.7: MPI_IN_PLACE");
    CHECK(recv[0] == 9, "MPI 4.1 §6.7: in place, the part is already there");
    CHECK_EQ(MPI_Scatter(send, 4, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_SUCCESS, "MPI 4.1 §6.6: MPI_IN_PLACE at the root");

    /* Scan and exscan */
    for (i = 0; i < 4; i++) recv[i] = -1;
    CHECK_EQ(MPI_Scan(send, recv, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS, "MPI 4.1 §6.11.1 MPI_Scan");
    CHECK(recv[3] == 4, "MPI 4.1 §6.11.1: rank 0's prefix is its own contribution");
    recv[0] = 42;
    CHECK_EQ(MPI_Exscan(send, recv, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS, "MPI 4.1 §6.11.2 MPI_Exscan");
    CHECK_EQ(recv[0], 42, "MPI 4.1 §6.11.2: rank 0's receive buffer is not written");

    /* Errors */
    rc = MPI_Gather(send, 4, MPI_INT, recv, 2, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK_EQ(cls, MPI_ERR_TRUNCATE, "MPI 4.1 §6.5: more sent than the receive buffer holds");
    rc = MPI_Gather(send, 4, MPI_INT, recv, 4, MPI_INT, 1, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK_EQ(cls, MPI_ERR_ROOT, "MPI 4.1 §6.5: root 1 of a one-process communicator");

    MPI_Finalize();
    return check_summary("collectives");
}
