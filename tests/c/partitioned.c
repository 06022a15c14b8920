/* Partitioned point-to-point communication of one process with itself (MPI 4.1 §4). */
#include <mpi.h>
#include <string.h>
#include "check.h"

#define NPART 4
#define PER 3

/* One send and one receive of NPART partitions of PER ints, over two rounds. */
static void rounds(void)
{
    int sbuf[NPART * PER] = {0}, rbuf[NPART * PER] = {0}, flag = -1, n = -1, i, round;
    MPI_Request sreq = MPI_REQUEST_NULL, rreq = MPI_REQUEST_NULL;
    MPI_Status st;

    CHECK_EQ(MPI_Psend_init(sbuf, NPART, PER, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &sreq),
             MPI_SUCCESS, "MPI 4.1 §4.2.1: MPI_Psend_init to oneself");
    CHECK_EQ(MPI_Precv_init(rbuf, NPART, PER, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &rreq),
             MPI_SUCCESS, "MPI 4.1 §4.2.1: MPI_Precv_init from oneself");
    CHECK(sreq != MPI_REQUEST_NULL && rreq != MPI_REQUEST_NULL,
          "MPI 4.1 §4.2.1: the init calls return requests");
    /* Inactive persistent requests complete at once with the empty status (§3.7.3). */
    CHECK_EQ(MPI_Test(&rreq, &flag, &st), MPI_SUCCESS, "MPI 4.1 §3.7.3: MPI_Test, inactive");
    CHECK_EQ(flag, 1, "MPI 4.1 §3.7.3: an inactive request tests complete");
    CHECK(rreq != MPI_REQUEST_NULL, "MPI 4.1 §3.9: testing an inactive persistent request keeps it");

    for (round = 0; round < 2; round++) {
        for (i = 0; i < NPART * PER; i++) {
            sbuf[i] = 100 * round + i;
            rbuf[i] = -1;
        }
        CHECK_EQ(MPI_Start(&rreq), MPI_SUCCESS, "MPI 4.1 §4.2.2: MPI_Start of the receive");
        CHECK_EQ(MPI_Start(&sreq), MPI_SUCCESS, "MPI 4.1 §4.2.2: MPI_Start of the send");
        CHECK_EQ(MPI_Parrived(rreq, 2, &flag), MPI_SUCCESS, "MPI 4.1 §4.2.4: MPI_Parrived");
        CHECK_EQ(flag, 0, "MPI 4.1 §4.2.4: a partition not yet ready has not arrived");
        CHECK_EQ(MPI_Pready(2, sreq), MPI_SUCCESS, "MPI 4.1 §4.2.3: MPI_Pready");
        CHECK_EQ(MPI_Parrived(rreq, 2, &flag), MPI_SUCCESS, "MPI 4.1 §4.2.4: MPI_Parrived");
        CHECK_EQ(flag, 1, "MPI 4.1 §4.2.4: the partition made ready has arrived");
        CHECK_EQ(rbuf[2 * PER], 100 * round + 2 * PER,
                 "MPI 4.1 §4.2.4: an arrived partition's data is in the receive buffer");
        CHECK_EQ(MPI_Parrived(rreq, 0, &flag), MPI_SUCCESS, "MPI 4.1 §4.2.4: MPI_Parrived");
        CHECK_EQ(flag, 0, "MPI 4.1 §4.2.4: partitions answer one by one");
        CHECK_EQ(MPI_Test(&rreq, &flag, MPI_STATUS_IGNORE), MPI_SUCCESS, "MPI 4.1 §3.7.3: MPI_Test");
        CHECK_EQ(flag, 0, "MPI 4.1 §4.2: the receive is not complete before every partition arrives");
        CHECK_EQ(MPI_Pready_range(0, 1, sreq), MPI_SUCCESS, "MPI 4.1 §4.2.3: MPI_Pready_range");
        {
            int last[1] = {3};
            CHECK_EQ(MPI_Pready_list(1, last, sreq), MPI_SUCCESS, "MPI 4.1 §4.2.3: MPI_Pready_list");
        }
        CHECK_EQ(MPI_Wait(&sreq, MPI_STATUS_IGNORE), MPI_SUCCESS,
                 "MPI 4.1 §4.2: the send completes once every partition is ready");
        CHECK_EQ(MPI_Wait(&rreq, &st), MPI_SUCCESS, "MPI 4.1 §4.2: the receive completes");
        CHECK(sreq != MPI_REQUEST_NULL && rreq != MPI_REQUEST_NULL,
              "MPI 4.1 §4.2: completion leaves the persistent requests, inactive");
        MPI_Get_count(&st, MPI_INT, &n);
        CHECK_EQ(n, NPART * PER, "MPI 4.1 §4.2: the receive's status counts the whole message");
        CHECK_EQ(st.MPI_SOURCE, 0, "MPI 4.1 §4.2: the status names the source");
        CHECK_EQ(st.MPI_TAG, 7, "MPI 4.1 §4.2: the status names the tag");
        for (i = 0; i < NPART * PER; i++)
            if (rbuf[i] != 100 * round + i)
                break;
        CHECK_EQ(i, NPART * PER, "MPI 4.1 §4.2: every partition's data arrived in its place");
        CHECK_EQ(MPI_Parrived(rreq, 0, &flag), MPI_SUCCESS, "MPI 4.1 §4.2.4: MPI_Parrived, inactive");
        CHECK_EQ(flag, 1, "MPI 4.1 §4.2.4: an inactive receive has nothing outstanding");
    }
    CHECK_EQ(MPI_Request_free(&sreq), MPI_SUCCESS, "MPI 4.1 §4.2: freeing an inactive request");
    CHECK_EQ(MPI_Request_free(&rreq), MPI_SUCCESS, "MPI 4.1 §4.2: freeing an inactive request");
    CHECK(sreq == MPI_REQUEST_NULL && rreq == MPI_REQUEST_NULL,
          "MPI 4.1 §3.7.3: MPI_Request_free sets the handle to MPI_REQUEST_NULL");
}

