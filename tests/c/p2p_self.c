/* Point-to-point communication of one process with itself (MPI 4.1 §3). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

static void blocking(void)
{
    int out[4] = {1, 2, 3, 4}, in[4] = {0, 0, 0, 0}, n = -1;
    MPI_Status s;
    CHECK_EQ(MPI_Send(out, 4, MPI_INT, 0, 7, MPI_COMM_WORLD), MPI_SUCCESS,
             "MPI 4.1 §3.4: a standard send to self completes (buffered eagerly)");
    out[0] = 99; /* the send buffer may be reused once the send returned */
    CHECK_EQ(MPI_Recv(in, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &s),
             MPI_SUCCESS, "MPI 4.1 §3.2.4: the receive takes the queued message");
    CHECK(in[0] == 1 && in[3] == 4, "MPI 4.1 §3.2.4: the data is what was sent");
    CHECK(s.MPI_SOURCE == 0 && s.MPI_TAG == 7, "MPI 4.1 §3.2.5: source and tag in the status");
    MPI_Get_count(&s, MPI_INT, &n);
    CHECK_EQ(n, 4, "MPI 4.1 §3.2.5: the count received");

    /* Order: two messages with the same envelope arrive in the order sent (§3.5). */
    {
        int a = 10, b = 20, x = 0, y = 0;
        MPI_Send(&a, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Send(&b, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(x == 10 && y == 20, "MPI 4.1 §3.5: messages do not overtake each other");
    }
    /* Tag selection skips a message of another tag. */
    {
        int a = 1, b = 2, x = 0;
        MPI_Send(&a, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Send(&b, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
        MPI_Recv(&x, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK_EQ(x, 2, "MPI 4.1 §3.5: a receive matches by tag");
        MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK_EQ(x, 1, "MPI 4.1 §3.5: the other message is still there");
    }
    /* Communicators are separate contexts. */
    {
        MPI_Comm dup;
        int a = 5, flag = 1;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Send(&a, 1, MPI_INT, 0, 0, dup);
        MPI_Iprobe(0, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        CHECK(!flag, "MPI 4.1 §3.2.4: a message on another communicator does not match");
        MPI_Iprobe(0, 0, dup, &flag, &s);
        CHECK(flag && s.MPI_TAG == 0, "MPI 4.1 §3.8.1: MPI_Iprobe finds it on its communicator");
        MPI_Recv(&a, 1, MPI_INT, 0, 0, dup, MPI_STATUS_IGNORE);
        MPI_Comm_free(&dup);
    }
}

static void errors(void)
{
    int x[2] = {0, 0};
    MPI_Status s;
    int n = 0;
    CHECK_EQ(MPI_Recv(x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &s), MPI_ERR_OTHER,
             "a blocking receive no send can match would wait forever: reported, not hung");
    CHECK_EQ(MPI_Send(x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD), MPI_ERR_RANK,
             "MPI 4.1 §3.2.3: dest must be a rank of the communicator");
    CHECK_EQ(MPI_Send(x, 1, MPI_INT, 0, -5, MPI_COMM_WORLD), MPI_ERR_TAG,
             "MPI 4.1 §3.2.3: a send's tag is 0..MPI_TAG_UB");
    CHECK_EQ(MPI_Send(x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT,
             "MPI 4.1 §2.6.4: a negative count");
    CHECK_EQ(MPI_Ssend(x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_OTHER,
             "MPI 4.1 §3.4: a synchronous send with no receive would wait forever");
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &n, MPI_STATUS_IGNORE);
    CHECK(!n, "the failed synchronous send left no message behind");
    /* Truncation: a longer message than the buffer. */
    {
        int big[3] = {1, 2, 3}, small[2] = {0, 0};
        MPI_Send(big, 3, MPI_INT, 0, 3, MPI_COMM_WORLD);
        CHECK_EQ(MPI_Recv(small, 2, MPI_INT, 0, 3, MPI_COMM_WORLD, &s), MPI_ERR_TRUNCATE,
                 "MPI 4.1 §3.2.4: a message longer than the buffer is MPI_ERR_TRUNCATE");
        CHECK(small[0] == 1 && small[1] == 2, "MPI 4.1 §3.2.4: the buffer holds what fits");
    }
    /* MPI_PROC_NULL. */
    CHECK_EQ(MPI_Send(NULL, 10, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD), MPI_SUCCESS,
             "MPI 4.1 §3.10: a send to MPI_PROC_NULL succeeds at once");
    CHECK_EQ(MPI_Recv(x, 2, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &s), MPI_SUCCESS,
             "MPI 4.1 §3.10: a receive from MPI_PROC_NULL succeeds at once");
    MPI_Get_count(&s, MPI_INT, &n);
    CHECK(s.MPI_SOURCE == MPI_PROC_NULL && s.MPI_TAG == MPI_ANY_TAG && n == 0,
          "MPI 4.1 §3.10: with source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0");
}

static void nonblocking(void)
{
    double out[3] = {1.5, 2.5, 3.5}, in[3] = {0, 0, 0};
    MPI_Request r[2];
    MPI_Status st[2];
    int flag = 0, idx = -1, cnt = 0, idxs[2];
    /* Receive posted first: the send hands it the data. */
    MPI_Irecv(in, 3, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD, &r[0]);
    MPI_Test(&r[0], &flag, &st[0]);
    CHECK(!flag && r[0] != MPI_REQUEST_NULL, "MPI 4.1 §3.7.3: a pending receive tests false");
    MPI_Isend(out, 3, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD, &r[1]);
    CHECK_EQ(MPI_Waitall(2, r, st), MPI_SUCCESS, "MPI 4.1 §3.7.5: MPI_Waitall");
    CHECK(in[2] == 3.5 && r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL,
          "MPI 4.1 §3.7.5: both complete, requests freed");
    CHECK(st[0].MPI_TAG == 4, "MPI 4.1 §3.7.5: the receive's status");
    /* Issend completes when the receive matches it. */
    MPI_Issend(out, 1, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, &r[0]);
    MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
    CHECK(!flag, "MPI 4.1 §3.4: a synchronous send is not complete before a receive matched it");
    MPI_Irecv(in, 1, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, &r[1]);
    MPI_Waitany(2, r, &idx, &st[0]);
    CHECK(idx == 0 || idx == 1, "MPI 4.1 §3.7.5: MPI_Waitany completes one");
    MPI_Waitsome(2, r, &cnt, idxs, st);
    CHECK_EQ(cnt, 1, "MPI 4.1 §3.7.5: MPI_Waitsome completes the other");
    MPI_Waitsome(2, r, &cnt, idxs, st);
    CHECK_EQ(cnt, MPI_UNDEFINED, "MPI 4.1 §3.7.5: none active: MPI_UNDEFINED");
    MPI_Testany(2, r, &idx, &flag, MPI_STATUS_IGNORE);
    CHECK(flag && idx == MPI_UNDEFINED, "MPI 4.1 §3.7.5: MPI_Testany with none active");
    /* Cancel a pending receive. */
    MPI_Irecv(in, 1, MPI_DOUBLE, 0, 6, MPI_COMM_WORLD, &r[0]);
    CHECK_EQ(MPI_Cancel(&r[0]), MPI_SUCCESS, "MPI 4.1 §3.8.4: MPI_Cancel");
    MPI_Wait(&r[0], &st[0]);
    MPI_Test_cancelled(&st[0], &flag);
    CHECK(flag, "MPI 4.1 §3.8.4: the cancelled receive's status says so");
    MPI_Isend(out, 1, MPI_DOUBLE, 0, 6, MPI_COMM_WORLD, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    MPI_Iprobe(0, 6, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(flag, "MPI 4.1 §3.8.4: a cancelled receive takes no later message");
    MPI_Recv(in, 1, MPI_DOUBLE, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void persistent_and_more(void)
{
    int v = 0, got = 0, i, flag;
    MPI_Request r[2];
    MPI_Datatype vec;
    int grid[6] = {1, 2, 3, 4, 5, 6}, col[3] = {0, 0, 0};
    MPI_Send_init(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &r[0]);
    MPI_Recv_init(&got, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &r[1]);
    for (i = 0; i < 3; i++) {
        v = 100 + i;
        MPI_Startall(2, r);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        CHECK_EQ(got, 100 + i, "MPI 4.1 §3.9: each start sends the buffer's current value");
        CHECK(r[0] != MPI_REQUEST_NULL, "MPI 4.1 §3.9: a persistent request stays, inactive");
    }
    MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
    CHECK(flag, "MPI 4.1 §3.9: an inactive persistent request tests complete");
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
    /* Derived datatypes: a column of a 2x3 grid to a contiguous buffer. */
    MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Sendrecv(grid + 1, 1, vec, 0, 0, col, 3, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(col[0] == 2 && col[1] == 4 && col[2] == 6,
          "MPI 4.1 §3.10: MPI_Sendrecv to self moves the data along the typemaps");
    MPI_Sendrecv_replace(grid, 1, vec, 0, 1, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(grid[0] == 1 && grid[2] == 3 && grid[4] == 5, "MPI 4.1 §3.10: MPI_Sendrecv_replace");
    MPI_Type_free(&vec);
    /* Buffered sends need an attached buffer. */
    {
        int size = 64 + MPI_BSEND_OVERHEAD, dsize = 0;
        void *buf = malloc((size_t)size), *back = NULL;
        CHECK_EQ(MPI_Bsend(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                 "MPI 4.1 §3.6: a buffered send without a buffer is MPI_ERR_BUFFER");
        MPI_Buffer_attach(buf, size);
        CHECK_EQ(MPI_Bsend(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD), MPI_SUCCESS,
                 "MPI 4.1 §3.6: with room in the attached buffer it succeeds");
        MPI_Recv(&got, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK_EQ(MPI_Buffer_detach(&back, &dsize), MPI_SUCCESS, "MPI 4.1 §3.6.1: detach");
        CHECK(back == buf && dsize == size, "MPI 4.1 §3.6.1: detach returns the buffer");
        free(buf);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    blocking();
    errors();
    nonblocking();
    persistent_and_more();
    MPI_Finalize();
    return check_summary("p2p_self");
}
