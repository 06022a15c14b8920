/* Persistent collectives with MPI_IN_PLACE (MPI 4.1 §6.13) on one process, each started twice
 * with new data in the buffer between the starts, and with the count, displacement and
 * datatype arrays given to the init call freed right after it: the init call binds its
 * arguments, and MPICH and Open MPI (and so their users, mpi4py among them) keep no pointer to
 * those arrays. mpi4py's test_cco_pr_buf hung here: MPI_Reduce_scatter_init_c read its freed
 * recvcounts at MPI_Start. */
#include <mpi.h>
#include <stdlib.h>
#include "check.h"

/* A copy of `n` counts in memory that is overwritten and freed by `drop` after the init. */
static int *ints(int v)
{
    int *p = malloc(sizeof *p);
    *p = v;
    return p;
}

static MPI_Count *counts(MPI_Count v)
{
    MPI_Count *p = malloc(sizeof *p);
    *p = v;
    return p;
}

static MPI_Aint *aints(MPI_Aint v)
{
    MPI_Aint *p = malloc(sizeof *p);
    *p = v;
    return p;
}

static MPI_Datatype *types(MPI_Datatype t)
{
    MPI_Datatype *p = malloc(sizeof *p);
    *p = t;
    return p;
}

/* Garbage in, then freed: a start that still read the array would see it (and valgrind the
 * read after free). */
static void drop_int(int *p)
{
    *p = 0x3fffffff;
    free(p);
}

static void drop_count(MPI_Count *p)
{
    *p = (MPI_Count)1 << 60;
    free(p);
}

static void drop_aint(MPI_Aint *p)
{
    *p = (MPI_Aint)1 << 40;
    free(p);
}

static void drop_type(MPI_Datatype *p)
{
    *p = MPI_DATATYPE_NULL;
    free(p);
}

/* Runs `req` twice: before each start buf[i] = base + i (base 10, then 20); after each wait
 * `want(buf, base)` must hold. */
static void fill(int *buf, int n, int base)
{
    int i;
    for (i = 0; i < n; i++) buf[i] = base + i;
}

static void twice(MPI_Request *req, int *buf, int n, int (*want)(const int *, int), const char *rule)
{
    int base;
    for (base = 10; base <= 20; base += 10) {
        fill(buf, n, base);
        CHECK_EQ(MPI_Start(req), MPI_SUCCESS, rule);
        CHECK_EQ(MPI_Wait(req, MPI_STATUS_IGNORE), MPI_SUCCESS, rule);
        CHECK(want(buf, base), rule);
    }
    CHECK_EQ(MPI_Request_free(req), MPI_SUCCESS, "MPI 4.1 §3.9 MPI_Request_free");
}

/* One process: every in-place collective leaves the buffer as it was (its own contribution is
 * the result, and its own block is already in place). */
