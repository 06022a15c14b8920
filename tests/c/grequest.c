/* Generalized requests (MPI 4.1 §13.2): when MPI calls query_fn, free_fn and cancel_fn. */
#include <mpi.h>
#include <string.h>
#include "check.h"

typedef struct {
    int queries, frees, cancels, last_complete;
    int query_rc, free_rc; /* what the callbacks return */
    int order[8], n;       /* 1 = query, 2 = free, 3 = cancel */
} state_t;

static int query_fn(void *extra, MPI_Status *status)
{
    state_t *s = (state_t *)extra;
    s->queries++;
    if (s->n < 8)
        s->order[s->n++] = 1;
    MPI_Status_set_elements(status, MPI_INT, 5);
    MPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = 0;
    status->MPI_TAG = 42;
    return s->query_rc;
}

static int free_fn(void *extra)
{
    state_t *s = (state_t *)extra;
    s->frees++;
    if (s->n < 8)
        s->order[s->n++] = 2;
    return s->free_rc;
}

static int cancel_fn(void *extra, int complete)
{
    state_t *s = (state_t *)extra;
    s->cancels++;
    s->last_complete = complete;
    if (s->n < 8)
        s->order[s->n++] = 3;
    return MPI_SUCCESS;
}

static void basic(void)
{
    state_t s;
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Status st;
    int flag = -1, n = -1;

    memset(&s, 0, sizeof s);
    CHECK_EQ(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r), MPI_SUCCESS,
             "MPI 4.1 §13.2: MPI_Grequest_start");
    CHECK(r != MPI_REQUEST_NULL, "MPI 4.1 §13.2: a generalized request handle");
    CHECK_EQ(MPI_Test(&r, &flag, &st), MPI_SUCCESS, "MPI 4.1 §13.2: MPI_Test before completion");
    CHECK_EQ(flag, 0, "MPI 4.1 §13.2: incomplete until MPI_Grequest_complete");
    CHECK_EQ(s.queries + s.frees, 0, "MPI 4.1 §13.2: no callback runs before completion");
    CHECK_EQ(MPI_Request_get_status(r, &flag, &st), MPI_SUCCESS, "MPI 4.1 §3.7.3: MPI_Request_get_status");
    CHECK_EQ(flag, 0, "MPI 4.1 §13.2: MPI_Request_get_status of an incomplete generalized request");

    CHECK_EQ(MPI_Cancel(&r), MPI_SUCCESS, "MPI 4.1 §13.2: MPI_Cancel calls cancel_fn");
    CHECK_EQ(s.cancels, 1, "MPI 4.1 §13.2: cancel_fn is called by MPI_Cancel");
    CHECK_EQ(s.last_complete, 0, "MPI 4.1 §13.2: complete is false before MPI_Grequest_complete");

    CHECK_EQ(MPI_Grequest_complete(r), MPI_SUCCESS, "MPI 4.1 §13.2: MPI_Grequest_complete");
    CHECK_EQ(MPI_Cancel(&r), MPI_SUCCESS, "MPI 4.1 §13.2: MPI_Cancel after completion");
    CHECK_EQ(s.last_complete, 1, "MPI 4.1 §13.2: complete is true after MPI_Grequest_complete");

    CHECK_EQ(MPI_Request_get_status(r, &flag, &st), MPI_SUCCESS, "MPI 4.1 §3.7.3: MPI_Request_get_status");
    CHECK_EQ(flag, 1, "MPI 4.1 §13.2: complete after MPI_Grequest_complete");
    CHECK_EQ(s.queries, 1, "MPI 4.1 §13.2: MPI_Request_get_status calls query_fn");
    CHECK_EQ(s.frees, 0, "MPI 4.1 §13.2: MPI_Request_get_status does not call free_fn");
    CHECK_EQ(st.MPI_TAG, 42, "MPI 4.1 §13.2: the status is query_fn's");

    s.n = 0;
    CHECK_EQ(MPI_Wait(&r, &st), MPI_SUCCESS, "MPI 4.1 §13.2: MPI_Wait on a completed generalized request");
    CHECK_EQ(r, MPI_REQUEST_NULL, "MPI 4.1 §13.2: MPI_Wait frees the request");
    CHECK_EQ(s.queries, 2, "MPI 4.1 §13.2: MPI_Wait calls query_fn");
    CHECK_EQ(s.frees, 1, "MPI 4.1 §13.2: MPI_Wait calls free_fn");
    CHECK(s.n == 2 && s.order[0] == 1 && s.order[1] == 2, "MPI 4.1 §13.2: free_fn after query_fn");
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK_EQ(n, 5, "MPI 4.1 §13.2: query_fn's MPI_Status_set_elements reaches the waiter");
    CHECK_EQ(st.MPI_TAG, 42, "MPI 4.1 §13.2: query_fn fills the status MPI_Wait returns");
    CHECK_EQ(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS, "MPI 4.1 §3.7.3: MPI_Wait on MPI_REQUEST_NULL");
    CHECK_EQ(s.queries + s.frees, 3, "MPI 4.1 §13.2: each callback runs once per completion");
}

