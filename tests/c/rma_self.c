/* One-sided communication of one process with its own windows (MPI 4.1 §12.3-§12.5). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

static void put_get_fence(void)
{
    int mem[8] = {0}, src[4] = {1, 2, 3, 4}, got[4] = {0};
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);

    CHECK_EQ(MPI_Put(src, 4, MPI_INT, 0, 0, 4, MPI_INT, win), MPI_ERR_RMA_SYNC,
             "MPI 4.1 §12.5: an RMA call outside an access epoch is MPI_ERR_RMA_SYNC");
    CHECK(mem[0] == 0, "MPI 4.1 §2.8: a failed call changes nothing");

    CHECK_EQ(MPI_Win_fence(0, win), MPI_SUCCESS, "MPI 4.1 §12.5.1: a fence opens an epoch");
    CHECK_EQ(MPI_Put(src, 4, MPI_INT, 0, 2, 4, MPI_INT, win), MPI_SUCCESS,
             "MPI 4.1 §12.3.1: put to self inside a fence epoch");
    CHECK_EQ(MPI_Win_fence(0, win), MPI_SUCCESS, "MPI 4.1 §12.5.1: the fence completes it");
    CHECK(mem[1] == 0 && mem[2] == 1 && mem[5] == 4 && mem[6] == 0,
          "MPI 4.1 §12.3.1: put writes at base + disp * disp_unit");

    CHECK_EQ(MPI_Get(got, 4, MPI_INT, 0, 3, 4, MPI_INT, win), MPI_SUCCESS,
             "MPI 4.1 §12.3.2: get from self");
    CHECK_EQ(MPI_Win_fence(MPI_MODE_NOSUCCEED, win), MPI_SUCCESS, "closing fence");
    CHECK(got[0] == 2 && got[2] == 4 && got[3] == 0, "MPI 4.1 §12.3.2: get reads the window");

    CHECK_EQ(MPI_Get(got, 1, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC,
             "MPI 4.1 §12.5.1: after MPI_MODE_NOSUCCEED no epoch is open");
    CHECK_EQ(MPI_Win_fence(0x7, win), MPI_ERR_ASSERT,
             "MPI 4.1 §12.5.5: an assert bit the call does not know is MPI_ERR_ASSERT");

    MPI_Win_fence(0, win);
    CHECK_EQ(MPI_Put(src, 4, MPI_INT, 0, 6, 4, MPI_INT, win), MPI_ERR_RMA_RANGE,
             "MPI 4.1 §12.3: target bytes beyond the window are MPI_ERR_RMA_RANGE");
    CHECK_EQ(MPI_Put(src, 1, MPI_INT, 0, -1, 1, MPI_INT, win), MPI_ERR_DISP,
             "MPI 4.1 §12.3: a negative displacement is MPI_ERR_DISP");
    CHECK_EQ(MPI_Put(src, 1, MPI_INT, 1, 0, 1, MPI_INT, win), MPI_ERR_RANK,
             "MPI 4.1 §12.3: a target outside the window's group is MPI_ERR_RANK");
    CHECK_EQ(MPI_Put(src, 1, MPI_INT, MPI_PROC_NULL, 1000, 1, MPI_INT, win), MPI_SUCCESS,
             "MPI 4.1 §12.3: MPI_PROC_NULL as target does nothing");
    CHECK_EQ(MPI_Put(src, 2, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_TYPE,
             "MPI 4.1 §12.3.1: origin and target type signatures must match");
    CHECK_EQ(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win), MPI_ERR_RMA_SYNC,
             "MPI 4.1 §12.5: a lock inside a fence epoch that made RMA calls");
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Win_free(&win);
}

static void derived_types(void)
{
    /* MPI 4.1 §12.3: origin and target described by different datatypes of the same signature. */
    double mem[6] = {0}, src[3] = {1.5, 2.5, 3.5};
    MPI_Datatype strided;
    MPI_Win win;
    MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &strided);
    MPI_Type_commit(&strided);
    MPI_Win_create(mem, sizeof mem, 1, MPI_INFO_NULL, MPI_COMM_SELF, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    CHECK_EQ(MPI_Put(src, 3, MPI_DOUBLE, 0, 0, 1, strided, win), MPI_SUCCESS,
             "MPI 4.1 §12.3.1: put with a derived target datatype");
    CHECK(mem[0] == 1.5 && mem[1] == 0 && mem[2] == 2.5 && mem[4] == 3.5,
          "MPI 4.1 §12.3.1: the target typemap places the elements");
    CHECK_EQ(MPI_Accumulate(src, 3, MPI_DOUBLE, 0, 0, 1, strided, MPI_SUM, win), MPI_SUCCESS,
             "MPI 4.1 §12.3.4: accumulate on a derived datatype of one basic type");
    CHECK(mem[0] == 3.0 && mem[2] == 5.0 && mem[4] == 7.0 && mem[1] == 0,
          "MPI 4.1 §12.3.4: target = target op origin, element by element");
    CHECK_EQ(MPI_Accumulate(src, 3, MPI_DOUBLE, 0, 0, 3, MPI_DOUBLE, MPI_BAND, win), MPI_ERR_OP,
             "MPI 4.1 §6.9.2: MPI_BAND is not defined on floating point");
    CHECK_EQ(MPI_Accumulate(src, 3, MPI_DOUBLE, 0, 0, 3, MPI_DOUBLE, MPI_NO_OP, win), MPI_ERR_OP,
             "MPI 4.1 §12.3.4: MPI_NO_OP is only for the fetching accumulates");
    CHECK_EQ(MPI_Accumulate(src, 6, MPI_FLOAT, 0, 0, 3, MPI_DOUBLE, MPI_SUM, win), MPI_ERR_TYPE,
             "MPI 4.1 §12.3.4: operands of different predefined types");
    CHECK_EQ(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win), MPI_ERR_RMA_SYNC,
             "MPI 4.1 §12.5.3: locking a window this process already locked");
    CHECK_EQ(MPI_Win_unlock(0, win), MPI_SUCCESS, "unlock");
    CHECK_EQ(MPI_Win_unlock(0, win), MPI_ERR_RMA_SYNC,
             "MPI 4.1 §12.5.3: unlock without lock is MPI_ERR_RMA_SYNC");
    CHECK_EQ(MPI_Win_lock(99, 0, 0, win), MPI_ERR_LOCKTYPE,
             "MPI 4.1 §12.5.3: an unknown lock type is MPI_ERR_LOCKTYPE");
    MPI_Win_free(&win);
    MPI_Type_free(&strided);
}

