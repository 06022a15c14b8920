/* Persistent collectives (MPI 4.1 §6.13) and the _c forms (§6, MPI_Count counts) on one
 * process. */
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
    MPI_Request req, reqs[3];
    MPI_Status st;
    int send[4] = {1, 2, 3, 4}, recv[4], recv2[4], i, flag;
    int counts[1] = {2}, displs[1] = {1};
    MPI_Count ccounts[1] = {2};
    MPI_Aint cdispls[1] = {2};
    MPI_Datatype types[1] = {MPI_INT};

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* An init moves nothing; each start runs the collective with the buffer's data then. */
    for (i = 0; i < 4; i++) recv[i] = 0;
    CHECK_EQ(MPI_Allreduce_init(send, recv, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req), MPI_SUCCESS,
             "MPI 4.1 §6.13 MPI_Allreduce_init");
    CHECK(recv[0] == 0, "MPI 4.1 §6.13: the init call moves no data");
    MPI_Request_get_status(req, &flag, &st);
    CHECK(flag, "MPI 4.1 §3.7.3: an inactive persistent request is complete");
    CHECK_EQ(MPI_Start(&req), MPI_SUCCESS, "MPI 4.1 §6.13 MPI_Start");
    CHECK_EQ(cls(MPI_Start(&req)), MPI_ERR_REQUEST, "MPI 4.1 §3.9: starting an active request is erroneous");
    CHECK_EQ(MPI_Wait(&req, &st), MPI_SUCCESS, "MPI 4.1 §6.13 MPI_Wait");
    CHECK(req != MPI_REQUEST_NULL, "MPI 4.1 §3.9: the persistent request stays after completion");
    CHECK(recv[0] == 1 && recv[3] == 4, "MPI 4.1 §6.9: one process's allreduce is its contribution");
    send[0] = 7;
    MPI_Start(&req);
    MPI_Test(&req, &flag, &st);
    CHECK(flag && recv[0] == 7, "MPI 4.1 §6.13: restarted, it reads the send buffer again");
    CHECK_EQ(MPI_Request_free(&req), MPI_SUCCESS, "MPI 4.1 §3.9 MPI_Request_free");
    CHECK(req == MPI_REQUEST_NULL, "MPI 4.1 §3.7.3: freed");

    /* Startall over several persistent collectives. */
    for (i = 0; i < 4; i++) recv[i] = recv2[i] = 0;
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]);
    MPI_Bcast_init(send, 4, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[1]);
    MPI_Gatherv_init(send, 2, MPI_INT, recv2, counts, displs, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[2]);
    CHECK_EQ(MPI_Startall(3, reqs), MPI_SUCCESS, "MPI 4.1 §3.9 MPI_Startall");
    CHECK_EQ(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE), MPI_SUCCESS, "MPI 4.1 §3.9 MPI_Waitall");
    CHECK(recv2[1] == 7 && recv2[2] == 2 && recv2[0] == 0, "MPI 4.1 §6.5: gatherv places the block at its displacement");
    for (i = 0; i < 3; i++) MPI_Request_free(&reqs[i]);

    /* A persistent collective with a bad argument fails at its start and stays inactive. */
    MPI_Reduce_init(send, recv, 4, MPI_INT, MPI_SUM, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    CHECK_EQ(cls(MPI_Start(&req)), MPI_ERR_ROOT, "MPI 4.1 §6.9.1: root 3 of a one-process communicator");
    CHECK_EQ(cls(MPI_Start(&req)), MPI_ERR_ROOT, "MPI 4.1 §3.9: the failed start left it inactive, so it can start again");
    MPI_Request_free(&req);
    CHECK_EQ(cls(MPI_Barrier_init(MPI_COMM_NULL, MPI_INFO_NULL, &req)), MPI_ERR_COMM, "MPI 4.1 §6.13: invalid communicator at init");
    CHECK_EQ(cls(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, NULL)), MPI_ERR_ARG, "NULL request");

    /* _c forms */
    for (i = 0; i < 4; i++) recv[i] = 0;
    CHECK_EQ(MPI_Allgather_c(send, 4, MPI_INT, recv, 4, MPI_INT, MPI_COMM_WORLD), MPI_SUCCESS, "MPI 4.1 §6.7 MPI_Allgather_c");
    CHECK(recv[0] == 7 && recv[3] == 4, "MPI 4.1 §6.7: own block");
    for (i = 0; i < 4; i++) recv[i] = 0;
    CHECK_EQ(MPI_Alltoallv_c(send, ccounts, cdispls, MPI_INT, recv, ccounts, cdispls, MPI_INT, MPI_COMM_WORLD), MPI_SUCCESS,
             "MPI 4.1 §6.8 MPI_Alltoallv_c");
    CHECK(recv[2] == 3 && recv[3] == 4 && recv[0] == 0, "MPI 4.1 §6.8: MPI_Aint displacements in extents");
    for (i = 0; i < 4; i++) recv[i] = 0;
    cdispls[0] = 4;
    CHECK_EQ(MPI_Alltoallw_c(send, ccounts, cdispls, types, recv, ccounts, cdispls, types, MPI_COMM_WORLD), MPI_SUCCESS,
             "MPI 4.1 §6.8 MPI_Alltoallw_c");
    CHECK(recv[1] == 2 && recv[2] == 3 && recv[0] == 0, "MPI 4.1 §6.8: byte displacements");
    for (i = 0; i < 4; i++) recv[i] = 0;
    CHECK_EQ(MPI_Ireduce_c(send, recv, 4, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD, &req), MPI_SUCCESS, "MPI 4.1 §6.12 MPI_Ireduce_c");
    MPI_Wait(&req, &st);
    CHECK(req == MPI_REQUEST_NULL && recv[0] == 7, "MPI 4.1 §6.12: complete");
    CHECK_EQ(cls(MPI_Gather_c(send, 4, MPI_INT, recv, 2, MPI_INT, 0, MPI_COMM_WORLD)), MPI_ERR_TRUNCATE,
             "MPI 4.1 §6.5: more sent than received (_c)");
    CHECK_EQ(cls(MPI_Bcast_c(send, -1, MPI_INT, 0, MPI_COMM_WORLD)), MPI_ERR_COUNT, "MPI 4.1 §6.4: negative count (_c)");
    for (i = 0; i < 4; i++) recv[i] = 0;
    cdispls[0] = 1;
    CHECK_EQ(MPI_Scatterv_init_c(send, ccounts, cdispls, MPI_INT, recv, 2, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req), MPI_SUCCESS,
             "MPI 4.1 §6.13 MPI_Scatterv_init_c");
    MPI_Start(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(recv[0] == 2 && recv[1] == 3 && recv[2] == 0, "MPI 4.1 §6.6: scatterv sends the block at its MPI_Aint displacement");
    MPI_Request_free(&req);

    MPI_Finalize();
    return check_summary("coll_persistent");
}
