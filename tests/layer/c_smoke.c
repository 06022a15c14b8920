/* Smoke test of the layer over an engine MPI (issue 17), run on 1 and 2 processes by
 * tests/layer_smoke.rs. Each check names the rule of MPI 4.1 it checks; any failure prints
 * one line and exits 1. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <unistd.h>

static int rank;
static int copies, deletes;
static int self_order[3], self_deleted;

#define CHECK(cond, what)                                                      \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "rank %d: FAILED %s (line %d)\n", rank, what, __LINE__); \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

static int copy_plus_one(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c; (void)k;
    CHECK(extra == (void *)&copies, "extra_state handed to the copy callback");
    *(intptr_t *)out = (intptr_t)in + 1;
    *flag = 1;
    copies++;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm c, int k, void *val, void *extra)
{
    (void)c; (void)k; (void)val; (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

static int failing_delete(MPI_Comm c, int k, void *val, void *extra)
{
    (void)c; (void)k; (void)val; (void)extra;
    return MPI_ERR_OTHER;
}

static int b_key, b_deletes;

static int count_b(MPI_Comm c, int k, void *val, void *extra)
{
    (void)c; (void)k; (void)val; (void)extra;
    b_deletes++;
    return MPI_SUCCESS;
}

/* A delete callback that deletes another attribute of the object being freed. */
static int delete_b(MPI_Comm c, int k, void *val, void *extra)
{
    (void)k; (void)val; (void)extra;
    return MPI_Comm_delete_attr(c, b_key);
}

static int self_delete(MPI_Comm c, int k, void *val, void *extra)
{
    int finalized = 1;
    (void)c; (void)k; (void)extra;
    MPI_Finalized(&finalized);
    CHECK(!finalized, "MPI_Finalized is false in MPI_COMM_SELF's delete callbacks");
    if (self_deleted < 3)
        self_order[self_deleted] = (int)(intptr_t)val;
    self_deleted++;
    if (self_deleted == 3) {
        /* MPI 4.1 §11.2.4: reverse order of setting. */
        CHECK(self_order[0] == 3 && self_order[1] == 2 && self_order[2] == 1,
              "MPI_COMM_SELF's attributes deleted last set first at MPI_Finalize");
        printf("rank %d: finalize order ok\n", rank);
        fflush(stdout);
    }
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int size, key, dupkey, failkey, flag, *tag_ub, k1, k2, k3;
    void *val;
    MPI_Comm dup, dup2;
    MPI_Datatype t, t2;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* MPI 4.1 §7.7.2: copy callbacks run on dup, delete callbacks on free. */
    CHECK(MPI_Comm_create_keyval(copy_plus_one, count_delete, &key, &copies) == MPI_SUCCESS,
          "create keyval");
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, key, (void *)(intptr_t)(100 + rank)) == MPI_SUCCESS,
          "set attr");
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS, "dup");
    CHECK(copies == 1, "one copy callback per dup");
    CHECK(MPI_Comm_get_attr(dup, key, &val, &flag) == MPI_SUCCESS && flag &&
              (intptr_t)val == 101 + rank,
          "the copy callback's value on the dup (differs by rank)");
    /* A collective over the dup still works. */
    {
        int sum = 0, one = 1;
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup);
        CHECK(sum == size, "allreduce over the dup");
    }
    CHECK(MPI_Comm_free(&dup) == MPI_SUCCESS && dup == MPI_COMM_NULL, "free the dup");
    CHECK(deletes == 1, "one delete callback per free");

    /* MPI 4.1 §7.7.2: MPI_COMM_DUP_FN copies the value. */
    CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &dupkey, NULL) ==
              MPI_SUCCESS, "create DUP_FN keyval");
    MPI_Comm_set_attr(MPI_COMM_WORLD, dupkey, (void *)(intptr_t)(7 + rank));
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    CHECK(MPI_Comm_get_attr(dup, dupkey, &val, &flag) == MPI_SUCCESS && flag &&
              (intptr_t)val == 7 + rank,
          "MPI_COMM_DUP_FN copies the value");
    CHECK(copies == 2, "the user copy callback ran once more");

    /* A freed handle handed out again carries no old attributes. */
    MPI_Comm_free(&dup);
    CHECK(deletes == 2, "delete callback on the second free");
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &dup2);
    CHECK(MPI_Comm_get_attr(dup2, dupkey, &val, &flag) == MPI_SUCCESS && !flag,
          "a split communicator has no attributes (copy callbacks run only on dup)");
    /* docs/DESIGN.md "Predefined attributes": MPI_TAG_UB answers on every communicator. */
    CHECK(MPI_Comm_get_attr(dup2, MPI_TAG_UB, &tag_ub, &flag) == MPI_SUCCESS && flag &&
              *tag_ub >= 32767, "MPI_TAG_UB on a split communicator");
    CHECK(MPI_Comm_get_attr(MPI_COMM_SELF, MPI_TAG_UB, &tag_ub, &flag) == MPI_SUCCESS && flag &&
              *tag_ub >= 32767, "MPI_TAG_UB on MPI_COMM_SELF");
    MPI_Comm_free(&dup2);

    /* The engine's predefined attribute (MPI 4.1 §9.1.2): C gets an int*. */
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag) == MPI_SUCCESS && flag &&
              *tag_ub >= 32767,
          "MPI_TAG_UB through the layer");

    /* A failing delete callback leaves the attribute and the object (MPI 4.1 §7.7.2). */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, failing_delete, &failkey, NULL);
    MPI_Comm_set_attr(dup, failkey, (void *)1);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    CHECK(MPI_Comm_delete_attr(dup, failkey) == MPI_ERR_OTHER, "a failing delete callback's code");
    CHECK(MPI_Comm_get_attr(dup, failkey, &val, &flag) == MPI_SUCCESS && flag,
          "the attribute stays after a failing delete callback");
    CHECK(MPI_Comm_free(&dup) != MPI_SUCCESS && dup != MPI_COMM_NULL,
          "a failing delete callback leaves the communicator valid");
    MPI_Comm_free_keyval(&failkey);

    /* Bad input under MPI_ERRORS_RETURN: the engine's MPI_ERR_KEYVAL class. */
    {
        int cls = -1, rc;
        rc = MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, (void *)1);
        MPI_Error_class(rc, &cls);
        CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_KEYVAL, "setting a predefined keyval is MPI_ERR_KEYVAL");
        k1 = key;
        MPI_Comm_free_keyval(&k1);
        CHECK(k1 == MPI_KEYVAL_INVALID, "a freed keyval variable becomes MPI_KEYVAL_INVALID");
        rc = MPI_Comm_set_attr(MPI_COMM_SELF, key, (void *)1);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_KEYVAL, "a freed keyval cannot make new attributes");
        rc = MPI_Type_set_attr(MPI_INT, dupkey, (void *)1);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_KEYVAL, "a communicator keyval on a datatype is MPI_ERR_KEYVAL");
        k2 = MPI_KEYVAL_INVALID;
        rc = MPI_Comm_free_keyval(&k2);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_KEYVAL, "MPI 4.1 §7.7.2: freeing MPI_KEYVAL_INVALID is MPI_ERR_KEYVAL");
        rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &val, &flag);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_KEYVAL, "MPI 4.1 §7.7.2: a get with MPI_KEYVAL_INVALID is MPI_ERR_KEYVAL");
    }