static void accumulate_ops(void)
{
    int *base = NULL, one = 1, res = -1, cmp, neu;
    long long l = 0;
    MPI_Win win;
    MPI_Request req;
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    base[0] = 10;
    base[1] = 0x0f;
    base[2] = 5;
    MPI_Win_lock_all(0, win);
    MPI_Fetch_and_op(&one, &res, MPI_INT, 0, 0, MPI_SUM, win);
    CHECK(res == 10 && base[0] == 11,
          "MPI 4.1 §12.3.4: MPI_Fetch_and_op returns the old value and adds");
    MPI_Fetch_and_op(NULL, &res, MPI_INT, 0, 0, MPI_NO_OP, win);
    CHECK(res == 11 && base[0] == 11, "MPI 4.1 §12.3.4: MPI_NO_OP only reads");
    neu = 3;
    MPI_Accumulate(&neu, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_BXOR, win);
    CHECK_EQ(base[1], 0x0c, "MPI 4.1 §6.9.2: MPI_BXOR");
    MPI_Accumulate(&neu, 1, MPI_INT, 0, 2, 1, MPI_INT, MPI_MIN, win);
    CHECK_EQ(base[2], 3, "MPI 4.1 §6.9.2: MPI_MIN");
    MPI_Accumulate(&one, 1, MPI_INT, 0, 2, 1, MPI_INT, MPI_REPLACE, win);
    CHECK_EQ(base[2], 1, "MPI 4.1 §12.3.4: MPI_REPLACE");
    {
        int o[2] = {2, 3}, r[2] = {0, 0};
        MPI_Get_accumulate(o, 2, MPI_INT, r, 2, MPI_INT, 0, 1, 2, MPI_INT, MPI_PROD, win);
        CHECK(r[0] == 0x0c && r[1] == 1 && base[1] == 0x18 && base[2] == 3,
              "MPI 4.1 §12.3.4: MPI_Get_accumulate fetches then combines");
    }
    cmp = 3;
    neu = 42;
    MPI_Compare_and_swap(&neu, &cmp, &res, MPI_INT, 0, 2, win);
    CHECK(res == 3 && base[2] == 42, "MPI 4.1 §12.3.4: compare and swap on equal replaces");
    MPI_Compare_and_swap(&one, &cmp, &res, MPI_INT, 0, 2, win);
    CHECK(res == 42 && base[2] == 42, "MPI 4.1 §12.3.4: on unequal it only fetches");
    CHECK_EQ(MPI_Compare_and_swap(&one, &cmp, &res, MPI_DOUBLE, 0, 0, win), MPI_ERR_TYPE,
             "MPI 4.1 §12.3.4: compare and swap takes integer, logical or byte types");
    CHECK_EQ(MPI_Fetch_and_op(&l, &l, MPI_LONG_LONG, 0, 3, MPI_SUM, win), MPI_ERR_RMA_RANGE,
             "MPI 4.1 §12.3: an 8-byte element at the last 4 bytes of the window is out of range");
    CHECK_EQ(MPI_Rput(&one, 1, MPI_INT, 0, 3, 1, MPI_INT, win, &req), MPI_SUCCESS,
             "MPI 4.1 §12.3.5: MPI_Rput in a passive-target epoch");
    CHECK_EQ(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS, "the request completes");
    CHECK(req == MPI_REQUEST_NULL && base[3] == 1, "MPI 4.1 §12.3.5: completed request freed");
    CHECK_EQ(MPI_Win_flush(0, win), MPI_SUCCESS, "MPI 4.1 §12.5.4: flush in lock_all");
    CHECK_EQ(MPI_Win_flush_local_all(win), MPI_SUCCESS, "MPI 4.1 §12.5.4: flush_local_all");
    CHECK_EQ(MPI_Win_sync(win), MPI_SUCCESS, "MPI 4.1 §12.5.4: MPI_Win_sync");
    CHECK_EQ(MPI_Win_unlock_all(win), MPI_SUCCESS, "unlock_all");
    CHECK_EQ(MPI_Win_flush_all(win), MPI_ERR_RMA_SYNC,
             "MPI 4.1 §12.5.4: flush outside a passive-target epoch");
    MPI_Win_fence(0, win);
    CHECK_EQ(MPI_Rget(&res, 1, MPI_INT, 0, 0, 1, MPI_INT, win, &req), MPI_ERR_RMA_SYNC,
             "MPI 4.1 §12.3.5: request-based RMA only in passive-target epochs");
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Win_free(&win);
}

