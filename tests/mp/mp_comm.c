/* Multi-process caching checks in C (issue 17 item 4), standard MPI only: run on 1, 2 and 4
 * processes by tests/layer_programs.rs over each engine, with and without the layer.
 *
 * Every rank sets values that differ by rank on split and dup'ed communicators, counts its copy
 * and delete callbacks (each exactly once), runs collectives over the dups, creates a window
 * whose size and displacement unit differ by rank and reads the engine's MPI_WIN_BASE /
 * MPI_WIN_SIZE / MPI_WIN_DISP_UNIT, caches on datatypes, and at the end checks MPI_COMM_SELF's
 * finalize order. Each check names its rule (check.h); each rank prints its own summary line
 * "mp_comm rank R: N passed, M failed" and exits 0 only when none failed. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static int rank, size;

/* Callback bookkeeping of this rank. */
static int copies, deletes, extra_ok = 1;
static MPI_Comm deleted_from[16];
static int ndeleted_from;
static int extra_token;

/* MPI 4.1 §7.7.2: the copy callback gets the old value and the keyval's extra_state; it stores
 * the new value (old + 1000) and sets flag to keep it. */
static int copy_add(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c;
    (void)k;
    if (extra != &extra_token)
        extra_ok = 0;
    *(intptr_t *)out = (intptr_t)in + 1000;
    *flag = 1;
    copies++;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm c, int k, void *val, void *extra)
{
    (void)k;
    (void)val;
    if (extra != &extra_token)
        extra_ok = 0;
    if (ndeleted_from < 16)
        deleted_from[ndeleted_from++] = c;
    deletes++;
    return MPI_SUCCESS;
}

/* A copy callback that declines: the dup must not carry the attribute. */
static int copy_decline(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c;
    (void)k;
    (void)extra;
    (void)in;
    (void)out;
    *flag = 0;
    copies++;
    return MPI_SUCCESS;
}

/* A delete callback that deletes another attribute of the same communicator. */
static int inner_key, inner_deletes;
static int delete_inner(MPI_Comm c, int k, void *val, void *extra)
{
    (void)k;
    (void)val;
    (void)extra;
    deletes++;
    return MPI_Comm_delete_attr(c, inner_key);
}
static int count_inner(MPI_Comm c, int k, void *val, void *extra)
{
    (void)c;
    (void)k;
    (void)val;
    (void)extra;
    inner_deletes++;
    return MPI_SUCCESS;
}

/* MPI_COMM_SELF at finalize. */
static int self_order[3], self_n, self_finalized_inside;
static int self_delete(MPI_Comm c, int k, void *val, void *extra)
{
    int fin = 1;
    (void)c;
    (void)k;
    (void)extra;
    MPI_Finalized(&fin);
    if (fin)
        self_finalized_inside = 1;
    if (self_n < 3)
        self_order[self_n] = (int)(intptr_t)val;
    self_n++;
    return MPI_SUCCESS;
}

/* Datatype callbacks. */
static int type_copies, type_deletes;
static int type_copy(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag)
{
    (void)t;
    (void)k;
    (void)extra;
    *(intptr_t *)out = (intptr_t)in * 2;
    *flag = 1;
    type_copies++;
    return MPI_SUCCESS;
}
static int type_delete(MPI_Datatype t, int k, void *val, void *extra)
{
    (void)t;
    (void)k;
    (void)val;
    (void)extra;
    type_deletes++;
    return MPI_SUCCESS;
}

/* Window callbacks. */
static int win_deletes;
static MPI_Win win_deleted_from;
static int win_delete(MPI_Win w, int k, void *val, void *extra)
{
    (void)k;
    (void)extra;
    if ((intptr_t)val == 7 * (rank + 1))
        win_deleted_from = w;
    win_deletes++;
    return MPI_SUCCESS;
}

static intptr_t get_int(MPI_Comm c, int k, int *flag)
{
    void *v = NULL;
    *flag = -1;
    if (MPI_Comm_get_attr(c, k, &v, flag) != MPI_SUCCESS)
        *flag = -2;
    return (intptr_t)v;
}

