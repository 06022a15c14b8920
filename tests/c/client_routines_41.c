/* More routines mpi4py's tests use: large-count constructors and their decoding, MPI 4.1
 * communicator buffers, MPI_Win_shared_query, MPI_Type_match_size, MPI_Get_hw_resource_info,
 * MPI_Info_create_env, MPI_Op_free / MPI_Op_commutative, intercommunicator queries. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Datatype t, types[1];
    MPI_Count ni, na, nc, nd, c[4];
    int comb, n, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    MPI_Type_vector_c(3, 2, 5, MPI_INT, &t);
    MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &comb);
    CHECK(comb == MPI_COMBINER_VECTOR && ni == 0 && na == 0 && nc == 3 && nd == 1,
          "MPI 4.1 §5.1.13: a _c constructor's arguments are large counts");
    MPI_Type_get_contents_c(t, 0, 0, 3, 1, NULL, NULL, c, types);
    CHECK(c[0] == 3 && c[1] == 2 && c[2] == 5 && types[0] == MPI_INT,
          "MPI 4.1 §5.1.13: the large counts in order");
    {
        int i1, i2, i3;
        CHECK_EQ(MPI_Type_get_envelope(t, &i1, &i2, &i3, &comb), MPI_ERR_TYPE,
                 "MPI 4.1 §5.1.13: the int form cannot describe large counts");
    }
    MPI_Type_free(&t);

    {
        MPI_Comm dup;
        void *buf = malloc(1024), *back = NULL;
        int size = 0, v = 4, got = 0;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        CHECK_EQ(MPI_Comm_attach_buffer(dup, buf, 1024), MPI_SUCCESS,
                 "MPI 4.1 §3.6.1: MPI_Comm_attach_buffer");
        CHECK_EQ(MPI_Bsend(&v, 1, MPI_INT, 0, 0, dup), MPI_SUCCESS,
                 "MPI 4.1 §3.6.1: a buffered send uses the communicator's buffer");
        CHECK_EQ(MPI_Comm_flush_buffer(dup), MPI_ERR_OTHER,
                 "a flush whose message no receive can take would wait forever");
        MPI_Recv(&got, 1, MPI_INT, 0, 0, dup, MPI_STATUS_IGNORE);
        CHECK_EQ(MPI_Comm_flush_buffer(dup), MPI_SUCCESS, "MPI 4.1 §3.6.1: then it flushes");
        MPI_Comm_detach_buffer(dup, &back, &size);
        CHECK(back == buf && size == 1024, "MPI 4.1 §3.6.1: MPI_Comm_detach_buffer");
        MPI_Comm_attach_buffer(dup, MPI_BUFFER_AUTOMATIC, 0);
        MPI_Comm_detach_buffer(dup, &back, &size);
        CHECK(back == MPI_BUFFER_AUTOMATIC, "MPI 4.1 §3.6.1: MPI_BUFFER_AUTOMATIC comes back");
        CHECK_EQ(MPI_Buffer_detach(&back, &size), MPI_ERR_BUFFER,
                 "MPI 4.1 §3.6.1: no process buffer is attached");
        MPI_Comm_free(&dup);
        free(buf);
    }

    {
        double mem[4];
        MPI_Win win;
        MPI_Aint sz;
        int unit;
        double *base = NULL;
        MPI_Win_create(mem, sizeof mem, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
        MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
        CHECK_EQ(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &unit, &base), MPI_SUCCESS,
                 "MPI 4.1 §12.2.3: MPI_Win_shared_query");
        CHECK(base == mem && sz == (MPI_Aint)sizeof mem && unit == (int)sizeof(double),
              "MPI 4.1 §12.2.3: the process's own memory, size and unit");
        CHECK_EQ(MPI_Win_shared_query(win, 1, &sz, &unit, &base), MPI_ERR_RANK,
                 "MPI 4.1 §12.2.3: a rank outside the group");
        MPI_Win_free(&win);
    }

    {
        char a[16], b[8];
        MPI_Win win;
        MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
        MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
        CHECK_EQ(MPI_Win_attach(win, a, sizeof a), MPI_SUCCESS, "MPI 4.1 §12.2.4: MPI_Win_attach");
        CHECK_EQ(MPI_Win_attach(win, a + 8, 4), MPI_ERR_RMA_ATTACH,
                 "MPI 4.1 §12.2.4: attached regions may not overlap");
        MPI_Win_attach(win, b, sizeof b);
        CHECK_EQ(MPI_Win_detach(win, a), MPI_SUCCESS, "MPI 4.1 §12.2.4: MPI_Win_detach");
        CHECK_EQ(MPI_Win_detach(win, a), MPI_ERR_RMA_ATTACH,
                 "MPI 4.1 §12.2.4: detaching memory not attached");
        MPI_Win_detach(win, b);
        MPI_Win_free(&win);
    }

    MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t);
    CHECK(t == MPI_REAL8, "MPI 4.1 §19.1.9: MPI_Type_match_size(REAL, 8) is MPI_REAL8");
    CHECK_EQ(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t), MPI_ERR_ARG,
             "MPI 4.1 §19.1.9: no such size");

    {
        MPI_Info info;
        char v[64];
        MPI_Get_hw_resource_info(&info);
        n = 64;
        MPI_Info_get_string(info, "mpi_hw_resource_type", &n, v, &flag);
        CHECK(flag && strcmp(v, "mpi_shared_memory") == 0,
              "MPI 4.1 §11.4.1: the process's hardware resource");
        MPI_Info_free(&info);
        MPI_Info_create_env(argc, argv, &info);
        n = 64;
        MPI_Info_get_string(info, "maxprocs", &n, v, &flag);
        CHECK(flag && strcmp(v, "1") == 0, "MPI 4.1 §11.2.3: maxprocs of a single process");
        MPI_Info_free(&info);
    }

    {
        MPI_Op op = MPI_SUM;
        CHECK_EQ(MPI_Op_free(&op), MPI_ERR_OP, "MPI 4.1 §6.9.5: a predefined op cannot be freed");
        CHECK(op == MPI_SUM, "a failed free leaves the handle");
        MPI_Op_commutative(MPI_MAX, &flag);
        CHECK(flag, "MPI 4.1 §6.9.6: MPI_MAX is commutative");
        CHECK_EQ(MPI_Comm_remote_size(MPI_COMM_WORLD, &n), MPI_ERR_COMM,
                 "MPI 4.1 §7.6.1: MPI_Comm_remote_size of an intracommunicator");
    }
    MPI_Finalize();
    return check_summary("client_routines_41");
}
