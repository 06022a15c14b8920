/* Sessions (MPI 4.1 §11.3): before MPI_Init, beside it and after MPI_Finalize; process sets,
 * groups and communicators from them, session info, error handlers and buffers. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

static int handler_calls = 0;
static int handler_code = 0;
static void on_error(MPI_Session *s, int *code, ...)
{
    (void)s;
    handler_calls++;
    handler_code = *code;
}

static void one_session_world(void)
{
    MPI_Session s = MPI_SESSION_NULL;
    MPI_Info info;
    int flag = 0, n = 0, len = 0, size = 0, rank = -1, initialized = 1;
    char name[MPI_MAX_PSET_NAME_LEN];

    CHECK_EQ(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s), MPI_SUCCESS,
             "MPI 4.1 §11.3.1: MPI_Session_init works before MPI_Init");
    CHECK(s != MPI_SESSION_NULL, "MPI 4.1 §11.3.1: a new session handle");
    MPI_Initialized(&initialized);
    CHECK_EQ(initialized, 0, "MPI 4.1 §11.2.1: a session does not initialize the World Model");

    CHECK_EQ(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n), MPI_SUCCESS, "get_num_psets");
    CHECK(n >= 2, "MPI 4.1 §11.3.2: mpi://WORLD and mpi://SELF are always there");
    int seen_world = 0, seen_self = 0;
    for (int i = 0; i < n; i++) {
        len = 0;
        CHECK_EQ(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL), MPI_SUCCESS,
                 "MPI 4.1 §11.3.2: pset_len 0 asks for the length");
        CHECK(len > 1 && len <= MPI_MAX_PSET_NAME_LEN, "the length counts the NUL");
        int room = (int)sizeof name;
        CHECK_EQ(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &room, name), MPI_SUCCESS,
                 "get_nth_pset");
        CHECK_EQ(room, len, "the same length either way");
        seen_world |= strcmp(name, "mpi://WORLD") == 0;
        seen_self |= strcmp(name, "mpi://SELF") == 0;
    }
    CHECK(seen_world && seen_self, "MPI 4.1 §11.3.2: both names listed");
    len = sizeof name;
    CHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, n, &len, name) != MPI_SUCCESS,
          "MPI 4.1 §11.3.2: n must be below the number of psets");
    len = 4;
    CHECK_EQ(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, name), MPI_SUCCESS,
             "a short buffer is filled as far as it goes");
    CHECK(strlen(name) == 3, "truncated to len-1 characters and a NUL");

    CHECK_EQ(MPI_Session_get_pset_info(s, "mpi://WORLD", &info), MPI_SUCCESS, "get_pset_info");
    char value[MPI_MAX_INFO_VAL];
    MPI_Info_get(info, "mpi_size", MPI_MAX_INFO_VAL - 1, value, &flag);
    CHECK(flag && strcmp(value, "1") == 0, "MPI 4.1 §11.3.2: mpi_size of mpi://WORLD is 1");
    MPI_Info_free(&info);
    CHECK_EQ(MPI_Session_get_pset_info(s, "mpi://nowhere", &info), MPI_ERR_ARG,
             "an unknown process set is an error");

    MPI_Group g;
    MPI_Comm c;
    CHECK_EQ(MPI_Group_from_session_pset(s, "mpi://WORLD", &g), MPI_SUCCESS,
             "MPI 4.1 §11.3.2: a group from a process set");
    MPI_Group_size(g, &size);
    CHECK_EQ(size, 1, "one process in mpi://WORLD");
    CHECK_EQ(MPI_Comm_create_from_group(g, "org.mpicache.session", MPI_INFO_NULL,
                                        MPI_ERRORS_RETURN, &c),
             MPI_SUCCESS, "MPI 4.1 §7.4.2: a communicator from the session's group");
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &rank);
    CHECK(size == 1 && rank == 0, "the communicator has this one process");
    int sent = 42, got = 0;
    CHECK_EQ(MPI_Sendrecv(&sent, 1, MPI_INT, 0, 7, &got, 1, MPI_INT, 0, 7, c, MPI_STATUS_IGNORE),
             MPI_SUCCESS, "MPI 4.1 §3: communication on a session's communicator");
    CHECK_EQ(got, 42, "the message arrives");
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
    CHECK_EQ(MPI_Group_from_session_pset(s, "mpi://nowhere", &g), MPI_ERR_ARG,
             "an unknown process set has no group");

    CHECK_EQ(MPI_Session_get_info(s, &info), MPI_SUCCESS, "MPI 4.1 §11.3.1: get_info");
    MPI_Info_get(info, "thread_level", MPI_MAX_INFO_VAL - 1, value, &flag);
    CHECK(flag && strcmp(value, "MPI_THREAD_SINGLE") == 0,
          "MPI 4.1 §11.3.1: the thread level provided (single when none was asked)");
    MPI_Info_free(&info);

    CHECK_EQ(MPI_Session_finalize(&s), MPI_SUCCESS, "MPI 4.1 §11.3.1: finalize");
    CHECK(s == MPI_SESSION_NULL, "MPI 4.1 §11.3.1: the handle becomes MPI_SESSION_NULL");
}

int main(int argc, char **argv)
{
    MPI_Session s1, s2;
    MPI_Info info;
    int flag = 0;
    char value[MPI_MAX_INFO_VAL];

    one_session_world();
    /* A second life, with a thread level asked for. */
    MPI_Info_create(&info);
    MPI_Info_set(info, "thread_level", "MPI_THREAD_MULTIPLE");
    CHECK_EQ(MPI_Session_init(info, MPI_ERRORS_RETURN, &s1), MPI_SUCCESS,
             "MPI 4.1 §11.3.1: sessions can be made again after the last one went");
    MPI_Info_free(&info);
    CHECK_EQ(MPI_Session_get_info(s1, &info), MPI_SUCCESS, "get_info");
    MPI_Info_get(info, "thread_level", MPI_MAX_INFO_VAL - 1, value, &flag);
    CHECK(flag && strcmp(value, "MPI_THREAD_MULTIPLE") == 0,
          "MPI 4.1 §11.3.1: the thread_level asked for in the info is provided");
    MPI_Info_free(&info);

    /* The World Model beside a session. */
    CHECK_EQ(MPI_Init(&argc, &argv), MPI_SUCCESS, "MPI 4.1 §11.2: MPI_Init beside a session");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* Error handlers. */
    MPI_Errhandler eh, got;
    CHECK_EQ(MPI_Session_create_errhandler(on_error, &eh), MPI_SUCCESS,
             "MPI 4.1 §9.3.4: MPI_Session_create_errhandler");
    CHECK_EQ(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh), MPI_ERR_ARG,
             "MPI 4.1 §9.3: a session's handler is not a communicator's");
    CHECK_EQ(MPI_Session_set_errhandler(s1, eh), MPI_SUCCESS, "set_errhandler");
    CHECK_EQ(MPI_Session_get_errhandler(s1, &got), MPI_SUCCESS, "get_errhandler");
    CHECK(got == eh, "MPI 4.1 §9.3.4: get returns the handler set");
    MPI_Errhandler_free(&got);
    CHECK_EQ(MPI_Session_call_errhandler(s1, MPI_ERR_OTHER), MPI_SUCCESS,
             "MPI 4.1 §9.3.4: call_errhandler returns once the handler did");
    CHECK(handler_calls == 1 && handler_code == MPI_ERR_OTHER,
          "MPI 4.1 §9.3.4: the session's handler ran with the code");

    int len = 0;
    CHECK_EQ(MPI_Session_get_nth_pset(s1, MPI_INFO_NULL, 99, &len, NULL), MPI_ERR_ARG,
             "MPI 4.1 §9.3: an error on a session goes to its handler (and is returned)");
    CHECK_EQ(handler_calls, 2, "the session's handler saw it");
    MPI_Errhandler_free(&eh);
    CHECK_EQ(MPI_Session_set_errhandler(s1, MPI_ERRORS_RETURN), MPI_SUCCESS, "back to return");

    /* Buffers (MPI 4.1 §3.6.1). */
    static char buf[1024];
    void *addr = NULL;
    int size = 0;
    CHECK_EQ(MPI_Session_attach_buffer(s1, buf, (int)sizeof buf), MPI_SUCCESS, "attach");
    CHECK_EQ(MPI_Session_attach_buffer(s1, buf, (int)sizeof buf), MPI_ERR_BUFFER,
             "MPI 4.1 §3.6.1: one buffer at a time per session");
    CHECK_EQ(MPI_Session_flush_buffer(s1), MPI_SUCCESS, "flush");
    MPI_Request req;
    CHECK_EQ(MPI_Session_iflush_buffer(s1, &req), MPI_SUCCESS, "iflush");
    CHECK_EQ(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS, "its request completes");
    CHECK_EQ(MPI_Session_detach_buffer(s1, &addr, &size), MPI_SUCCESS, "detach");
    CHECK(addr == buf && size == (int)sizeof buf, "MPI 4.1 §3.6.1: detach gives the buffer back");
    CHECK_EQ(MPI_Session_detach_buffer(s1, &addr, &size), MPI_ERR_BUFFER,
             "nothing attached is an error");
    MPI_Count csize = 0;
    CHECK_EQ(MPI_Session_attach_buffer_c(s1, buf, 512), MPI_SUCCESS, "attach_c");
    CHECK_EQ(MPI_Session_detach_buffer_c(s1, &addr, &csize), MPI_SUCCESS, "detach_c");
    CHECK(csize == 512, "the size attached");

    /* Handles across languages. */
    MPI_Fint f = MPI_Session_c2f(s1);
    CHECK(MPI_Session_f2c(f) == s1, "MPI 4.1 §19.3.4: c2f then f2c gives the handle back");

    /* A second session, and bad handles. */
    CHECK_EQ(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2), MPI_SUCCESS, "second");
    CHECK(s2 != s1, "two sessions, two handles");
    CHECK_EQ(MPI_Session_finalize(&s2), MPI_SUCCESS, "finalize the second");
    MPI_Session bad = 12345;
    int n = 0;
    CHECK_EQ(MPI_Session_get_num_psets(bad, MPI_INFO_NULL, &n), MPI_ERR_SESSION,
             "MPI 4.1 §9.4: a forged session handle is MPI_ERR_SESSION");
    CHECK_EQ(MPI_Session_get_num_psets(MPI_SESSION_NULL, MPI_INFO_NULL, &n), MPI_ERR_SESSION,
             "MPI_SESSION_NULL is not a session");
    CHECK_EQ(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, NULL), MPI_ERR_ARG,
             "a NULL session argument");

    /* The World Model ends; the session goes on. */
    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI_Finalize with a session open");
    int finalized = 0;
    MPI_Finalized(&finalized);
    CHECK_EQ(finalized, 1, "MPI 4.1 §11.2.2: the World Model is finalized");
    CHECK_EQ(MPI_Session_get_num_psets(s1, MPI_INFO_NULL, &n), MPI_SUCCESS,
             "MPI 4.1 §11.3: a session still works after MPI_Finalize");
    MPI_Group g;
    MPI_Comm c;
    CHECK_EQ(MPI_Group_from_session_pset(s1, "mpi://SELF", &g), MPI_SUCCESS, "group after");
    CHECK_EQ(MPI_Comm_create_from_group(g, "after", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c),
             MPI_SUCCESS, "a communicator after MPI_Finalize, from the session");
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
    CHECK_EQ(MPI_Session_finalize(&s1), MPI_SUCCESS, "the last session goes");
    CHECK(s1 == MPI_SESSION_NULL, "MPI 4.1 §11.3.1: the handle becomes MPI_SESSION_NULL");



    return check_summary("session");
}
