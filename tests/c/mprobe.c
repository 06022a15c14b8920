/* Matched probe and receive of one process with itself (MPI 4.1 §3.8.2, §3.8.3). */
#include <mpi.h>
#include "check.h"

static void matched(void)
{
    int a = 5, b = 6, x = 0, y = 0, n = -1, flag = -1;
    MPI_Message m = MPI_MESSAGE_NULL, m2 = MPI_MESSAGE_NULL;
    MPI_Status s;

    MPI_Send(&a, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
    MPI_Send(&b, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
    CHECK_EQ(MPI_Mprobe(0, 3, MPI_COMM_WORLD, &m, &s), MPI_SUCCESS,
             "MPI 4.1 §3.8.2: MPI_Mprobe matches a queued message");
    CHECK(m != MPI_MESSAGE_NULL && m != MPI_MESSAGE_NO_PROC,
          "MPI 4.1 §3.8.2: a matched message gets a message handle");
    CHECK(s.MPI_SOURCE == 0 && s.MPI_TAG == 3, "MPI 4.1 §3.8.2: the status of the message");
    MPI_Get_count(&s, MPI_INT, &n);
    CHECK_EQ(n, 1, "MPI 4.1 §3.8.2: the count of the matched message");
    /* The matched message is off the queue: a plain receive gets the second one. */
    CHECK_EQ(MPI_Recv(&y, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_SUCCESS,
             "MPI 4.1 §3.8.2: a receive after MPI_Mprobe");
    CHECK_EQ(y, 6, "MPI 4.1 §3.8.2: a matched message is received by no other receive");
    CHECK_EQ(MPI_Iprobe(0, 3, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE), MPI_SUCCESS,
             "MPI 4.1 §3.8.1: MPI_Iprobe");
    CHECK_EQ(flag, 0, "MPI 4.1 §3.8.2: a probe no longer sees the matched message");
    CHECK_EQ(MPI_Mrecv(&x, 1, MPI_INT, &m, &s), MPI_SUCCESS,
             "MPI 4.1 §3.8.3: MPI_Mrecv receives the matched message");
    CHECK_EQ(x, 5, "MPI 4.1 §3.8.3: the data of the matched message");
    CHECK_EQ(m, MPI_MESSAGE_NULL, "MPI 4.1 §3.8.3: MPI_Mrecv sets the handle to MPI_MESSAGE_NULL");
    CHECK_EQ(s.MPI_TAG, 3, "MPI 4.1 §3.8.3: MPI_Mrecv's status");

    /* MPI_Improbe: flag false with nothing queued, then a match; MPI_Imrecv completes it. */
    CHECK_EQ(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &m2, &s),
             MPI_SUCCESS, "MPI 4.1 §3.8.2: MPI_Improbe with nothing queued");
    CHECK_EQ(flag, 0, "MPI 4.1 §3.8.2: MPI_Improbe finds no message");
    a = 41;
    MPI_Send(&a, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    CHECK_EQ(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &m2, &s),
             MPI_SUCCESS, "MPI 4.1 §3.8.2: MPI_Improbe");
    CHECK_EQ(flag, 1, "MPI 4.1 §3.8.2: MPI_Improbe matches the message");
    CHECK_EQ(s.MPI_TAG, 9, "MPI 4.1 §3.8.2: MPI_Improbe's status");
    {
        MPI_Request r = MPI_REQUEST_NULL;
        x = 0;
        CHECK_EQ(MPI_Imrecv(&x, 1, MPI_INT, &m2, &r), MPI_SUCCESS, "MPI 4.1 §3.8.3: MPI_Imrecv");
        CHECK_EQ(m2, MPI_MESSAGE_NULL, "MPI 4.1 §3.8.3: MPI_Imrecv nulls the message handle");
        CHECK_EQ(MPI_Wait(&r, &s), MPI_SUCCESS, "MPI 4.1 §3.8.3: the MPI_Imrecv request completes");
        CHECK_EQ(x, 41, "MPI 4.1 §3.8.3: MPI_Imrecv's data");
        CHECK_EQ(s.MPI_TAG, 9, "MPI 4.1 §3.8.3: MPI_Imrecv's status");
    }
    /* Large-count forms. */
    {
        double d = 2.5, e = 0;
        MPI_Count c = -1;
        MPI_Send(&d, 1, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD);
        MPI_Mprobe(0, 4, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
        CHECK_EQ(MPI_Mrecv_c(&e, (MPI_Count)1, MPI_DOUBLE, &m, &s), MPI_SUCCESS,
                 "MPI 4.1 §3.8.3: MPI_Mrecv_c");
        CHECK(e == 2.5, "MPI 4.1 §3.8.3: MPI_Mrecv_c's data");
        MPI_Get_count_c(&s, MPI_DOUBLE, &c);
        CHECK(c == 1, "MPI 4.1 §3.8.3: MPI_Mrecv_c's count");
        MPI_Request r;
        e = 0;
        MPI_Send(&d, 1, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD);
        MPI_Mprobe(0, 4, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
        CHECK_EQ(MPI_Imrecv_c(&e, (MPI_Count)1, MPI_DOUBLE, &m, &r), MPI_SUCCESS,
                 "MPI 4.1 §3.8.3: MPI_Imrecv_c");
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        CHECK(e == 2.5, "MPI 4.1 §3.8.3: MPI_Imrecv_c's data");
    }
}

static void proc_null_and_errors(void)
{
    MPI_Message m = MPI_MESSAGE_NULL;
    MPI_Status s;
    int x = 7, flag = 0;
    CHECK_EQ(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &m, &s), MPI_SUCCESS,
             "MPI 4.1 §3.8.2: MPI_Mprobe from MPI_PROC_NULL");
    CHECK_EQ(m, MPI_MESSAGE_NO_PROC, "MPI 4.1 §3.8.2: MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC");
    CHECK_EQ(s.MPI_SOURCE, MPI_PROC_NULL, "MPI 4.1 §3.8.2: the status of MPI_PROC_NULL");
    CHECK_EQ(MPI_Mrecv(&x, 1, MPI_INT, &m, &s), MPI_SUCCESS,
             "MPI 4.1 §3.8.3: MPI_Mrecv of MPI_MESSAGE_NO_PROC");
    CHECK(x == 7 && s.MPI_SOURCE == MPI_PROC_NULL && s.MPI_TAG == MPI_ANY_TAG,
          "MPI 4.1 §3.8.3: receiving MPI_MESSAGE_NO_PROC is a receive from MPI_PROC_NULL");
    CHECK_EQ(m, MPI_MESSAGE_NULL, "MPI 4.1 §3.8.3: the handle becomes MPI_MESSAGE_NULL");
    CHECK_EQ(MPI_Improbe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &m, MPI_STATUS_IGNORE),
             MPI_SUCCESS, "MPI 4.1 §3.8.2: MPI_Improbe from MPI_PROC_NULL");
    CHECK(flag == 1 && m == MPI_MESSAGE_NO_PROC,
          "MPI 4.1 §3.8.2: MPI_Improbe from MPI_PROC_NULL: MPI_MESSAGE_NO_PROC");

    /* Bad input: the handle is left as it was. */
    m = MPI_MESSAGE_NULL;
    CHECK(MPI_Mrecv(&x, 1, MPI_INT, &m, MPI_STATUS_IGNORE) != MPI_SUCCESS,
          "MPI 4.1 §3.8.3: MPI_MESSAGE_NULL is not a message to receive");
    CHECK(MPI_Mprobe(5, 0, MPI_COMM_WORLD, &m, &s) != MPI_SUCCESS,
          "MPI 4.1 §3.8.2: a source outside the group is MPI_ERR_RANK");
    CHECK_EQ(m, MPI_MESSAGE_NULL, "MPI 4.1 §3.8.2: a failed MPI_Mprobe leaves the handle");
    CHECK(MPI_Mprobe(0, 0, MPI_COMM_WORLD, &m, &s) != MPI_SUCCESS,
          "MPI 4.1 §3.8.2: MPI_Mprobe with nothing queued can never complete in one process");

    /* Fortran conversion (MPI 4.1 §19.3.4). */
    CHECK_EQ(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NO_PROC)), MPI_MESSAGE_NO_PROC,
             "MPI 4.1 §19.3.4: MPI_MESSAGE_NO_PROC converts both ways");
    CHECK_EQ(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NULL)), MPI_MESSAGE_NULL,
             "MPI 4.1 §19.3.4: MPI_MESSAGE_NULL converts both ways");
    {
        int a = 1;
        MPI_Message live;
        MPI_Send(&a, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Mprobe(0, 1, MPI_COMM_WORLD, &live, MPI_STATUS_IGNORE);
        CHECK_EQ(MPI_Message_f2c(MPI_Message_c2f(live)), live,
                 "MPI 4.1 §19.3.4: a live message handle converts both ways");
        MPI_Mrecv(&x, 1, MPI_INT, &live, MPI_STATUS_IGNORE);
        CHECK_EQ(x, 1, "MPI 4.1 §3.8.3: received after the conversion");
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    matched();
    proc_null_and_errors();
    MPI_Finalize();
    return check_summary("mprobe");
}