static void pscw_and_dynamic(void)
{
    int mem[4] = {0}, v = 7, got = 0, flag = -1;
    MPI_Group world, empty = MPI_GROUP_EMPTY;
    MPI_Win win;
    MPI_Aint addr;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Get_address(&mem[1], &addr);
    CHECK_EQ(MPI_Win_post(world, 0, win), MPI_SUCCESS, "MPI 4.1 §12.5.2: post to self");
    CHECK_EQ(MPI_Win_start(world, 0, win), MPI_SUCCESS, "MPI 4.1 §12.5.2: start to self");
    CHECK_EQ(MPI_Put(&v, 1, MPI_INT, 0, addr, 1, MPI_INT, win), MPI_ERR_RMA_RANGE,
             "MPI 4.1 §12.2.4: memory not attached to a dynamic window is out of range");
    MPI_Win_attach(win, mem, sizeof mem);
    CHECK_EQ(MPI_Put(&v, 1, MPI_INT, 0, addr, 1, MPI_INT, win), MPI_SUCCESS,
             "MPI 4.1 §12.2.4: a dynamic window is addressed by absolute address");
    CHECK_EQ(MPI_Win_test(win, &flag), MPI_SUCCESS, "MPI_Win_test");
    CHECK_EQ(flag, 0, "MPI 4.1 §12.5.2: the exposure epoch lasts until MPI_Win_complete");
    CHECK_EQ(MPI_Win_complete(win), MPI_SUCCESS, "MPI 4.1 §12.5.2: complete");
    CHECK_EQ(MPI_Win_wait(win), MPI_SUCCESS, "MPI 4.1 §12.5.2: wait");
    CHECK(mem[1] == 7, "MPI 4.1 §12.5.2: the put is done at the end of the epoch");
    CHECK_EQ(MPI_Get(&got, 1, MPI_INT, 0, addr, 1, MPI_INT, win), MPI_ERR_RMA_SYNC,
             "MPI 4.1 §12.5.2: no access epoch after complete");
    CHECK_EQ(MPI_Win_complete(win), MPI_ERR_RMA_SYNC, "complete without start");
    CHECK_EQ(MPI_Win_wait(win), MPI_ERR_RMA_SYNC, "wait without post");
    CHECK_EQ(MPI_Win_start(empty, 0, win), MPI_SUCCESS, "an empty access group");
    CHECK_EQ(MPI_Win_complete(win), MPI_SUCCESS, "completing an empty access epoch");
    CHECK_EQ(MPI_Win_post(world, 0, win), MPI_SUCCESS, "post");
    CHECK_EQ(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win), MPI_ERR_RMA_CONFLICT,
             "a lock on memory this process exposes by MPI_Win_post conflicts");
    CHECK_EQ(MPI_Win_wait(win), MPI_ERR_OTHER,
             "waiting for a MPI_Win_complete this process never calls cannot end");
    MPI_Win_start(world, 0, win);
    MPI_Win_complete(win);
    CHECK_EQ(MPI_Win_wait(win), MPI_SUCCESS, "the epoch ends once completed");
    MPI_Win_detach(win, mem);
    MPI_Win_free(&win);
    MPI_Group_free(&world);
}

