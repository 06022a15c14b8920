/* User reduction operations and MPI_Reduce_local (MPI 4.1 §6.9.5-§6.9.7). */
#include <mpi.h>
#include "check.h"

static int calls = 0;

static int cls(int rc)
{
    int c;
    MPI_Error_class(rc, &c);
    return c;
}

/* inout = in - inout: not commutative, so the order of the operands shows. */
static void sub_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int i, *a = in, *b = inout;
    calls++;
    if (*dt != MPI_INT) return;
    for (i = 0; i < *len; i++) b[i] = a[i] - b[i];
}

static void sub_fn_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    MPI_Count i;
    int *a = in, *b = inout;
    calls++;
    (void)dt;
    for (i = 0; i < *len; i++) b[i] = a[i] - b[i];
}

int main(int argc, char **argv)
{
    MPI_Op op, opc;
    int in[3] = {10, 20, 30}, io[3] = {1, 2, 3}, commute, i;
    double din[2] = {1.5, -4.0}, dio[2] = {2.0, 3.0};
    struct { double v; int i; } lin[2] = {{1.0, 5}, {7.0, 1}}, lio[2] = {{1.0, 3}, {2.0, 2}};
    unsigned char bin[2] = {0xF0, 0x0F}, bio[2] = {0xFF, 0xFF};

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    CHECK_EQ(MPI_Op_create(sub_fn, 0, &op), MPI_SUCCESS, "MPI 4.1 §6.9.5 MPI_Op_create");
    MPI_Op_commutative(op, &commute);
    CHECK_EQ(commute, 0, "MPI 4.1 §6.9.6: the flag given at creation");
    MPI_Op_commutative(MPI_SUM, &commute);
    CHECK_EQ(commute, 1, "MPI 4.1 §6.9.6: predefined operations are commutative");

    CHECK_EQ(MPI_Reduce_local(in, io, 3, MPI_INT, op), MPI_SUCCESS, "MPI 4.1 §6.9.7 MPI_Reduce_local with a user op");
    CHECK(calls == 1 && io[0] == 9 && io[1] == 18 && io[2] == 27, "MPI 4.1 §6.9.7: inoutbuf = inbuf op inoutbuf");

    /* A user op in a collective over one process: the result is the contribution, op not called. */
    for (i = 0; i < 3; i++) io[i] = 0;
    CHECK_EQ(MPI_Allreduce(in, io, 3, MPI_INT, op, MPI_COMM_WORLD), MPI_SUCCESS, "MPI 4.1 §6.9.5: a user op in a collective");
    CHECK(io[2] == 30 && calls == 1, "MPI 4.1 §6.9.1: one contribution is the result");

    CHECK_EQ(MPI_Op_create_c(sub_fn_c, 1, &opc), MPI_SUCCESS, "MPI 4.1 §6.9.5 MPI_Op_create_c");
    io[0] = 4;
    CHECK_EQ(MPI_Reduce_local_c(in, io, 1, MPI_INT, opc), MPI_SUCCESS, "MPI 4.1 §6.9.7 MPI_Reduce_local_c");
    CHECK(io[0] == 6 && calls == 2, "MPI 4.1 §6.9.7: the MPI_Count form calls the _c function");

    CHECK_EQ(MPI_Op_free(&op), MPI_SUCCESS, "MPI 4.1 §6.9.5 MPI_Op_free");
    CHECK(op == MPI_OP_NULL, "MPI 4.1 §6.9.5: the handle becomes MPI_OP_NULL");
    MPI_Op_free(&opc);
    op = MPI_SUM;
    CHECK_EQ(cls(MPI_Op_free(&op)), MPI_ERR_OP, "MPI 4.1 §6.9.5: a predefined operation cannot be freed");

    /* Predefined operations. */
    io[0] = 1; io[1] = 2; io[2] = 3;
    MPI_Reduce_local(in, io, 3, MPI_INT, MPI_SUM);
    CHECK(io[0] == 11 && io[1] == 22 && io[2] == 33, "MPI 4.1 §6.9.2 MPI_SUM");
    MPI_Reduce_local(in, io, 3, MPI_INT, MPI_MIN);
    CHECK(io[0] == 10 && io[2] == 30, "MPI 4.1 §6.9.2 MPI_MIN");
    MPI_Reduce_local(din, dio, 2, MPI_DOUBLE, MPI_PROD);
    CHECK(dio[0] == 3.0 && dio[1] == -12.0, "MPI 4.1 §6.9.2 MPI_PROD on double");
    MPI_Reduce_local(bin, bio, 2, MPI_BYTE, MPI_BAND);
    CHECK(bio[0] == 0xF0 && bio[1] == 0x0F, "MPI 4.1 §6.9.2 MPI_BAND on MPI_BYTE");
    MPI_Reduce_local(lin, lio, 2, MPI_DOUBLE_INT, MPI_MAXLOC);
    CHECK(lio[0].v == 1.0 && lio[0].i == 3 && lio[1].v == 7.0 && lio[1].i == 1, "MPI 4.1 §6.9.4 MPI_MAXLOC: ties keep the smaller index");
    CHECK_EQ(cls(MPI_Reduce_local(din, dio, 2, MPI_DOUBLE, MPI_BXOR)), MPI_ERR_OP, "MPI 4.1 §6.9.2: MPI_BXOR is not defined on floating point");
    CHECK(dio[0] == 3.0, "an erroneous call changes nothing");
    CHECK_EQ(cls(MPI_Reduce_local(in, io, 3, MPI_INT, MPI_REPLACE)), MPI_ERR_OP, "MPI 4.1 §12.3.4: MPI_REPLACE only in accumulate");
    CHECK_EQ(cls(MPI_Reduce_local(in, io, -1, MPI_INT, MPI_SUM)), MPI_ERR_COUNT, "negative count");
    CHECK_EQ(cls(MPI_Reduce_local(in, io, 1, MPI_INT, MPI_OP_NULL)), MPI_ERR_OP, "MPI_OP_NULL");
    CHECK_EQ(cls(MPI_Reduce_local(in, io, 1, MPI_INT, op + 0x7000)), MPI_ERR_OP, "a forged operation");
    CHECK_EQ(cls(MPI_Reduce_local(MPI_IN_PLACE, io, 1, MPI_INT, MPI_SUM)), MPI_ERR_BUFFER, "MPI 4.1 §6.9.7: no MPI_IN_PLACE");
    CHECK_EQ(cls(MPI_Op_create(NULL, 1, &op)), MPI_ERR_ARG, "NULL function");

    MPI_Finalize();
    return check_summary("op_user");
}
