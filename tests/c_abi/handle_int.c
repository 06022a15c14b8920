/* MPI 5.0 §21.4 handle serialization: MPI_<Kind>_toint / MPI_<Kind>_fromint.
 *
 * Standard MPI 5.0 only (no ABI-specific code), so the same file builds against mpicache's
 * mpi.h and against MPICH 5's mpi_abi.h (with mpicc_abi), where handles are pointers. The
 * predefined handles' integers are the values the ABI lists (MPI 5.0 §21.5, mpi_abi.h); they
 * are written out here on purpose: they are what the standard fixes.
 *
 * What an implementation does with an integer that names no handle is erroneous use (§21.4), so
 * mpicache's own answer (the null handle of the kind, as MPI_<Kind>_f2c gives) is checked only
 * when building against mpicache. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "../c/check.h"

/* MPI 5.0 §21.3.3: 1 to 4095 are reserved for predefined handles; 0 is never a handle. */
static int outside_reserved(int v)
{
    return v < 0 || v > 4095;
}

static void noop_errhandler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);

    /* Predefined handles are the ABI's integers, and come back as the same handles. */
    const char *rule = "MPI 5.0 §21.4: toint of a predefined handle is the value §21.5 lists";
    CHECK_EQ(MPI_Comm_toint(MPI_COMM_NULL), 0x100, rule);
    CHECK_EQ(MPI_Comm_toint(MPI_COMM_WORLD), 0x101, rule);
    CHECK_EQ(MPI_Comm_toint(MPI_COMM_SELF), 0x102, rule);
    CHECK_EQ(MPI_Group_toint(MPI_GROUP_NULL), 0x108, rule);
    CHECK_EQ(MPI_Group_toint(MPI_GROUP_EMPTY), 0x109, rule);
    CHECK_EQ(MPI_Win_toint(MPI_WIN_NULL), 0x110, rule);
    CHECK_EQ(MPI_Info_toint(MPI_INFO_NULL), 0x130, rule);
    CHECK_EQ(MPI_Info_toint(MPI_INFO_ENV), 0x131, rule);
    CHECK_EQ(MPI_Errhandler_toint(MPI_ERRHANDLER_NULL), 0x140, rule);
    CHECK_EQ(MPI_Errhandler_toint(MPI_ERRORS_ARE_FATAL), 0x141, rule);
    CHECK_EQ(MPI_Errhandler_toint(MPI_ERRORS_ABORT), 0x142, rule);
    CHECK_EQ(MPI_Errhandler_toint(MPI_ERRORS_RETURN), 0x143, rule);
    CHECK_EQ(MPI_Request_toint(MPI_REQUEST_NULL), 0x180, rule);
    CHECK_EQ(MPI_Type_toint(MPI_DATATYPE_NULL), 0x200, rule);
    CHECK_EQ(MPI_Type_toint(MPI_INT), 0x209, rule);
    CHECK_EQ(MPI_Type_toint(MPI_DOUBLE), 0x214, rule);
    CHECK_EQ(MPI_Type_toint(MPI_LOGICAL), 0x218, rule);
    CHECK_EQ(MPI_Type_toint(MPI_INTEGER), 0x219, rule);
    CHECK_EQ(MPI_Type_toint(MPI_CHARACTER), 0x21e, rule);
    CHECK_EQ(MPI_Type_toint(MPI_INTEGER4), 0x2d1, rule);
    CHECK_EQ(MPI_Op_toint(MPI_OP_NULL), 0x20, rule);
    CHECK_EQ(MPI_Op_toint(MPI_SUM), 0x21, rule);
    CHECK_EQ(MPI_Op_toint(MPI_NO_OP), 0x3d, rule);
    CHECK_EQ(MPI_File_toint(MPI_FILE_NULL), 0x118, rule);
    CHECK_EQ(MPI_Session_toint(MPI_SESSION_NULL), 0x120, rule);
    CHECK_EQ(MPI_Message_toint(MPI_MESSAGE_NULL), 0x128, rule);
    CHECK_EQ(MPI_Message_toint(MPI_MESSAGE_NO_PROC), 0x129, rule);

    rule = "MPI 5.0 §21.4: fromint of toint gives the predefined handle back";
    CHECK(MPI_Comm_fromint(MPI_Comm_toint(MPI_COMM_WORLD)) == MPI_COMM_WORLD, rule);
    CHECK(MPI_Comm_fromint(MPI_Comm_toint(MPI_COMM_SELF)) == MPI_COMM_SELF, rule);
    CHECK(MPI_Comm_fromint(MPI_Comm_toint(MPI_COMM_NULL)) == MPI_COMM_NULL, rule);
    CHECK(MPI_Group_fromint(MPI_Group_toint(MPI_GROUP_EMPTY)) == MPI_GROUP_EMPTY, rule);
    CHECK(MPI_Win_fromint(MPI_Win_toint(MPI_WIN_NULL)) == MPI_WIN_NULL, rule);
    CHECK(MPI_Info_fromint(MPI_Info_toint(MPI_INFO_ENV)) == MPI_INFO_ENV, rule);
    CHECK(MPI_Info_fromint(MPI_Info_toint(MPI_INFO_NULL)) == MPI_INFO_NULL, rule);
    CHECK(MPI_Errhandler_fromint(MPI_Errhandler_toint(MPI_ERRORS_RETURN)) == MPI_ERRORS_RETURN,
          rule);
    CHECK(MPI_Request_fromint(MPI_Request_toint(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL, rule);
    CHECK(MPI_Type_fromint(MPI_Type_toint(MPI_INT)) == MPI_INT, rule);
    CHECK(MPI_Op_fromint(MPI_Op_toint(MPI_MAX)) == MPI_MAX, rule);
    CHECK(MPI_File_fromint(MPI_File_toint(MPI_FILE_NULL)) == MPI_FILE_NULL, rule);
    CHECK(MPI_Session_fromint(MPI_Session_toint(MPI_SESSION_NULL)) == MPI_SESSION_NULL, rule);
    CHECK(MPI_Message_fromint(MPI_Message_toint(MPI_MESSAGE_NULL)) == MPI_MESSAGE_NULL, rule);
    CHECK(MPI_Message_fromint(MPI_Message_toint(MPI_MESSAGE_NO_PROC)) == MPI_MESSAGE_NO_PROC,
          rule);

    /* User handles of every kind: one integer per handle, outside the reserved range, and back. */
    MPI_Comm comm;
    MPI_Group group;
    MPI_Datatype type;
    MPI_Info info;
    MPI_Errhandler errh;
    MPI_Win win;
    MPI_Comm idup;
    MPI_Request req;
    int buf[4];
    CHECK_EQ(MPI_Comm_dup(MPI_COMM_WORLD, &comm), MPI_SUCCESS, "MPI 4.1 §7.4.2 MPI_Comm_dup");
    CHECK_EQ(MPI_Comm_group(comm, &group), MPI_SUCCESS, "MPI 4.1 §7.3.2 MPI_Comm_group");
    CHECK_EQ(MPI_Type_contiguous(2, MPI_INT, &type), MPI_SUCCESS, "MPI 4.1 §5.1.2 MPI_Type_contiguous");
    CHECK_EQ(MPI_Info_create(&info), MPI_SUCCESS, "MPI 4.1 §10.3 MPI_Info_create");
    CHECK_EQ(MPI_Comm_create_errhandler(noop_errhandler, &errh), MPI_SUCCESS,
             "MPI 4.1 §9.3.1 MPI_Comm_create_errhandler");
    CHECK_EQ(MPI_Win_create(buf, sizeof buf, sizeof buf[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win),
             MPI_SUCCESS, "MPI 4.1 §12.2.1 MPI_Win_create");
    CHECK_EQ(MPI_Comm_idup(MPI_COMM_WORLD, &idup, &req), MPI_SUCCESS,
             "MPI 4.1 §7.4.2 MPI_Comm_idup");

    int ci = MPI_Comm_toint(comm), gi = MPI_Group_toint(group), ti = MPI_Type_toint(type);
    int ii = MPI_Info_toint(info), ei = MPI_Errhandler_toint(errh), wi = MPI_Win_toint(win);
    int ri = MPI_Request_toint(req);
    rule = "MPI 5.0 §21.4: toint of a user handle is the same integer at every call";
    CHECK(MPI_Comm_toint(comm) == ci && MPI_Group_toint(group) == gi, rule);
    CHECK(MPI_Type_toint(type) == ti && MPI_Info_toint(info) == ii, rule);
    CHECK(MPI_Errhandler_toint(errh) == ei && MPI_Win_toint(win) == wi, rule);
    CHECK(MPI_Request_toint(req) == ri, rule);
    rule = "MPI 5.0 §21.3.3, §21.4: a user handle's integer is not in the reserved 1..4095";
    CHECK(outside_reserved(ci) && outside_reserved(gi) && outside_reserved(ti), rule);
    CHECK(outside_reserved(ii) && outside_reserved(ei) && outside_reserved(wi), rule);
    CHECK(outside_reserved(ri), rule);
    rule = "MPI 5.0 §21.4: fromint of toint gives the user handle back";
    CHECK(MPI_Comm_fromint(ci) == comm, rule);
    CHECK(MPI_Group_fromint(gi) == group, rule);
    CHECK(MPI_Type_fromint(ti) == type, rule);
    CHECK(MPI_Info_fromint(ii) == info, rule);
    CHECK(MPI_Errhandler_fromint(ei) == errh, rule);
    CHECK(MPI_Win_fromint(wi) == win, rule);
    CHECK(MPI_Request_fromint(ri) == req, rule);
    int size = 0;
    CHECK_EQ(MPI_Comm_size(MPI_Comm_fromint(ci), &size), MPI_SUCCESS,
             "MPI 5.0 §21.4: the handle from fromint is the communicator");
    CHECK_EQ(size, 1, "MPI 4.1 §7.4.1: a dup of MPI_COMM_WORLD has its size");


    /* The kinds added with MPI-IO, sessions and matched probes: a file, a session, a message. */
    MPI_File file;
    MPI_Session session;
    MPI_Message message;
    MPI_Request sreq;
    char path[64];
    int sent = 42, got = 0;
    snprintf(path, sizeof path, "/tmp/mpicache_handle_int_%ld.dat", (long)getpid());
    CHECK_EQ(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR |
                           MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &file),
             MPI_SUCCESS, "MPI 4.1 §14.2.1 MPI_File_open");
    CHECK_EQ(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session), MPI_SUCCESS,
             "MPI 4.1 §11.3.1 MPI_Session_init");
    CHECK_EQ(MPI_Isend(&sent, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &sreq), MPI_SUCCESS,
             "MPI 4.1 §3.7.2 MPI_Isend");
    CHECK_EQ(MPI_Mprobe(0, 7, MPI_COMM_SELF, &message, MPI_STATUS_IGNORE), MPI_SUCCESS,
             "MPI 4.1 §3.8.2 MPI_Mprobe");
    int fi = MPI_File_toint(file), si = MPI_Session_toint(session), mi = MPI_Message_toint(message);
    rule = "MPI 5.0 §21.4: toint of a file, session or message is one integer, outside 1..4095";
    CHECK(MPI_File_toint(file) == fi && MPI_Session_toint(session) == si, rule);
    CHECK(MPI_Message_toint(message) == mi, rule);
    CHECK(outside_reserved(fi) && outside_reserved(si) && outside_reserved(mi), rule);
    rule = "MPI 5.0 §21.4: fromint of toint gives the file, session or message back";
    CHECK(MPI_File_fromint(fi) == file, rule);
    CHECK(MPI_Session_fromint(si) == session, rule);
    CHECK(MPI_Message_fromint(mi) == message, rule);
    MPI_Message again = MPI_Message_fromint(mi);
    CHECK_EQ(MPI_Mrecv(&got, 1, MPI_INT, &again, MPI_STATUS_IGNORE), MPI_SUCCESS,
             "MPI 5.0 §21.4: the message from fromint is received by MPI_Mrecv (MPI 4.1 §3.8.3)");
    CHECK_EQ(got, 42, "MPI 4.1 §3.8.3: MPI_Mrecv receives the probed message");
    CHECK(again == MPI_MESSAGE_NULL,
          "MPI 4.1 §3.8.3: MPI_Mrecv sets the message to MPI_MESSAGE_NULL");
    CHECK_EQ(MPI_Wait(&sreq, MPI_STATUS_IGNORE), MPI_SUCCESS, "MPI 4.1 §3.7.3 MPI_Wait");
    MPI_File fagain = MPI_File_fromint(fi);
    CHECK_EQ(MPI_File_close(&fagain), MPI_SUCCESS,
             "MPI 5.0 §21.4: the file from fromint is closed by MPI_File_close (MPI 4.1 §14.2.2)");
    MPI_Session sagain = MPI_Session_fromint(si);
    CHECK_EQ(MPI_Session_finalize(&sagain), MPI_SUCCESS,
             "MPI 5.0 §21.4: the session from fromint is finalized (MPI 4.1 §11.3.1)");

    CHECK_EQ(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS, "MPI 4.1 §3.7.3 MPI_Wait");
    CHECK_EQ(MPI_Comm_free(&idup), MPI_SUCCESS, "MPI 4.1 §7.4.3 MPI_Comm_free");
    CHECK_EQ(MPI_Win_free(&win), MPI_SUCCESS, "MPI 4.1 §12.2.5 MPI_Win_free");
    CHECK_EQ(MPI_Errhandler_free(&errh), MPI_SUCCESS, "MPI 4.1 §9.3.4 MPI_Errhandler_free");
    CHECK_EQ(MPI_Info_free(&info), MPI_SUCCESS, "MPI 4.1 §10.3 MPI_Info_free");
    CHECK_EQ(MPI_Type_free(&type), MPI_SUCCESS, "MPI 4.1 §5.1.9 MPI_Type_free");
    CHECK_EQ(MPI_Group_free(&group), MPI_SUCCESS, "MPI 4.1 §7.3.3 MPI_Group_free");
    CHECK_EQ(MPI_Comm_free(&comm), MPI_SUCCESS, "MPI 4.1 §7.4.3 MPI_Comm_free");
    rule = "MPI 4.1 §2.5.1: a freed handle variable is the null handle, whose integer is the ABI's";
    CHECK_EQ(MPI_Comm_toint(comm), 0x100, rule);
    CHECK_EQ(MPI_Type_toint(type), 0x200, rule);
    CHECK_EQ(MPI_Request_toint(req), 0x180, rule);

#ifdef MPICACHE
    /* Erroneous input (§21.4): mpicache gives the null handle of the kind, as f2c does. */
    rule = "mpicache: fromint of an integer naming no live handle of the kind is the null handle";
    CHECK(MPI_Comm_fromint(ci) == MPI_COMM_NULL, rule);      /* freed */
    CHECK(MPI_Type_fromint(ti) == MPI_DATATYPE_NULL, rule);  /* freed */
    CHECK(MPI_Win_fromint(wi) == MPI_WIN_NULL, rule);        /* freed */
    CHECK(MPI_Comm_fromint(0) == MPI_COMM_NULL, rule);       /* never a handle */
    CHECK(MPI_Comm_fromint(MPI_Type_toint(MPI_INT)) == MPI_COMM_NULL, rule); /* wrong kind */
    CHECK(MPI_Op_fromint(12345) == MPI_OP_NULL, rule);
    CHECK(MPI_Group_fromint(-1) == MPI_GROUP_NULL, rule);
    CHECK(MPI_File_fromint(fi) == MPI_FILE_NULL, rule);          /* closed */
    CHECK(MPI_Session_fromint(si) == MPI_SESSION_NULL, rule);    /* finalized */
    CHECK(MPI_Message_fromint(mi) == MPI_MESSAGE_NULL, rule);    /* received */
    CHECK(MPI_File_fromint(ci) == MPI_FILE_NULL, rule);          /* wrong kind */
    rule = "mpicache: fromint is f2c, toint is c2f (handles are the same int in C and Fortran)";
    CHECK(MPI_Comm_toint(MPI_COMM_WORLD) == MPI_Comm_c2f(MPI_COMM_WORLD), rule);
    CHECK(MPI_Comm_fromint(12345) == MPI_Comm_f2c(12345), rule);
#endif

    MPI_Finalize();
    return check_summary("handle_int");
}