static void shared_and_info(void)
{
    double *base = NULL, *q = NULL;
    MPI_Aint size = 0;
    int unit = 0, flag = 0, *flavor, nkeys = -1;
    char value[MPI_MAX_INFO_VAL];
    MPI_Win win;
    MPI_Info info, used;
    CHECK_EQ(MPI_Win_allocate_shared(3 * sizeof(double), sizeof(double), MPI_INFO_NULL,
                                     MPI_COMM_WORLD, &base, &win),
             MPI_SUCCESS, "MPI 4.1 §12.2.3: MPI_Win_allocate_shared");
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_SHARED, "MPI 4.1 §12.2.6: the shared flavor");
    MPI_Win_shared_query(win, 0, &size, &unit, &q);
    CHECK(q == base && size == 3 * (MPI_Aint)sizeof(double) && unit == (int)sizeof(double),
          "MPI 4.1 §12.2.3: MPI_Win_shared_query gives the segment");
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    CHECK_EQ(MPI_Win_set_info(win, info), MPI_SUCCESS, "MPI 4.1 §12.2.7: set info");
    MPI_Info_free(&info);
    CHECK_EQ(MPI_Win_get_info(win, &used), MPI_SUCCESS, "MPI 4.1 §12.2.7: get info");
    MPI_Info_get_nkeys(used, &nkeys);
    MPI_Info_get(used, "no_locks", MPI_MAX_INFO_VAL - 1, value, &flag);
    CHECK(nkeys == 1 && flag && strcmp(value, "true") == 0,
          "MPI 4.1 §12.2.7: the hints set are the hints in use");
    MPI_Info_free(&used);
    MPI_Win_free(&win);

    {
        char buf[16];
        MPI_Win w2;
        void *b2 = NULL;
        CHECK_EQ(MPI_Win_create_c(buf, 16, 4, MPI_INFO_NULL, MPI_COMM_SELF, &w2), MPI_SUCCESS,
                 "MPI 4.1 §12.2.1: MPI_Win_create_c");
        MPI_Win_free(&w2);
        CHECK_EQ(MPI_Win_allocate_c(16, 2, MPI_INFO_NULL, MPI_COMM_SELF, &b2, &w2), MPI_SUCCESS,
                 "MPI 4.1 §12.2.2: MPI_Win_allocate_c");
        CHECK(b2 != NULL, "a base is returned");
        MPI_Win_free(&w2);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    put_get_fence();
    derived_types();
    accumulate_ops();
    pscw_and_dynamic();
    shared_and_info();
    MPI_Finalize();
    return check_summary("rma_self");
}
