/* Copy callbacks: when they run and what their result means.
 * MPI 4.1 §7.7.2: the copy callback of every attribute runs on MPI_Comm_dup,
 * MPI_Comm_dup_with_info and MPI_Comm_idup (§7.4.2), with the old communicator, the keyval, the
 * extra_state and the value; flag = 0 means "do not copy", flag = 1 stores *attribute_val_out
 * on the new communicator. MPI_COMM_NULL_COPY_FN / MPI_NULL_COPY_FN copy nothing,
 * MPI_COMM_DUP_FN / MPI_DUP_FN copy the value. Copy callbacks never run on MPI_Comm_split or
 * MPI_Comm_create (§7.4.2: only the dup calls propagate attributes). A copy callback that
 * returns an error makes the dup fail; newcomm is then MPI_COMM_NULL and the attributes already
 * copied to the new communicator are deleted (their delete callbacks run once each). */
#include <mpi.h>
#include <stdint.h>
#include "check.h"

struct counters {
    int copies;
    int deletes;
    int deletes_off_world; /* deletes on a communicator other than MPI_COMM_WORLD */
    MPI_Comm last_old;
    int last_keyval;
    void *last_in;
    int fail;    /* the copy callback returns MPI_ERR_OTHER */
    int refuse;  /* the copy callback sets flag = 0 */
    int keyval;
};