static void freed_first(void)
{
    state_t s;
    MPI_Request r, keep;

    memset(&s, 0, sizeof s);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r);
    keep = r;
    CHECK_EQ(MPI_Request_free(&r), MPI_SUCCESS, "MPI 4.1 §13.2: MPI_Request_free of an active generalized request");
    CHECK_EQ(r, MPI_REQUEST_NULL, "MPI 4.1 §3.7.3: MPI_Request_free sets MPI_REQUEST_NULL");
    CHECK_EQ(s.frees, 0, "MPI 4.1 §13.2: free_fn waits for MPI_Grequest_complete");
    CHECK_EQ(MPI_Grequest_complete(keep), MPI_SUCCESS, "MPI 4.1 §13.2: MPI_Grequest_complete after free");
    CHECK_EQ(s.frees, 1, "MPI 4.1 §13.2: free_fn runs in whichever of free and complete comes last");
    CHECK_EQ(s.queries, 0, "MPI 4.1 §13.2: no query_fn for a request freed by MPI_Request_free");

    /* Complete first, then free: free_fn runs in MPI_Request_free. */
    memset(&s, 0, sizeof s);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r);
    MPI_Grequest_complete(r);
    CHECK_EQ(s.frees, 0, "MPI 4.1 §13.2: not freed by completion alone");
    CHECK_EQ(MPI_Request_free(&r), MPI_SUCCESS, "MPI 4.1 §13.2: MPI_Request_free of a complete request");
    CHECK_EQ(s.frees, 1, "MPI 4.1 §13.2: free_fn runs in MPI_Request_free after completion");
}