static int unchanged(const int *buf, int base)
{
    int i;
    for (i = 0; i < 4; i++)
        if (buf[i] != base + i) return 0;
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Request req;
    int buf[4];
    int *c, *d;
    MPI_Count *cc;
    MPI_Aint *cd;
    MPI_Datatype *t, *t2;
    int *c2, *d2;
    MPI_Count *cc2;
    MPI_Aint *cd2;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* The reductions. */
    c = ints(4);
    CHECK_EQ(MPI_Reduce_scatter_init(MPI_IN_PLACE, buf, c, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req),
             MPI_SUCCESS, "MPI 4.1 §6.13 MPI_Reduce_scatter_init in place");
    drop_int(c);
    twice(&req, buf, 4, unchanged, "MPI 4.1 §6.10.1: in-place reduce-scatter over one process keeps its block");
    cc = counts(4);
    CHECK_EQ(MPI_Reduce_scatter_init_c(MPI_IN_PLACE, buf, cc, MPI_INT, MPI_PROD, MPI_COMM_WORLD, MPI_INFO_NULL, &req),
             MPI_SUCCESS, "MPI 4.1 §6.13 MPI_Reduce_scatter_init_c in place");
    drop_count(cc);
    twice(&req, buf, 4, unchanged, "MPI 4.1 §6.10.1: in-place reduce-scatter (_c) over one process keeps its block");
    MPI_Reduce_scatter_block_init(MPI_IN_PLACE, buf, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    twice(&req, buf, 4, unchanged, "MPI 4.1 §6.10.2: in-place reduce-scatter-block over one process");
    MPI_Reduce_scatter_block_init_c(MPI_IN_PLACE, buf, 4, MPI_INT, MPI_MIN, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    twice(&req, buf, 4, unchanged, "MPI 4.1 §6.10.2: in-place reduce-scatter-block (_c) over one process");
    MPI_Allreduce_init(MPI_IN_PLACE, buf, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    twice(&req, buf, 4, unchanged, "MPI 4.1 §6.9.6: in-place allreduce over one process");
    MPI_Reduce_init(MPI_IN_PLACE, buf, 4, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    twice(&req, buf, 4, unchanged, "MPI 4.1 §6.9.1: in-place reduce at the root over one process");
    MPI_Scan_init(MPI_IN_PLACE, buf, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    twice(&req, buf, 4, unchanged, "MPI 4.1 §6.11.1: in-place scan over one process");
    MPI_Exscan_init(MPI_IN_PLACE, buf, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    twice(&req, buf, 4, unchanged, "MPI 4.1 §6.11.2: in-place exscan leaves rank 0's buffer");

    /* The data movers, in place: the own block is already where it belongs. */
    MPI_Allgather_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 4, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    twice(&req, buf, 4, unchanged, "MPI 4.1 §6.7: in-place allgather");
    MPI_Gather_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 4, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    twice(&req, buf, 4, unchanged, "MPI 4.1 §6.5: in-place gather at the root");
    MPI_Scatter_init(buf, 4, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    twice(&req, buf, 4, unchanged, "MPI 4.1 §6.6: in-place scatter at the root");
    MPI_Alltoall_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 4, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    twice(&req, buf, 4, unchanged, "MPI 4.1 §6.8: in-place alltoall");

    /* The vector forms, their arrays freed after the init. */
    c = ints(4);
    d = ints(0);
    CHECK_EQ(MPI_Allgatherv_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, c, d, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req),
             MPI_SUCCESS, "MPI 4.1 §6.13 MPI_Allgatherv_init in place");
    drop_int(c);
    drop_int(d);
    twice(&req, buf, 4, unchanged, "MPI 4.1 §6.7: in-place allgatherv, arrays freed after the init");
    cc = counts(4);
    cd = aints(0);
    CHECK_EQ(MPI_Gatherv_init_c(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, cc, cd, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req),
             MPI_SUCCESS, "MPI 4.1 §6.13 MPI_Gatherv_init_c in place");
    drop_count(cc);
    drop_aint(cd);
    twice(&req, buf, 4, unchanged, "MPI 4.1 §6.5: in-place gatherv (_c), arrays freed after the init");
    c = ints(4);
    d = ints(0);
    CHECK_EQ(MPI_Scatterv_init(buf, c, d, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req),
             MPI_SUCCESS, "MPI 4.1 §6.13 MPI_Scatterv_init in place");
    drop_int(c);
    drop_int(d);
    twice(&req, buf, 4, unchanged, "MPI 4.1 §6.6: in-place scatterv, arrays freed after the init");
    c = ints(4);
    d = ints(0);
    CHECK_EQ(MPI_Alltoallv_init(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, c, d, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req),
             MPI_SUCCESS, "MPI 4.1 §6.13 MPI_Alltoallv_init in place");
    drop_int(c);
    drop_int(d);
    twice(&req, buf, 4, unchanged, "MPI 4.1 §6.8: in-place alltoallv, arrays freed after the init");
    cc = counts(4);
    cd = aints(0);
    t = types(MPI_INT);
    CHECK_EQ(MPI_Alltoallw_init_c(MPI_IN_PLACE, NULL, NULL, NULL, buf, cc, cd, t, MPI_COMM_WORLD, MPI_INFO_NULL, &req),
             MPI_SUCCESS, "MPI 4.1 §6.13 MPI_Alltoallw_init_c in place");
    drop_count(cc);
    drop_aint(cd);
    drop_type(t);
    twice(&req, buf, 4, unchanged, "MPI 4.1 §6.8: in-place alltoallw (_c), arrays freed after the init");

    /* Not in place, the arrays freed too: each start moves the data at the bound displacement. */
    {
        int src[4], dst[8], i, ok, base;
        c = ints(2);
        d = ints(3);
        c2 = ints(2);
        d2 = ints(1);
        MPI_Alltoallv_init(src, c, d2, MPI_INT, dst, c2, d, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
        drop_int(c);
        drop_int(d);
        drop_int(c2);
        drop_int(d2);
        for (base = 10; base <= 20; base += 10) {
            fill(src, 4, base);
            for (i = 0; i < 8; i++) dst[i] = -1;
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            ok = dst[2] == -1 && dst[3] == base + 1 && dst[4] == base + 2 && dst[5] == -1;
            CHECK(ok, "MPI 4.1 §6.8: alltoallv moves sendcounts[0] from sdispls[0] to rdispls[0], as bound at the init");
        }
        MPI_Request_free(&req);

        cc = counts(2);
        cd = aints(1);
        cc2 = counts(2);
        cd2 = aints(2 * (MPI_Aint)sizeof(int));
        t = types(MPI_INT);
        t2 = types(MPI_INT);
        MPI_Alltoallw_init_c(src, cc, cd2, t, dst, cc2, cd2, t2, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
        drop_count(cc);
        drop_aint(cd);
        drop_count(cc2);
        drop_aint(cd2);
        drop_type(t);
        drop_type(t2);
        for (base = 10; base <= 20; base += 10) {
            fill(src, 4, base);
            for (i = 0; i < 8; i++) dst[i] = -1;
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            ok = dst[1] == -1 && dst[2] == base + 2 && dst[3] == base + 3 && dst[4] == -1;
            CHECK(ok, "MPI 4.1 §6.8: alltoallw with byte displacements and types bound at the init");
        }
        MPI_Request_free(&req);
    }

    MPI_Finalize();
    return check_summary("coll_persistent_inplace");
}