static int copy_fn(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                   void *attribute_val_out, int *flag)
{
    struct counters *c = (struct counters *)extra_state;
    c->copies++;
    c->last_old = oldcomm;
    c->last_keyval = keyval;
    c->last_in = attribute_val_in;
    if (c->fail) {
        *flag = 0;
        return MPI_ERR_OTHER;
    }
    if (c->refuse) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    /* The copy is the old value plus one, so the test sees the callback's result stored. */
    *(void **)attribute_val_out = (void *)((intptr_t)attribute_val_in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state)
{
    struct counters *c = (struct counters *)extra_state;
    (void)keyval;
    (void)attribute_val;
    c->deletes++;
    if (comm != MPI_COMM_WORLD)
        c->deletes_off_world++;
    return MPI_SUCCESS;
}

static int get_int(MPI_Comm comm, int keyval, intptr_t *value)
{
    void *v = NULL;
    int flag = 0;
    MPI_Comm_get_attr(comm, keyval, &v, &flag);
    *value = (intptr_t)v;
    return flag;
}

int main(int argc, char **argv)
{
    struct counters user = {0}, refuse = {0}, dupfn = {0}, nullfn = {0};
    int k_dup_fn, k_null_fn, k_mpi1_dup, k_mpi1_null;
    MPI_Comm d1, d2, d3, split, created;
    MPI_Group group;
    MPI_Request req;
    intptr_t v;
    int rc, cls, copies_before;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    refuse.refuse = 1;
    MPI_Comm_create_keyval(copy_fn, delete_fn, &user.keyval, &user);
    MPI_Comm_create_keyval(copy_fn, delete_fn, &refuse.keyval, &refuse);
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, delete_fn, &k_dup_fn, &dupfn);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &k_null_fn, &nullfn);
    MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &k_mpi1_dup, NULL);
    MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &k_mpi1_null, NULL);

    MPI_Comm_set_attr(MPI_COMM_WORLD, user.keyval, (void *)100);
    MPI_Comm_set_attr(MPI_COMM_WORLD, refuse.keyval, (void *)200);
    MPI_Comm_set_attr(MPI_COMM_WORLD, k_dup_fn, (void *)300);
    MPI_Comm_set_attr(MPI_COMM_WORLD, k_null_fn, (void *)400);
    MPI_Comm_set_attr(MPI_COMM_WORLD, k_mpi1_dup, (void *)500);
    MPI_Comm_set_attr(MPI_COMM_WORLD, k_mpi1_null, (void *)600);

    /* MPI_Comm_dup */
    CHECK_EQ(MPI_Comm_dup(MPI_COMM_WORLD, &d1), MPI_SUCCESS, "MPI 4.1 §7.4.2 MPI_Comm_dup");
    CHECK_EQ(user.copies, 1, "MPI 4.1 §7.7.2: MPI_Comm_dup runs the copy callback once");
    CHECK(user.last_old == MPI_COMM_WORLD, "MPI 4.1 §7.7.2: the copy callback gets oldcomm");
    CHECK(user.last_keyval == user.keyval, "MPI 4.1 §7.7.2: the copy callback gets the keyval");
    CHECK(user.last_in == (void *)100,
          "MPI 4.1 §7.7.2: the copy callback gets the attribute value (attribute_val_in)");
    CHECK(get_int(d1, user.keyval, &v) && v == 101,
          "MPI 4.1 §7.7.2: flag = 1 stores attribute_val_out on the new communicator");
    CHECK(get_int(MPI_COMM_WORLD, user.keyval, &v) && v == 100,
          "MPI 4.1 §7.7.2: the old communicator keeps its value");
    CHECK_EQ(refuse.copies, 1, "MPI 4.1 §7.7.2: the copy callback runs even if it refuses");
    CHECK(!get_int(d1, refuse.keyval, &v),
          "MPI 4.1 §7.7.2: flag = 0 means the attribute is not copied");
    CHECK(get_int(d1, k_dup_fn, &v) && v == 300,
          "MPI 4.1 §7.7.2: MPI_COMM_DUP_FN copies the value");
    CHECK(!get_int(d1, k_null_fn, &v), "MPI 4.1 §7.7.2: MPI_COMM_NULL_COPY_FN copies nothing");
    CHECK(get_int(d1, k_mpi1_dup, &v) && v == 500, "MPI 4.1 §7.7.2 / §6.7 (MPI-1): MPI_DUP_FN copies");
    CHECK(!get_int(d1, k_mpi1_null, &v), "MPI-1 §5.7.1: MPI_NULL_COPY_FN copies nothing");

    /* MPI_Comm_dup_with_info */
    CHECK_EQ(MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &d2), MPI_SUCCESS,
             "MPI 4.1 §7.4.2 MPI_Comm_dup_with_info");
    CHECK_EQ(user.copies, 2, "MPI 4.1 §7.4.2: MPI_Comm_dup_with_info copies attributes like MPI_Comm_dup");
    CHECK(get_int(d2, user.keyval, &v) && v == 101,
          "MPI 4.1 §7.4.2: MPI_Comm_dup_with_info stores the copy");
    CHECK(get_int(d2, k_dup_fn, &v) && v == 300, "MPI 4.1 §7.7.2: MPI_COMM_DUP_FN on dup_with_info");

    /* MPI_Comm_idup from a dup: the copy of a copy */
    CHECK_EQ(MPI_Comm_idup(d1, &d3, &req), MPI_SUCCESS, "MPI 4.1 §7.4.2 MPI_Comm_idup");
    CHECK_EQ(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS, "MPI 4.1 §3.7.3 MPI_Wait");
    CHECK(req == MPI_REQUEST_NULL, "MPI 4.1 §3.7.3: MPI_Wait frees the request");
    CHECK_EQ(user.copies, 3, "MPI 4.1 §7.4.2: MPI_Comm_idup runs the copy callbacks");
    CHECK(user.last_old == d1, "MPI 4.1 §7.7.2: the copy callback gets the communicator duplicated");
    CHECK(get_int(d3, user.keyval, &v) && v == 102, "MPI 4.1 §7.4.2: idup's new communicator has the copy");
    CHECK(get_int(d3, k_dup_fn, &v) && v == 300, "MPI 4.1 §7.7.2: MPI_COMM_DUP_FN on idup");

    /* No copy on split or create */
    copies_before = user.copies + refuse.copies;
    CHECK_EQ(MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &split), MPI_SUCCESS, "MPI 4.1 §7.4.2 MPI_Comm_split");
    MPI_Comm_group(MPI_COMM_WORLD, &group);
    CHECK_EQ(MPI_Comm_create(MPI_COMM_WORLD, group, &created), MPI_SUCCESS,
             "MPI 4.1 §7.4.2 MPI_Comm_create");
    MPI_Group_free(&group);
    CHECK_EQ(user.copies + refuse.copies, copies_before,
             "MPI 4.1 §7.7.2: copy callbacks run only on dup, not on split or create");
    CHECK(!get_int(split, user.keyval, &v) && !get_int(split, k_dup_fn, &v),
          "MPI 4.1 §7.4.2: MPI_Comm_split does not propagate attributes");
    CHECK(!get_int(created, user.keyval, &v) && !get_int(created, k_dup_fn, &v),
          "MPI 4.1 §7.4.2: MPI_Comm_create does not propagate attributes");
    MPI_Comm_free(&split);
    MPI_Comm_free(&created);

    /* Free the dups: every copied attribute gets its delete callback */
    user.deletes = dupfn.deletes = nullfn.deletes = refuse.deletes = 0;
    MPI_Comm_free(&d1);
    MPI_Comm_free(&d2);
    MPI_Comm_free(&d3);
    CHECK_EQ(user.deletes, 3, "MPI 4.1 §7.7.2: each copy gets a delete callback when its communicator is freed");
    CHECK_EQ(dupfn.deletes, 3, "MPI 4.1 §7.7.2: MPI_COMM_DUP_FN copies are deleted on free");
    CHECK_EQ(refuse.deletes + nullfn.deletes, 0, "MPI 4.1 §7.7.2: nothing to delete where nothing was copied");

    /* A failing copy callback fails the dup. */
    {
        struct counters failing = {0}, before = {0};
        MPI_Comm bad = MPI_COMM_WORLD;
        int k_before;
        failing.fail = 1;
        MPI_Comm_create_keyval(copy_fn, delete_fn, &k_before, &before);
        MPI_Comm_create_keyval(copy_fn, delete_fn, &failing.keyval, &failing);
        MPI_Comm_set_attr(MPI_COMM_WORLD, k_before, (void *)700);
        MPI_Comm_set_attr(MPI_COMM_WORLD, failing.keyval, (void *)800);
        user.deletes = dupfn.deletes = dupfn.deletes_off_world = 0;
        user.copies = 0;
        rc = MPI_Comm_dup(MPI_COMM_WORLD, &bad);
        CHECK(rc != MPI_SUCCESS, "MPI 4.1 §7.7.2: a copy callback's error fails MPI_Comm_dup");
        cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK_EQ(cls, MPI_ERR_OTHER, "MPI 4.1 §7.7.2: the dup returns the copy callback's error");
        CHECK(bad == MPI_COMM_NULL, "MPI 4.1 §7.4.2: a failed dup returns MPI_COMM_NULL");
        CHECK_EQ(failing.copies, 1, "MPI 4.1 §7.7.2: the failing copy callback ran once");
        /* Whatever was copied before the failure is deleted, once per copy. */
        CHECK_EQ(user.deletes, user.copies, "docs/DESIGN.md: copies made before the failure are deleted once each (user callback)");
        CHECK_EQ(before.deletes, before.copies, "docs/DESIGN.md: copies made before the failure are deleted once each");
        CHECK(dupfn.deletes <= 1 && dupfn.deletes == dupfn.deletes_off_world,
              "docs/DESIGN.md: an MPI_COMM_DUP_FN copy made before the failure is deleted at most once, on the new communicator");
        CHECK_EQ(failing.deletes, 0, "MPI 4.1 §7.7.2: the attribute that failed to copy has no copy to delete");
        CHECK_EQ(before.deletes_off_world, before.deletes, "docs/DESIGN.md: the deletes are on the new communicator, not MPI_COMM_WORLD");
        CHECK(get_int(MPI_COMM_WORLD, k_before, &v) && v == 700,
              "MPI 4.1 §7.7.2: a failed dup leaves the old communicator's attributes");
        CHECK(get_int(MPI_COMM_WORLD, failing.keyval, &v) && v == 800,
              "MPI 4.1 §7.7.2: a failed dup leaves the old communicator's attributes");
        /* Undo: make the keyval's callback succeed and clean up. */
        failing.fail = 0;
        MPI_Comm_delete_attr(MPI_COMM_WORLD, failing.keyval);
        MPI_Comm_delete_attr(MPI_COMM_WORLD, k_before);
        MPI_Comm_free_keyval(&failing.keyval);
        MPI_Comm_free_keyval(&k_before);
    }

    MPI_Comm_free_keyval(&user.keyval);
    MPI_Comm_free_keyval(&refuse.keyval);
    MPI_Comm_free_keyval(&k_dup_fn);
    MPI_Comm_free_keyval(&k_null_fn);
    MPI_Keyval_free(&k_mpi1_dup);
    MPI_Keyval_free(&k_mpi1_null);
    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI 4.1 §11.2.2 MPI_Finalize");
    return check_summary("attr_dup");
}
