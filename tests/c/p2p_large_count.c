/* The large-count point-to-point forms and MPI_Isendrecv(_replace) to self (MPI 4.1 §3). */
#include <mpi.h>
#include "check.h"

int main(int argc, char **argv)
{
    int out[3] = {1, 2, 3}, in[3] = {0, 0, 0};
    MPI_Count n = -1;
    MPI_Status s;
    MPI_Request r;
    char buffer[256 + MPI_BSEND_OVERHEAD];
    void *detached;
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* §3.4: the three send modes with MPI_Count counts. */
    MPI_Buffer_attach(buffer, sizeof buffer);
    CHECK_EQ(MPI_Bsend_c(out, 3, MPI_INT, 0, 1, MPI_COMM_WORLD), MPI_SUCCESS,
             "MPI 4.1 §3.4: MPI_Bsend_c buffers the message");
    CHECK_EQ(MPI_Rsend_c(out, 2, MPI_INT, 0, 2, MPI_COMM_WORLD), MPI_SUCCESS,
             "MPI 4.1 §3.4: MPI_Rsend_c");
    MPI_Recv_c(in, 3, MPI_INT, 0, 1, MPI_COMM_WORLD, &s);
    MPI_Get_count_c(&s, MPI_INT, &n);
    CHECK(n == 3 && in[2] == 3, "MPI 4.1 §3.2.4: the buffered message arrives whole");
    MPI_Recv_c(in, 3, MPI_INT, 0, 2, MPI_COMM_WORLD, &s);
    MPI_Get_count_c(&s, MPI_INT, &n);
    CHECK(n == 2, "MPI 4.1 §3.2.5: the count of the ready send");
    MPI_Buffer_detach(&detached, &size);
    CHECK_EQ(MPI_Ssend_c(out, 1, MPI_INT, 0, 3, MPI_COMM_WORLD), MPI_ERR_OTHER,
             "a synchronous send to self with no receive posted can never complete");

    /* §3.7: nonblocking modes. */
    CHECK_EQ(MPI_Issend_c(out, 3, MPI_INT, 0, 4, MPI_COMM_WORLD, &r), MPI_SUCCESS,
             "MPI 4.1 §3.7.2: MPI_Issend_c");
    MPI_Recv_c(in, 3, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK_EQ(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS,
             "MPI 4.1 §3.7.3: the synchronous send completes once received");
    MPI_Irsend_c(out, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Recv_c(in, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    /* §3.9: persistent requests with large counts. */
    {
        MPI_Request p[2];
        int v = 0;
        MPI_Recv_init_c(&v, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &p[0]);
        MPI_Send_init_c(&out[2], 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &p[1]);
        MPI_Startall(2, p);
        MPI_Waitall(2, p, MPI_STATUSES_IGNORE);
        CHECK(v == 3 && p[0] != MPI_REQUEST_NULL,
              "MPI 4.1 §3.9: persistent _c requests run and stay allocated");
        MPI_Request_free(&p[0]);
        MPI_Request_free(&p[1]);
    }

    /* §3.10: send-receive, blocking and not, in two buffers or one. */
    in[0] = 0;
    CHECK_EQ(MPI_Sendrecv_c(out, 3, MPI_INT, 0, 7, in, 3, MPI_INT, 0, 7, MPI_COMM_WORLD, &s),
             MPI_SUCCESS, "MPI 4.1 §3.10: MPI_Sendrecv_c to self");
    CHECK(in[0] == 1 && s.MPI_TAG == 7, "MPI 4.1 §3.10: the data and status");
    {
        int a[2] = {5, 6}, b[2] = {0, 0}, flag = 0;
        CHECK_EQ(MPI_Isendrecv(a, 2, MPI_INT, 0, 8, b, 2, MPI_INT, 0, 8, MPI_COMM_WORLD, &r),
                 MPI_SUCCESS, "MPI 4.1 §3.10: MPI_Isendrecv");
        a[0] = 99; /* the eager send copied the data */
        MPI_Test(&r, &flag, &s);
        CHECK(flag && b[0] == 5 && b[1] == 6 && s.MPI_SOURCE == 0,
              "MPI 4.1 §3.10: MPI_Isendrecv completes with the received data");
        CHECK_EQ(MPI_Isendrecv_replace_c(a, 2, MPI_INT, 0, 9, 0, 9, MPI_COMM_WORLD, &r),
                 MPI_SUCCESS, "MPI 4.1 §3.10: MPI_Isendrecv_replace_c");
        MPI_Wait(&r, &s);
        CHECK(a[0] == 99 && a[1] == 6,
              "MPI 4.1 §3.10: the buffer holds the message sent from it before the call");
        CHECK_EQ(MPI_Isendrecv_replace(a, 2, MPI_INT, 0, 1, 0, 2, MPI_COMM_WORLD, &r), MPI_SUCCESS,
                 "a send-receive whose receive matches nothing yet");
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        CHECK(!flag, "MPI 4.1 §3.7.3: the receive is still pending");
        MPI_Send(out, 2, MPI_INT, 0, 2, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        CHECK(a[0] == 1 && a[1] == 2, "MPI 4.1 §3.10: it completes when its message comes");
        MPI_Recv(in, 2, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(in[0] == 99, "MPI 4.1 §3.10: and its own send was queued");
        CHECK_EQ(MPI_Isendrecv(a, 1, MPI_INT, 5, 0, b, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r),
                 MPI_ERR_RANK, "MPI 4.1 §3.2.3: a destination outside the communicator");
        CHECK_EQ(MPI_Isendrecv(a, 1, MPI_INT, MPI_PROC_NULL, 0, b, 1, MPI_INT, MPI_PROC_NULL, 0,
                               MPI_COMM_WORLD, &r),
                 MPI_SUCCESS, "MPI 4.1 §3.10: MPI_PROC_NULL on both sides");
        MPI_Wait(&r, &s);
        CHECK(s.MPI_SOURCE == MPI_PROC_NULL, "MPI 4.1 §3.10: a receive from MPI_PROC_NULL");
    }
    MPI_Finalize();
    return check_summary("p2p_large_count");
}
