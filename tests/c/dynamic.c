/* Process creation and management in one process (MPI 4.1 §11.8): what one process can do
 * works; what needs another process is the standard's error. */
#include <mpi.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Comm parent = MPI_COMM_WORLD, inter = MPI_COMM_WORLD, c;
    char port[MPI_MAX_PORT_NAME], port2[MPI_MAX_PORT_NAME], found[MPI_MAX_PORT_NAME];
    int codes[3] = {0, 0, 0};
    int eclass = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    CHECK_EQ(MPI_Comm_get_parent(&parent), MPI_SUCCESS, "MPI 4.1 §11.8.2: get_parent");
    CHECK(parent == MPI_COMM_NULL, "MPI 4.1 §11.8.2: a process not spawned has MPI_COMM_NULL");

    /* Ports. */
    CHECK_EQ(MPI_Open_port(MPI_INFO_NULL, port), MPI_SUCCESS, "MPI 4.1 §11.8.2: open_port");
    CHECK_EQ(MPI_Open_port(MPI_INFO_NULL, port2), MPI_SUCCESS, "a second port");
    CHECK(strlen(port) > 0 && strcmp(port, port2) != 0, "each port has its own name");

    /* The name service (§11.8.5). */
    CHECK_EQ(MPI_Publish_name("ocean", MPI_INFO_NULL, port), MPI_SUCCESS, "publish");
    CHECK_EQ(MPI_Lookup_name("ocean", MPI_INFO_NULL, found), MPI_SUCCESS, "lookup");
    CHECK(strcmp(found, port) == 0, "MPI 4.1 §11.8.5: lookup gives the port published");
    CHECK_EQ(MPI_Lookup_name("desert", MPI_INFO_NULL, found), MPI_ERR_NAME,
             "MPI 4.1 §11.8.5: looking up an unpublished name is MPI_ERR_NAME");
    CHECK_EQ(MPI_Unpublish_name("desert", MPI_INFO_NULL, port), MPI_ERR_SERVICE,
             "MPI 4.1 §11.8.5: unpublishing an unpublished name is MPI_ERR_SERVICE");
    CHECK_EQ(MPI_Unpublish_name("ocean", MPI_INFO_NULL, port), MPI_SUCCESS, "unpublish");
    CHECK_EQ(MPI_Lookup_name("ocean", MPI_INFO_NULL, found), MPI_ERR_NAME,
             "MPI 4.1 §11.8.5: an unpublished name is gone");

    /* Connect and accept: nobody else can be on the other side. */
    CHECK_EQ(MPI_Comm_connect("no-such-port", MPI_INFO_NULL, 0, MPI_COMM_SELF, &c),
             MPI_ERR_PORT, "MPI 4.1 §11.8.2: connecting to a port that is not open");
    CHECK_EQ(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT,
             "MPI 4.1 §11.8.2: no server accepts (the timeout case): MPI_ERR_PORT");
    CHECK_EQ(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT,
             "no client can exist: accept reports instead of waiting forever");
    CHECK_EQ(MPI_Comm_accept(port, MPI_INFO_NULL, 5, MPI_COMM_SELF, &c), MPI_ERR_ROOT,
             "MPI 4.1 §11.8.2: root must be a rank of comm");

    CHECK_EQ(MPI_Close_port(port), MPI_SUCCESS, "close_port");
    CHECK_EQ(MPI_Close_port(port), MPI_ERR_PORT, "a closed port cannot be closed again");
    CHECK_EQ(MPI_Close_port(port2), MPI_SUCCESS, "close the second");

    /* Spawning cannot start processes here. */
    int rc = MPI_Comm_spawn("/bin/true", MPI_ARGV_NULL, 3, MPI_INFO_NULL, 0, MPI_COMM_SELF,
                            &inter, codes);
    MPI_Error_class(rc, &eclass);
    CHECK_EQ(eclass, MPI_ERR_SPAWN, "MPI 4.1 §11.8.2: no process can be spawned: MPI_ERR_SPAWN");
    CHECK(inter == MPI_COMM_NULL, "no intercommunicator");
    CHECK(codes[0] == MPI_ERR_SPAWN && codes[1] == MPI_ERR_SPAWN && codes[2] == MPI_ERR_SPAWN,
          "MPI 4.1 §11.8.2: one error code per process asked for");
    rc = MPI_Comm_spawn("/bin/true", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter,
                        MPI_ERRCODES_IGNORE);
    MPI_Error_class(rc, &eclass);
    CHECK_EQ(eclass, MPI_ERR_SPAWN, "MPI_ERRCODES_IGNORE is taken");
    char *cmds[2] = {"/bin/true", "/bin/false"};
    int maxprocs[2] = {1, 2};
    MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
    codes[0] = codes[1] = codes[2] = 0;
    rc = MPI_Comm_spawn_multiple(2, cmds, MPI_ARGVS_NULL, maxprocs, infos, 0, MPI_COMM_SELF,
                                 &inter, codes);
    MPI_Error_class(rc, &eclass);
    CHECK_EQ(eclass, MPI_ERR_SPAWN, "MPI 4.1 §11.8.3: spawn_multiple: MPI_ERR_SPAWN");
    CHECK(codes[2] == MPI_ERR_SPAWN, "one code per process of every command");

    /* Join: a socket with nothing MPI at the other end of it. */
    int sv[2];
    CHECK_EQ(MPI_Comm_join(-1, &inter), MPI_ERR_ARG,
             "MPI 4.1 §11.8.6: fd must be a connected socket");
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0) {
        rc = MPI_Comm_join(sv[0], &inter);
        CHECK_EQ(rc, MPI_ERR_UNSUPPORTED_OPERATION,
                 "a single process cannot join another MPI process");
        close(sv[0]);
        close(sv[1]);
    }

    /* Disconnect: a free that waits for pending communication. */
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    CHECK_EQ(MPI_Comm_disconnect(&c), MPI_SUCCESS, "MPI 4.1 §11.8.4: disconnect");
    CHECK(c == MPI_COMM_NULL, "MPI 4.1 §11.8.4: the handle becomes MPI_COMM_NULL");
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    int v = 1;
    MPI_Request r;
    MPI_Irecv(&v, 1, MPI_INT, 0, 3, c, &r);
    rc = MPI_Comm_disconnect(&c);
    CHECK(rc != MPI_SUCCESS && c != MPI_COMM_NULL,
          "MPI 4.1 §11.8.4: a receive nobody can match: waiting would never end, reported");
    MPI_Send(&v, 1, MPI_INT, 0, 3, c);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK_EQ(MPI_Comm_disconnect(&c), MPI_SUCCESS, "once it completed, disconnect works");
    CHECK_EQ(MPI_Comm_disconnect(&parent), MPI_ERR_COMM,
             "MPI_COMM_NULL cannot be disconnected");

    MPI_Finalize();
    return check_summary("dynamic");
}