static void errors_and_multiple(void)
{
    state_t a, b;
    MPI_Request r[3];
    MPI_Status st[3];
    int idx = -1, flag = -1, outcount = -1, ind[3];

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* The error code query_fn returns is MPI_Wait's. */
    memset(&a, 0, sizeof a);
    a.query_rc = MPI_ERR_OTHER;
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &a, &r[0]);
    MPI_Grequest_complete(r[0]);
    CHECK_EQ(MPI_Wait(&r[0], MPI_STATUS_IGNORE), MPI_ERR_OTHER,
             "MPI 4.1 §13.2: MPI_Wait returns the error query_fn returned");
    CHECK_EQ(a.frees, 1, "MPI 4.1 §13.2: free_fn still runs after a failing query_fn");
    CHECK_EQ(r[0], MPI_REQUEST_NULL, "MPI 4.1 §13.2: the request is freed all the same");

    /* free_fn's error too. */
    memset(&a, 0, sizeof a);
    a.free_rc = MPI_ERR_ARG;
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &a, &r[0]);
    MPI_Grequest_complete(r[0]);
    CHECK_EQ(MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE), MPI_ERR_ARG,
             "MPI 4.1 §13.2: MPI_Test returns the error free_fn returned");

    /* Multiple completion: MPI_ERR_IN_STATUS, the code in the failing request's status. */
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    b.query_rc = MPI_ERR_OTHER;
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &a, &r[0]);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &b, &r[1]);
    r[2] = MPI_REQUEST_NULL;
    CHECK_EQ(MPI_Testall(3, r, &flag, st), MPI_SUCCESS, "MPI 4.1 §3.7.5: MPI_Testall, pending");
    CHECK_EQ(flag, 0, "MPI 4.1 §3.7.5: MPI_Testall false while one is incomplete");
    CHECK_EQ(a.queries + b.queries, 0, "MPI 4.1 §13.2: no query_fn for requests MPI_Testall leaves");
    MPI_Grequest_complete(r[0]);
    CHECK_EQ(MPI_Testany(3, r, &idx, &flag, &st[0]), MPI_SUCCESS, "MPI 4.1 §3.7.5: MPI_Testany");
    CHECK(flag == 1 && idx == 0, "MPI 4.1 §3.7.5: MPI_Testany completes the completed generalized request");
    CHECK_EQ(a.frees, 1, "MPI 4.1 §13.2: MPI_Testany calls free_fn");
    MPI_Grequest_complete(r[1]);
    CHECK_EQ(MPI_Waitsome(3, r, &outcount, ind, st), MPI_ERR_IN_STATUS,
             "MPI 4.1 §13.2: a failing query_fn in a multiple completion is MPI_ERR_IN_STATUS");
    CHECK_EQ(outcount, 1, "MPI 4.1 §3.7.5: MPI_Waitsome completes the one request");
    CHECK_EQ(st[0].MPI_ERROR, MPI_ERR_OTHER, "MPI 4.1 §13.2: query_fn's code in the status");
    CHECK_EQ(b.frees, 1, "MPI 4.1 §13.2: free_fn runs");

    /* Waitall over generalized requests completed in the order the program chooses. */
    memset(&a, 0, sizeof a);
    MPI_Grequest_start(query_fn, free_fn, NULL, &a, &r[0]);
    MPI_Grequest_start(query_fn, free_fn, NULL, &a, &r[1]);
    MPI_Grequest_complete(r[1]);
    MPI_Grequest_complete(r[0]);
    CHECK_EQ(MPI_Waitall(2, r, st), MPI_SUCCESS, "MPI 4.1 §13.2: MPI_Waitall");
    CHECK(a.queries == 2 && a.frees == 2, "MPI 4.1 §13.2: MPI_Waitall calls each query_fn and free_fn once");
    CHECK(st[0].MPI_TAG == 42 && st[1].MPI_TAG == 42, "MPI 4.1 §13.2: the statuses are query_fn's");

    /* Errors of the calls themselves. */
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &a, &r[0]);
    MPI_Grequest_complete(r[0]);
    CHECK_EQ(MPI_Grequest_complete(r[0]), MPI_ERR_REQUEST,
             "MPI 4.1 §13.2: completing a generalized request twice is an error");
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    CHECK_EQ(MPI_Grequest_complete(MPI_REQUEST_NULL), MPI_ERR_REQUEST,
             "MPI 4.1 §13.2: MPI_Grequest_complete of MPI_REQUEST_NULL");
    CHECK_EQ(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &a, NULL), MPI_ERR_ARG,
             "MPI 4.1 §13.2: a NULL request argument");
    /* Waiting on one that only this (single) thread could complete would wait forever. */
    memset(&a, 0, sizeof a);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &a, &r[0]);
    CHECK(MPI_Wait(&r[0], MPI_STATUS_IGNORE) != MPI_SUCCESS,
          "MPI 4.1 §13.2: a wait nothing can complete fails instead of hanging");
    MPI_Grequest_complete(r[0]);
    CHECK_EQ(MPI_Wait(&r[0], MPI_STATUS_IGNORE), MPI_SUCCESS, "MPI 4.1 §13.2: completes once completed");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    basic();
    freed_first();
    errors_and_multiple();
    MPI_Finalize();
    return check_summary("grequest");
}
