/* The vector and nonblocking collectives over one process (MPI 4.1 §6) and packing (§5.2). */
#include <mpi.h>
#include <string.h>
#include "check.h"

static void vector_collectives(void)
{
    int send[3] = {7, 8, 9}, recv[6] = {0, 0, 0, 0, 0, 0};
    int counts[1] = {3}, displs[1] = {2}, rcounts[1] = {3}, rdispls[1] = {1};
    MPI_Datatype types[1] = {MPI_INT};
    int bdispls[1] = {4}, sbd[1] = {0};
    CHECK_EQ(MPI_Gatherv(send, 3, MPI_INT, recv, counts, displs, MPI_INT, 0, MPI_COMM_WORLD),
             MPI_SUCCESS, "MPI 4.1 §6.5: MPI_Gatherv");
    CHECK(recv[1] == 0 && recv[2] == 7 && recv[4] == 9,
          "MPI 4.1 §6.5: the root's block lands at displs[0] extents");
    memset(recv, 0, sizeof recv);
    MPI_Allgatherv(send, 3, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD);
    CHECK(recv[2] == 7 && recv[4] == 9, "MPI 4.1 §6.7: MPI_Allgatherv");
    memset(recv, 0, sizeof recv);
    {
        int big[5] = {1, 2, 3, 4, 5};
        MPI_Scatterv(big, counts, rdispls, MPI_INT, recv, 3, MPI_INT, 0, MPI_COMM_WORLD);
        CHECK(recv[0] == 2 && recv[2] == 4, "MPI 4.1 §6.6: MPI_Scatterv sends from displs[0]");
    }
    memset(recv, 0, sizeof recv);
    MPI_Alltoallv(send, rcounts, sbd, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD);
    CHECK(recv[2] == 7 && recv[4] == 9, "MPI 4.1 §6.8: MPI_Alltoallv");
    memset(recv, 0, sizeof recv);
    MPI_Alltoallw(send, rcounts, sbd, types, recv, counts, bdispls, types, MPI_COMM_WORLD);
    CHECK(recv[1] == 7 && recv[3] == 9, "MPI 4.1 §6.8: MPI_Alltoallw displacements are bytes");
    memset(recv, 0, sizeof recv);
    MPI_Reduce_scatter(send, recv, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(recv[0] == 7 && recv[2] == 9, "MPI 4.1 §6.10: MPI_Reduce_scatter over one process");
    memset(recv, 0, sizeof recv);
    MPI_Reduce_scatter_block(send, recv, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECK(recv[0] == 7 && recv[1] == 8 && recv[2] == 0, "MPI 4.1 §6.10: MPI_Reduce_scatter_block");
    CHECK_EQ(MPI_Gatherv(send, 3, MPI_INT, recv, NULL, displs, MPI_INT, 0, MPI_COMM_WORLD),
             MPI_ERR_ARG, "MPI 4.1 §6.5: recvcounts is needed at the root");
}

static void nonblocking_collectives(void)
{
    int send[2] = {3, 4}, recv[2] = {0, 0}, flag = 0;
    MPI_Request r[4];
    MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
    MPI_Iallreduce(send, recv, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]);
    MPI_Ibcast(send, 2, MPI_INT, 0, MPI_COMM_WORLD, &r[2]);
    MPI_Igather(send, 2, MPI_INT, recv, 2, MPI_INT, 0, MPI_COMM_WORLD, &r[3]);
    MPI_Testall(4, r, &flag, MPI_STATUSES_IGNORE);
    CHECK(flag && recv[0] == 3 && recv[1] == 4,
          "MPI 4.1 §6.12: over one process a nonblocking collective completes at once");
    CHECK(r[0] == MPI_REQUEST_NULL && r[3] == MPI_REQUEST_NULL, "MPI 4.1 §3.7.3: freed on test");
    CHECK_EQ(MPI_Ireduce(send, recv, 2, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD, &r[0]), MPI_ERR_ROOT,
             "MPI 4.1 §6.9.1: a root outside the communicator");
}

static void packing(void)
{
    int grid[6] = {1, 2, 3, 4, 5, 6}, col[3] = {0, 0, 0}, size = 0, pos = 0;
    char buf[64];
    double d = 2.5, e = 0;
    MPI_Datatype vec;
    MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Pack_size(1, vec, MPI_COMM_WORLD, &size);
    CHECK_EQ(size, 12, "MPI 4.1 §5.2: MPI_Pack_size is an upper bound of the packed size");
    CHECK_EQ(MPI_Pack(grid + 1, 1, vec, buf, sizeof buf, &pos, MPI_COMM_WORLD), MPI_SUCCESS,
             "MPI 4.1 §5.2: MPI_Pack");
    MPI_Pack(&d, 1, MPI_DOUBLE, buf, sizeof buf, &pos, MPI_COMM_WORLD);
    CHECK_EQ(pos, 20, "MPI 4.1 §5.2: position moves past what was packed");
    pos = 0;
    MPI_Unpack(buf, sizeof buf, &pos, col, 3, MPI_INT, MPI_COMM_WORLD);
    MPI_Unpack(buf, sizeof buf, &pos, &e, 1, MPI_DOUBLE, MPI_COMM_WORLD);
    CHECK(col[0] == 2 && col[1] == 4 && col[2] == 6 && e == 2.5,
          "MPI 4.1 §5.2: MPI_Unpack reads back what was packed, in order");
    pos = 60;
    CHECK_EQ(MPI_Pack(grid, 3, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
             "MPI 4.1 §5.2: packing past outsize is an error");
    CHECK_EQ(pos, 60, "a failed pack leaves the position alone");
    {
        MPI_Aint a = 1000;
        CHECK(MPI_Aint_add(a, 24) == 1024 && MPI_Aint_diff(1024, a) == 24,
              "MPI 4.1 §5.1.5: MPI_Aint_add and MPI_Aint_diff");
    }
    MPI_Type_free(&vec);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    vector_collectives();
    nonblocking_collectives();
    packing();
    MPI_Finalize();
    return check_summary("coll_vector_pack");
}