/* The send starts and is made ready before the receive starts: the data waits for it; the two
   sides cut the message differently (2 send partitions of 6 ints, 3 receive partitions of 4). */
static void send_first_uneven(void)
{
    int sbuf[12] = {0}, rbuf[12] = {0}, flag = -1, i;
    MPI_Request r[2];

    for (i = 0; i < 12; i++) {
        sbuf[i] = i + 1;
        rbuf[i] = 0;
    }
    MPI_Psend_init(sbuf, 2, 6, MPI_INT, 0, 1, MPI_COMM_SELF, MPI_INFO_NULL, &r[0]);
    MPI_Precv_init(rbuf, 3, 4, MPI_INT, 0, 1, MPI_COMM_SELF, MPI_INFO_NULL, &r[1]);
    CHECK_EQ(MPI_Start(&r[0]), MPI_SUCCESS, "MPI 4.1 §4.2.2: the send may start first");
    CHECK_EQ(MPI_Pready(0, r[0]), MPI_SUCCESS, "MPI 4.1 §4.2.3: MPI_Pready before the receive starts");
    /* The send buffer may be changed once the send completes; the receive must still get the
       bytes as they were when made ready. */
    CHECK_EQ(MPI_Pready(1, r[0]), MPI_SUCCESS, "MPI 4.1 §4.2.3: MPI_Pready");
    CHECK_EQ(MPI_Wait(&r[0], MPI_STATUS_IGNORE), MPI_SUCCESS, "MPI 4.1 §4.2: the send completes");
    for (i = 0; i < 12; i++)
        sbuf[i] = -9;
    CHECK_EQ(MPI_Start(&r[1]), MPI_SUCCESS, "MPI 4.1 §4.2.2: the receive starts and matches");
    CHECK_EQ(MPI_Parrived(r[1], 2, &flag), MPI_SUCCESS, "MPI 4.1 §4.2.4: MPI_Parrived");
    CHECK_EQ(flag, 1, "MPI 4.1 §4.2.4: data ready before the receive started arrives at its start");
    CHECK_EQ(MPI_Wait(&r[1], MPI_STATUS_IGNORE), MPI_SUCCESS, "MPI 4.1 §4.2: the receive completes");
    for (i = 0; i < 12; i++)
        if (rbuf[i] != i + 1)
            break;
    CHECK_EQ(i, 12, "MPI 4.1 §4.2.2: partitions of different sizes on the two sides carry one message");

    /* MPI_Startall starts both; MPI_Waitall completes both. */
    for (i = 0; i < 12; i++) {
        sbuf[i] = 50 + i;
        rbuf[i] = 0;
    }
    CHECK_EQ(MPI_Startall(2, r), MPI_SUCCESS, "MPI 4.1 §3.9: MPI_Startall with partitioned requests");
    CHECK_EQ(MPI_Pready_range(0, 1, r[0]), MPI_SUCCESS, "MPI 4.1 §4.2.3: MPI_Pready_range");
    CHECK_EQ(MPI_Waitall(2, r, MPI_STATUSES_IGNORE), MPI_SUCCESS, "MPI 4.1 §3.7.5: MPI_Waitall");
    CHECK_EQ(rbuf[11], 61, "MPI 4.1 §4.2: the second round's data");
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
}

