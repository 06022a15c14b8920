/* Neighbourhood collectives on one process (MPI 4.1 §8.6, §8.7): the neighbours are the
 * process itself or MPI_PROC_NULL, in the topology's neighbour order. */
#include <mpi.h>
#include "check.h"

static int cls(int rc)
{
    int c;
    MPI_Error_class(rc, &c);
    return c;
}

int main(int argc, char **argv)
{
    MPI_Comm ring, line, dg;
    MPI_Request req;
    MPI_Status st;
    int dims[2] = {1, 1}, periods[2] = {1, 0};
    int send[4], recv[4], counts[4], displs[4], i, flag;
    MPI_Aint adispls[4], bdispls[4];
    MPI_Count ccounts[4];
    MPI_Datatype types[4];
    int srcs[2] = {0, 0}, dsts[2] = {0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* ring: 1-D periodic, extent 1 (both neighbours are self);
     * line: 2-D, dimension 0 periodic, dimension 1 not (its neighbours are MPI_PROC_NULL). */
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &line);
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(line, MPI_ERRORS_RETURN);

    send[0] = 10; send[1] = 11; send[2] = 12; send[3] = 13;
    for (i = 0; i < 4; i++) recv[i] = -1;
    CHECK_EQ(MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, ring), MPI_SUCCESS, "MPI 4.1 §8.6.2 MPI_Neighbor_alltoall");
    CHECK(recv[0] == 11 && recv[1] == 10 && recv[2] == -1,
          "MPI 4.1 §8.6: block sent to the negative neighbour arrives in its positive slot (periodic extent 1)");

    for (i = 0; i < 4; i++) recv[i] = -1;
    CHECK_EQ(MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, line), MPI_SUCCESS, "MPI 4.1 §8.6.2 on a 2-D grid");
    CHECK(recv[0] == 11 && recv[1] == 10, "MPI 4.1 §8.6: dimension 0 exchanges with self");
    CHECK(recv[2] == -1 && recv[3] == -1, "MPI 4.1 §8.6: blocks from MPI_PROC_NULL are not modified");

    for (i = 0; i < 4; i++) recv[i] = -1;
    CHECK_EQ(MPI_Neighbor_allgather(send, 1, MPI_INT, recv, 1, MPI_INT, line), MPI_SUCCESS, "MPI 4.1 §8.6.1 MPI_Neighbor_allgather");
    CHECK(recv[0] == 10 && recv[1] == 10 && recv[2] == -1 && recv[3] == -1, "MPI 4.1 §8.6.1: every in-neighbour's block is the send buffer");

    for (i = 0; i < 4; i++) recv[i] = -1;
    counts[0] = 1; counts[1] = 2; displs[0] = 3; displs[1] = 0;
    CHECK_EQ(MPI_Neighbor_allgatherv(send, 1, MPI_INT, recv, counts, displs, MPI_INT, ring), MPI_SUCCESS, "MPI 4.1 §8.6.1 MPI_Neighbor_allgatherv");
    CHECK(recv[3] == 10 && recv[0] == 10 && recv[1] == -1, "MPI 4.1 §8.6.1: blocks at their displacements");

    for (i = 0; i < 4; i++) recv[i] = -1;
    counts[0] = 1; counts[1] = 1; displs[0] = 3; displs[1] = 2;
    CHECK_EQ(MPI_Neighbor_alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, ring), MPI_SUCCESS, "MPI 4.1 §8.6.2 MPI_Neighbor_alltoallv");
    CHECK(recv[3] == 12 && recv[2] == 13, "MPI 4.1 §8.6: alltoallv pairs block s with block s^1");

    for (i = 0; i < 4; i++) recv[i] = -1;
    adispls[0] = 0; adispls[1] = sizeof(int); types[0] = types[1] = MPI_INT;
    CHECK_EQ(MPI_Neighbor_alltoallw(send, counts, adispls, types, recv, counts, adispls, types, ring), MPI_SUCCESS, "MPI 4.1 §8.6.2 MPI_Neighbor_alltoallw");
    CHECK(recv[0] == 11 && recv[1] == 10, "MPI 4.1 §8.6.2: byte displacements");

    /* Distributed graph with two edges to self: the k-th edge pairs with the k-th. */
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, srcs, MPI_UNWEIGHTED, 2, dsts, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dg);
    MPI_Comm_set_errhandler(dg, MPI_ERRORS_RETURN);
    for (i = 0; i < 4; i++) recv[i] = -1;
    CHECK_EQ(MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, dg), MPI_SUCCESS, "MPI 4.1 §8.6.2 on a distributed graph");
    CHECK(recv[0] == 10 && recv[1] == 11, "MPI 4.1 §8.6: in a graph the k-th edge from self matches the k-th edge to self");

    /* Nonblocking */
    for (i = 0; i < 4; i++) recv[i] = -1;
    CHECK_EQ(MPI_Ineighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, ring, &req), MPI_SUCCESS, "MPI 4.1 §8.7.2 MPI_Ineighbor_alltoall");
    MPI_Wait(&req, &st);
    CHECK(req == MPI_REQUEST_NULL, "MPI 4.1 §3.7.3: a completed nonblocking request is freed");
    CHECK(recv[0] == 11 && recv[1] == 10, "MPI 4.1 §8.7: the same pairing as the blocking form");

    /* Persistent: inactive until started, restartable, reads the buffer at each start. */
    for (i = 0; i < 4; i++) recv[i] = -1;
    CHECK_EQ(MPI_Neighbor_allgather_init(send, 1, MPI_INT, recv, 1, MPI_INT, ring, MPI_INFO_NULL, &req), MPI_SUCCESS,
             "MPI 4.1 §8.8 MPI_Neighbor_allgather_init");
    CHECK(recv[0] == -1, "MPI 4.1 §3.9: init moves no data");
    MPI_Start(&req);
    MPI_Wait(&req, &st);
    CHECK(req != MPI_REQUEST_NULL && recv[0] == 10 && recv[1] == 10, "MPI 4.1 §3.9: started, complete, the request stays");
    send[0] = 20;
    MPI_Start(&req);
    MPI_Test(&req, &flag, &st);
    CHECK(flag && recv[0] == 20, "MPI 4.1 §3.9: a restart moves the buffer's current data");
    MPI_Request_free(&req);

    /* _c forms */
    for (i = 0; i < 4; i++) recv[i] = -1;
    ccounts[0] = ccounts[1] = 1; bdispls[0] = 1; bdispls[1] = 0;
    CHECK_EQ(MPI_Neighbor_alltoallv_c(send, ccounts, bdispls, MPI_INT, recv, ccounts, bdispls, MPI_INT, ring), MPI_SUCCESS,
             "MPI 4.1 §8.6.2 MPI_Neighbor_alltoallv_c");
    CHECK(recv[1] == 20 && recv[0] == 11, "MPI 4.1 §8.6.2: MPI_Count counts, MPI_Aint displacements");
    for (i = 0; i < 4; i++) recv[i] = -1;
    CHECK_EQ(MPI_Ineighbor_allgather_c(send, 1, MPI_INT, recv, 1, MPI_INT, line, &req), MPI_SUCCESS, "MPI 4.1 §8.7 MPI_Ineighbor_allgather_c");
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(recv[0] == 20 && recv[2] == -1, "MPI 4.1 §8.7: _c nonblocking form");

    /* Errors */
    CHECK_EQ(cls(MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD)), MPI_ERR_TOPOLOGY,
             "MPI 4.1 §8.6: a communicator without topology");
    CHECK_EQ(cls(MPI_Neighbor_alltoall(send, 2, MPI_INT, recv, 1, MPI_INT, ring)), MPI_ERR_TRUNCATE,
             "MPI 4.1 §8.6: more data than the receive block holds");
    CHECK_EQ(cls(MPI_Neighbor_allgather(MPI_IN_PLACE, 1, MPI_INT, recv, 1, MPI_INT, ring)), MPI_ERR_BUFFER,
             "MPI 4.1 §8.6: MPI_IN_PLACE is not an option here");
    CHECK_EQ(cls(MPI_Neighbor_alltoall(send, -1, MPI_INT, recv, 1, MPI_INT, ring)), MPI_ERR_COUNT, "MPI 4.1 §8.6: negative count");
    CHECK_EQ(cls(MPI_Neighbor_alltoall(send, 1, MPI_DATATYPE_NULL, recv, 1, MPI_INT, ring)), MPI_ERR_TYPE, "MPI 4.1 §8.6: null datatype");

    MPI_Comm_free(&dg);
    MPI_Comm_free(&line);
    MPI_Comm_free(&ring);
    MPI_Finalize();
    return check_summary("neighbor");
}