static void comms(void)
{
    int k, kdecline, kouter, flag, i;
    intptr_t v;
    MPI_Comm dup, dup2, idup, split, info_dup;
    MPI_Request req;
    const intptr_t mine = -(intptr_t)(rank + 1) * 3; /* differs by rank, negative on purpose */

    CHECK_EQ(MPI_Comm_create_keyval(copy_add, count_delete, &k, &extra_token), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: MPI_Comm_create_keyval");
    CHECK_EQ(MPI_Comm_create_keyval(copy_decline, MPI_COMM_NULL_DELETE_FN, &kdecline, NULL),
             MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Comm_create_keyval");
    CHECK_EQ(MPI_Comm_set_attr(MPI_COMM_WORLD, k, (void *)mine), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: MPI_Comm_set_attr on MPI_COMM_WORLD");
    CHECK_EQ(MPI_Comm_set_attr(MPI_COMM_WORLD, kdecline, (void *)(intptr_t)rank), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: MPI_Comm_set_attr");
    v = get_int(MPI_COMM_WORLD, k, &flag);
    CHECK(flag == 1 && v == mine, "MPI 4.1 §7.7.2: each process reads its own value back");

    /* Dup: the copy callback runs once on each rank, with this rank's value. */
    copies = 0;
    CHECK_EQ(MPI_Comm_dup(MPI_COMM_WORLD, &dup), MPI_SUCCESS, "MPI 4.1 §7.4.2: MPI_Comm_dup");
    CHECK_EQ(copies, 2, "MPI 4.1 §7.7.2: MPI_Comm_dup calls each keyval's copy callback once");
    v = get_int(dup, k, &flag);
    CHECK(flag == 1 && v == mine + 1000,
          "MPI 4.1 §7.7.2: the dup carries the copy callback's value for this rank");
    get_int(dup, kdecline, &flag);
    CHECK(flag == 0, "MPI 4.1 §7.7.2: a copy callback returning flag = 0 keeps the attribute off");

    /* A collective over the dup: the sum of every rank's copied value. */
    {
        long local = (long)v, sum = 0, want = 0;
        for (i = 0; i < size; i++)
            want += -(long)(i + 1) * 3 + 1000;
        CHECK_EQ(MPI_Allreduce(&local, &sum, 1, MPI_LONG, MPI_SUM, dup), MPI_SUCCESS,
                 "MPI 4.1 §6.9.6: MPI_Allreduce over the dup");
        CHECK(sum == want, "MPI 4.1 §7.7.2: every rank's dup holds its own copied value");
    }

    /* Dup of the dup: chained copies. */
    copies = 0;
    CHECK_EQ(MPI_Comm_dup(dup, &dup2), MPI_SUCCESS, "MPI 4.1 §7.4.2: MPI_Comm_dup");
    CHECK_EQ(copies, 1, "MPI 4.1 §7.7.2: one copy callback per attribute of the old communicator");
    v = get_int(dup2, k, &flag);
    CHECK(flag == 1 && v == mine + 2000, "MPI 4.1 §7.7.2: copies of copies");
    {
        int r2 = -1;
        MPI_Bcast(&r2, 0, MPI_INT, 0, dup2);
        r2 = rank;
        MPI_Bcast(&r2, 1, MPI_INT, size - 1, dup2);
        CHECK(r2 == size - 1, "MPI 4.1 §6.4: MPI_Bcast over the dup of the dup");
    }

    /* Idup: the copy happens in the call (both engines hand out the handle at once). */
    copies = 0;
    CHECK_EQ(MPI_Comm_idup(MPI_COMM_WORLD, &idup, &req), MPI_SUCCESS,
             "MPI 4.1 §7.4.2: MPI_Comm_idup");
    CHECK_EQ(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS, "MPI 4.1 §3.7.3: MPI_Wait");
    CHECK_EQ(copies, 2, "MPI 4.1 §7.4.2: MPI_Comm_idup runs the copy callbacks like MPI_Comm_dup");
    v = get_int(idup, k, &flag);
    CHECK(flag == 1 && v == mine + 1000, "MPI 4.1 §7.4.2: the idup carries the copied value");

    /* Dup with info. */
    copies = 0;
    CHECK_EQ(MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &info_dup), MPI_SUCCESS,
             "MPI 4.1 §7.4.2: MPI_Comm_dup_with_info");
    CHECK_EQ(copies, 2, "MPI 4.1 §7.4.2: MPI_Comm_dup_with_info runs the copy callbacks");
    v = get_int(info_dup, k, &flag);
    CHECK(flag == 1 && v == mine + 1000,
          "MPI 4.1 §7.4.2: the dup_with_info carries the copied value");

    /* Split: a new communicator carries no attributes; set a value that differs by rank and
     * by colour, and check it through an allreduce over the split. */
    copies = 0;
    CHECK_EQ(MPI_Comm_split(dup, rank % 2, -rank, &split), MPI_SUCCESS,
             "MPI 4.1 §7.4.2: MPI_Comm_split");
    CHECK_EQ(copies, 0, "MPI 4.1 §7.7: only dup propagates attributes, split runs no copy");
    get_int(split, k, &flag);
    CHECK(flag == 0, "MPI 4.1 §7.7: a split communicator starts with no attributes");
    {
        int srank = -1, ssize = 0;
        long val, sum = 0, want = 0;
        MPI_Comm_rank(split, &srank);
        MPI_Comm_size(split, &ssize);
        CHECK_EQ(MPI_Comm_set_attr(split, k, (void *)(intptr_t)(100 * (rank % 2) + srank)),
                 MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Comm_set_attr on the split");
        val = (long)get_int(split, k, &flag);
        CHECK(flag == 1 && val == 100 * (rank % 2) + srank,
              "MPI 4.1 §7.7.2: the split holds this rank's value");
        MPI_Allreduce(&val, &sum, 1, MPI_LONG, MPI_SUM, split);
        for (i = 0; i < ssize; i++)
            want += 100 * (rank % 2) + i;
        CHECK(sum == want, "MPI 4.1 §7.7.2: every member of the split holds its own value");
        /* Attributes of different communicators are independent. */
        v = get_int(dup, k, &flag);
        CHECK(flag == 1 && v == mine + 1000,
              "MPI 4.1 §7.7: setting on the split leaves the dup's attribute alone");
    }

    /* Deleting an attribute that is not set. */
    deletes = 0;
    CHECK_EQ(MPI_Comm_delete_attr(dup, kdecline), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: deleting an attribute that is not set is not an error");
    CHECK_EQ(deletes, 0, "MPI 4.1 §7.7.2: deleting an unset attribute calls no callback");

    /* A delete callback that deletes another attribute of the same communicator while the
     * communicator is freed. */
    CHECK_EQ(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_inner, &kouter, NULL),
             MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Comm_create_keyval");
    CHECK_EQ(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_inner, &inner_key, NULL),
             MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Comm_create_keyval");
    MPI_Comm_set_attr(dup2, kouter, (void *)1);
    MPI_Comm_set_attr(dup2, inner_key, (void *)2);

    /* Free: each delete callback runs once, with the handle being freed. */
    deletes = 0;
    inner_deletes = 0;
    ndeleted_from = 0;
    {
        MPI_Comm want_dup = dup, want_idup = idup, want_info = info_dup;
        CHECK_EQ(MPI_Comm_free(&dup), MPI_SUCCESS, "MPI 4.1 §7.4.3: MPI_Comm_free");
        CHECK(dup == MPI_COMM_NULL, "MPI 4.1 §7.4.3: MPI_Comm_free sets the handle to null");
        CHECK_EQ(deletes, 1, "MPI 4.1 §7.7.2: MPI_Comm_free calls the delete callback once");
        CHECK(ndeleted_from == 1 && deleted_from[0] == want_dup,
              "MPI 4.1 §7.7.2: the delete callback gets the communicator being freed");
        CHECK_EQ(MPI_Comm_free(&idup), MPI_SUCCESS, "MPI 4.1 §7.4.3: MPI_Comm_free");
        CHECK_EQ(MPI_Comm_disconnect(&info_dup), MPI_SUCCESS,
                 "MPI 4.1 §11.10.4: MPI_Comm_disconnect");
        CHECK_EQ(deletes, 3,
                 "MPI 4.1 §11.10.4: MPI_Comm_disconnect runs the delete callbacks like free");
        CHECK(ndeleted_from == 3 && deleted_from[1] == want_idup && deleted_from[2] == want_info,
              "MPI 4.1 §7.7.2: each delete callback gets its own communicator");
    }
    deletes = 0;
    CHECK_EQ(MPI_Comm_free(&dup2), MPI_SUCCESS, "MPI 4.1 §7.4.3: MPI_Comm_free");
    CHECK_EQ(deletes, 2, "MPI 4.1 §7.7.2: both delete callbacks of the dup's dup ran once");
    CHECK_EQ(inner_deletes, 1,
             "MPI 4.1 §7.7.2: a delete callback may delete another attribute of the object "
             "being freed; that attribute's callback runs once");
    deletes = 0;
    CHECK_EQ(MPI_Comm_free(&split), MPI_SUCCESS, "MPI 4.1 §7.4.3: MPI_Comm_free");
    CHECK_EQ(deletes, 1, "MPI 4.1 §7.7.2: the split's own attribute is deleted at free");
    CHECK(extra_ok, "MPI 4.1 §7.7.2: callbacks get the keyval's extra_state");

    /* Errors: an invalid keyval under MPI_ERRORS_RETURN gives MPI_ERR_KEYVAL. */
    {
        int cls = -1, rc;
        void *p = NULL;
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        rc = MPI_Comm_free_keyval(&kdecline);
        CHECK(rc == MPI_SUCCESS && kdecline == MPI_KEYVAL_INVALID,
              "MPI 4.1 §7.7.2: MPI_Comm_free_keyval sets the keyval to MPI_KEYVAL_INVALID");
        rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &p, &flag);
        MPI_Error_class(rc, &cls);
        CHECK_EQ(cls, MPI_ERR_KEYVAL,
                 "MPI 4.1 §7.7.2: MPI_KEYVAL_INVALID is an invalid keyval: MPI_ERR_KEYVAL");
    }

    /* The world's attribute is deleted by an explicit delete. */
    deletes = 0;
    CHECK_EQ(MPI_Comm_delete_attr(MPI_COMM_WORLD, k), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: MPI_Comm_delete_attr");
    CHECK_EQ(deletes, 1, "MPI 4.1 §7.7.2: MPI_Comm_delete_attr calls the delete callback once");
    get_int(MPI_COMM_WORLD, k, &flag);
    CHECK(flag == 0, "MPI 4.1 §7.7.2: a deleted attribute is gone");
    MPI_Comm_free_keyval(&k);
    MPI_Comm_free_keyval(&kouter);
    MPI_Comm_free_keyval(&inner_key);
}

static void types(void)
{
    int k, flag = 0;
    void *v = NULL;
    MPI_Datatype t, t2;
    MPI_Type_contiguous(rank + 1, MPI_INT, &t);
    MPI_Type_commit(&t);
    CHECK_EQ(MPI_Type_create_keyval(type_copy, type_delete, &k, NULL), MPI_SUCCESS,
             "MPI 4.1 §7.7.4: MPI_Type_create_keyval");
    CHECK_EQ(MPI_Type_set_attr(t, k, (void *)(intptr_t)(rank + 5)), MPI_SUCCESS,
             "MPI 4.1 §7.7.4: MPI_Type_set_attr");
    CHECK_EQ(MPI_Type_dup(t, &t2), MPI_SUCCESS, "MPI 4.1 §5.1.10: MPI_Type_dup");
    CHECK_EQ(type_copies, 1, "MPI 4.1 §5.1.10: MPI_Type_dup runs the copy callback once");
    MPI_Type_get_attr(t2, k, &v, &flag);
    CHECK(flag == 1 && (intptr_t)v == 2 * (rank + 5),
          "MPI 4.1 §7.7.4: the dup'ed datatype carries this rank's copied value");
    {
        int sz = 0;
        MPI_Type_size(t2, &sz);
        CHECK_EQ(sz, (rank + 1) * (int)sizeof(int), "MPI 4.1 §5.1.10: the dup is the same type");
    }
    CHECK_EQ(MPI_Type_free(&t2), MPI_SUCCESS, "MPI 4.1 §5.1.9: MPI_Type_free");
    CHECK_EQ(type_deletes, 1, "MPI 4.1 §7.7.4: MPI_Type_free runs the delete callback once");
    CHECK_EQ(MPI_Type_free(&t), MPI_SUCCESS, "MPI 4.1 §5.1.9: MPI_Type_free");
    CHECK_EQ(type_deletes, 2, "MPI 4.1 §7.7.4: and once for the original");
    MPI_Type_free_keyval(&k);
}

static void windows(void)
{
    int k, flag = 0;
    void *v = NULL;
    MPI_Aint *szp = NULL;
    int *dup_ = NULL;
    const int disp = (rank % 2) ? 8 : 4;
    const MPI_Aint bytes = (MPI_Aint)(rank + 1) * 16;
    int *buf = calloc((size_t)bytes, 1);
    MPI_Win win;
    CHECK_EQ(MPI_Win_create(buf, bytes, disp, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_SUCCESS,
             "MPI 4.1 §12.2.1: MPI_Win_create");
    MPI_Win_get_attr(win, MPI_WIN_BASE, &v, &flag);
    CHECK(flag == 1 && v == buf, "MPI 4.1 §12.2.6: MPI_WIN_BASE is this rank's base (C: void*)");
    MPI_Win_get_attr(win, MPI_WIN_SIZE, &szp, &flag);
    CHECK(flag == 1 && szp && *szp == bytes,
          "MPI 4.1 §12.2.6: MPI_WIN_SIZE is this rank's size (C: MPI_Aint*)");
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &dup_, &flag);
    CHECK(flag == 1 && dup_ && *dup_ == disp,
          "MPI 4.1 §12.2.6: MPI_WIN_DISP_UNIT is this rank's unit (C: int*)");
    CHECK_EQ(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &k, NULL), MPI_SUCCESS,
             "MPI 4.1 §7.7.3: MPI_Win_create_keyval");
    CHECK_EQ(MPI_Win_set_attr(win, k, (void *)(intptr_t)(7 * (rank + 1))), MPI_SUCCESS,
             "MPI 4.1 §7.7.3: MPI_Win_set_attr");
    MPI_Win_get_attr(win, k, &v, &flag);
    CHECK(flag == 1 && (intptr_t)v == 7 * (rank + 1), "MPI 4.1 §7.7.3: MPI_Win_get_attr");

    /* The window works across ranks: each puts its rank into its right neighbour. */
    MPI_Win_fence(0, win);
    {
        int val = rank + 1;
        int right = (rank + 1) % size;
        MPI_Put(&val, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    }
    MPI_Win_fence(0, win);
    CHECK_EQ(buf[0], ((rank + size - 1) % size) + 1, "MPI 4.1 §12.3.1: MPI_Put across ranks");
    {
        MPI_Win want = win;
        CHECK_EQ(MPI_Win_free(&win), MPI_SUCCESS, "MPI 4.1 §12.2.5: MPI_Win_free");
        CHECK_EQ(win_deletes, 1, "MPI 4.1 §7.7.3: MPI_Win_free runs the delete callback once");
        CHECK(win_deleted_from == want,
              "MPI 4.1 §7.7.3: the delete callback gets the window and this rank's value");
    }
    MPI_Win_free_keyval(&k);
    free(buf);
}

int main(int argc, char **argv)
{
    int ks[3], i, flag = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    {
        int *ub = NULL;
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
        CHECK(flag == 1 && ub && *ub >= 32767,
              "MPI 4.1 §11.1.2: MPI_TAG_UB is the engine's, at least 32767 (C: int*)");
    }
    comms();
    types();
    windows();
    /* MPI_COMM_SELF: three attributes, deleted in reverse order of setting at finalize. */
    for (i = 0; i < 3; i++) {
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &ks[i], NULL);
        MPI_Comm_set_attr(MPI_COMM_SELF, ks[i], (void *)(intptr_t)(i + 1 + 10 * rank));
    }
    /* A keyval freed before finalize still names its attribute until then. */
    MPI_Comm_free_keyval(&ks[1]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    CHECK_EQ(self_n, 3, "MPI 4.1 §11.2.4: MPI_Finalize deletes every attribute of MPI_COMM_SELF");
    CHECK(self_order[0] == 3 + 10 * rank && self_order[1] == 2 + 10 * rank &&
              self_order[2] == 1 + 10 * rank,
          "MPI 4.1 §11.2.4: MPI_COMM_SELF's attributes are deleted in reverse order of setting");
    CHECK(!self_finalized_inside,
          "MPI 4.1 §11.2.4: MPI_Finalized is false inside those delete callbacks");
    {
        char name[32];
        snprintf(name, sizeof name, "mp_comm rank %d", rank);
        return check_summary(name);
    }
}