static void errors(void)
{
    int buf[4] = {0}, rbuf[4] = {0}, flag;
    MPI_Request s, r, p2p;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    CHECK_EQ(MPI_Psend_init(buf, 0, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &s), MPI_ERR_ARG,
             "MPI 4.1 §4.2.1: partitions must be positive");
    CHECK_EQ(MPI_Psend_init(buf, 2, 1, MPI_INT, 3, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &s), MPI_ERR_RANK,
             "MPI 4.1 §4.2.1: dest is a rank of the communicator");
    CHECK_EQ(MPI_Precv_init(buf, 2, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
             MPI_ERR_RANK, "MPI 4.1 §4.2.1: no wildcard source in partitioned communication");
    CHECK_EQ(MPI_Precv_init(buf, 2, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
             MPI_ERR_TAG, "MPI 4.1 §4.2.1: no wildcard tag in partitioned communication");
    CHECK_EQ(MPI_Psend_init(buf, 2, 2, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &s), MPI_SUCCESS,
             "MPI 4.1 §4.2.1: MPI_Psend_init");
    CHECK_EQ(MPI_Pready(0, s), MPI_ERR_REQUEST, "MPI 4.1 §4.2.3: MPI_Pready on an inactive request");
    MPI_Start(&s);
    CHECK_EQ(MPI_Start(&s), MPI_ERR_REQUEST, "MPI 4.1 §3.9: starting an active request");
    CHECK_EQ(MPI_Pready(2, s), MPI_ERR_ARG, "MPI 4.1 §4.2.3: a partition out of range");
    CHECK_EQ(MPI_Pready(-1, s), MPI_ERR_ARG, "MPI 4.1 §4.2.3: a negative partition");
    CHECK_EQ(MPI_Pready_range(1, 0, s), MPI_ERR_ARG, "MPI 4.1 §4.2.3: partition_low > partition_high");
    {
        int twice[2] = {1, 1};
        CHECK_EQ(MPI_Pready_list(2, twice, s), MPI_ERR_ARG,
                 "MPI 4.1 §4.2.3: a partition listed twice is made ready twice");
        CHECK_EQ(MPI_Pready_range(0, 2, s), MPI_ERR_ARG,
                 "MPI 4.1 §4.2.3: a range reaching past the last partition");
    }
    /* Neither failing call marked a partition: both can still be made ready. */
    CHECK_EQ(MPI_Pready(1, s), MPI_SUCCESS, "MPI 4.1 §4.2.3: MPI_Pready");
    CHECK_EQ(MPI_Pready(1, s), MPI_ERR_ARG, "MPI 4.1 §4.2.3: a partition already ready");
    CHECK_EQ(MPI_Parrived(s, 0, &flag), MPI_ERR_REQUEST, "MPI 4.1 §4.2.4: MPI_Parrived on a send");
    CHECK_EQ(MPI_Request_free(&s), MPI_ERR_REQUEST,
             "MPI 4.1 §4.2: freeing an active partitioned request is erroneous");
    MPI_Pready(0, s);
    CHECK_EQ(MPI_Wait(&s, MPI_STATUS_IGNORE), MPI_SUCCESS, "MPI 4.1 §4.2: the send completes");
    /* A receive of a different size does not match: the start that would match fails. */
    CHECK_EQ(MPI_Precv_init(rbuf, 1, 3, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_SUCCESS,
             "MPI 4.1 §4.2.1: MPI_Precv_init");
    CHECK_EQ(MPI_Start(&r), MPI_ERR_TRUNCATE,
             "MPI 4.1 §4.2.2: a send larger than the receive it would match");
    MPI_Request_free(&r);
    MPI_Request_free(&s);
    /* Pready on a request that is not partitioned. */
    MPI_Recv_init(rbuf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &p2p);
    CHECK_EQ(MPI_Pready(0, p2p), MPI_ERR_REQUEST, "MPI 4.1 §4.2.3: MPI_Pready on a p2p request");
    MPI_Request_free(&p2p);
    /* Waiting for a receive no send can complete would wait forever. */
    MPI_Precv_init(rbuf, 1, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Start(&r);
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE) != MPI_SUCCESS,
          "MPI 4.1 §4.2: a wait that nothing in one process can complete fails, not hangs");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    rounds();
    send_first_uneven();
    errors();
    MPI_Finalize();
    return check_summary("partitioned");
}