#if defined(MPICH_VERSION) || defined(MPI_ABI_VERSION)
    /* A freed communicator's handle (MPICH checks handles without touching freed memory):
     * MPI_ERR_COMM, nothing attached (MPI 4.1 §9.3 error classes). */
    {
        int cls = -1, rc;
        MPI_Comm stale;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        stale = dup;
        MPI_Comm_free(&dup);
        rc = MPI_Comm_set_attr(stale, dupkey, (void *)1);
        MPI_Error_class(rc, &cls);
        CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_COMM, "a set on a freed communicator is MPI_ERR_COMM");
    }
#endif

    /* Datatypes: copy on MPI_Type_dup, delete on MPI_Type_free. */
    {
        int tkey;
        copies = deletes = 0;
        MPI_Type_contiguous(2, MPI_INT, &t);
        MPI_Type_create_keyval((MPI_Type_copy_attr_function *)copy_plus_one,
                               (MPI_Type_delete_attr_function *)count_delete, &tkey, &copies);
        MPI_Type_set_attr(t, tkey, (void *)5);
        MPI_Type_dup(t, &t2);
        CHECK(MPI_Type_get_attr(t2, tkey, &val, &flag) == MPI_SUCCESS && flag &&
                  (intptr_t)val == 6, "MPI_Type_dup runs the copy callback");
        MPI_Type_free(&t2);
        MPI_Type_free(&t);
        CHECK(copies == 1 && deletes == 2, "MPI_Type_free runs the delete callbacks");
        MPI_Type_free_keyval(&tkey);
    }

    /* MPI 4.1 §7.7.2: callbacks may call MPI; a delete callback deleting another attribute
     * of the communicator being freed runs that attribute's delete callback exactly once. */
    {
        int a_key;
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_b, &b_key, NULL);
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_b, &a_key, NULL);
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Comm_set_attr(dup, b_key, (void *)1);
        MPI_Comm_set_attr(dup, a_key, (void *)2);
        CHECK(MPI_Comm_free(&dup) == MPI_SUCCESS, "free with a nested delete");
        CHECK(b_deletes == 1, "a nested delete runs the other delete callback exactly once");
        MPI_Comm_free_keyval(&a_key);
        MPI_Comm_free_keyval(&b_key);
    }

    /* MPI_Comm_idup: the engine hands out the handle at once; the copy callbacks run then. */
    {
        MPI_Request req;
        int ikey;
        /* MPI 4.1 §7.7.2: a freed keyval still names its attributes until the last goes. */
        CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, key) == MPI_SUCCESS,
              "delete with a freed keyval that an attribute still uses");
        copies = 0;
        MPI_Comm_create_keyval(copy_plus_one, MPI_COMM_NULL_DELETE_FN, &ikey, &copies);
        MPI_Comm_set_attr(MPI_COMM_WORLD, ikey, (void *)(intptr_t)(30 + rank));
        CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req) == MPI_SUCCESS, "idup");
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK(MPI_Comm_get_attr(dup, ikey, &val, &flag) == MPI_SUCCESS && flag &&
                  (intptr_t)val == 31 + rank && copies == 1,
              "MPI_Comm_idup runs the copy callback");
        MPI_Comm_free(&dup);
        CHECK(MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dup) == MPI_SUCCESS &&
                  MPI_Comm_get_attr(dup, ikey, &val, &flag) == MPI_SUCCESS && flag &&
                  (intptr_t)val == 31 + rank && copies == 2,
              "MPI_Comm_dup_with_info runs the copy callback");
        {
            /* MPI 4.1 §11.10.4: MPI_Comm_disconnect frees the communicator, so its
             * attributes' delete callbacks run. */
            int dkey;
            deletes = 0;
            MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &dkey, NULL);
            MPI_Comm_set_attr(dup, dkey, (void *)1);
            CHECK(MPI_Comm_disconnect(&dup) == MPI_SUCCESS && dup == MPI_COMM_NULL &&
                      deletes == 1, "MPI_Comm_disconnect runs the delete callback");
            MPI_Comm_free_keyval(&dkey);
        }
        MPI_Comm_delete_attr(MPI_COMM_WORLD, ikey);
        MPI_Comm_free_keyval(&ikey);
    }

    /* Windows: the engine's MPI_WIN_BASE / MPI_WIN_SIZE (MPI 4.1 §12.2.6: C gets the base
     * itself and a pointer to an MPI_Aint), a layer attribute deleted by MPI_Win_free. */
    {
        int buf[4], wkey;
        MPI_Win win;
        void *base;
        MPI_Aint *wsize;
        deletes = 0;
        MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
        CHECK(MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag) == MPI_SUCCESS && flag &&
                  base == (void *)buf, "MPI_WIN_BASE through the layer");
        CHECK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &wsize, &flag) == MPI_SUCCESS && flag &&
                  *wsize == (MPI_Aint)sizeof buf, "MPI_WIN_SIZE through the layer");
        {
            int cls = -1;
            MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
            MPI_Error_class(MPI_Win_get_attr(win, MPI_TAG_UB, &val, &flag), &cls);
            CHECK(cls == MPI_ERR_KEYVAL, "MPI 4.1 §7.7.2: a communicator keyval on a window is MPI_ERR_KEYVAL");
        }
        MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, (MPI_Win_delete_attr_function *)count_delete,
                              &wkey, NULL);
        MPI_Win_set_attr(win, wkey, (void *)(intptr_t)rank);
        CHECK(MPI_Win_get_attr(win, wkey, &val, &flag) == MPI_SUCCESS && flag &&
                  (intptr_t)val == rank, "a window attribute");
        CHECK(MPI_Win_free(&win) == MPI_SUCCESS && win == MPI_WIN_NULL && deletes == 1,
              "MPI_Win_free runs the delete callback");
        MPI_Win_free_keyval(&wkey);
    }

    /* MPI-IO inside the engine (ROMIO) makes keyvals through PMPI_ and calls unprefixed
     * caching routines on them: the layer hands them to the engine. */
    {
        MPI_File fh;
        char name[96];
        int back = -1;
        snprintf(name, sizeof name, "/tmp/mpicache_layer_io_%d_%d.dat", (int)getpid(), rank);
        CHECK(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_RDWR,
                            MPI_INFO_NULL, &fh) == MPI_SUCCESS, "MPI_File_open over the layer");
        MPI_File_write_at(fh, 0, &rank, 1, MPI_INT, MPI_STATUS_IGNORE);
        MPI_File_read_at(fh, 0, &back, 1, MPI_INT, MPI_STATUS_IGNORE);
        CHECK(back == rank && MPI_File_close(&fh) == MPI_SUCCESS, "MPI-IO write, read, close");
        MPI_File_delete(name, MPI_INFO_NULL);
    }

    /* MPI_COMM_SELF's attributes at MPI_Finalize. */
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &k1, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &k2, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &k3, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, k2, (void *)1);
    MPI_Comm_set_attr(MPI_COMM_SELF, k1, (void *)2);
    MPI_Comm_set_attr(MPI_COMM_SELF, k3, (void *)3);
    printf("rank %d: c smoke ok\n", rank);
    fflush(stdout);
    MPI_Finalize();
    if (self_deleted != 3) {
        fprintf(stderr, "rank %d: FAILED MPI_COMM_SELF's delete callbacks ran %d times\n", rank,
                self_deleted);
        return 1;
    }
    return 0;
}
