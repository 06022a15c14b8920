/* Callbacks that call back into MPI.
 * MPI 4.1 §7.7.2: callbacks may call MPI (the standard only says what happens, not that it is
 * forbidden); here a delete callback deletes another attribute of the communicator being
 * freed, and a copy callback sets an attribute on another communicator. Each attribute's delete
 * callback still runs exactly once (docs/DESIGN.md: delete callbacks run once per attribute instance;
 * callbacks run with no lock held). */
#include <mpi.h>
#include "check.h"

static int k_outer, k_inner, k_copy, k_note;
static int outer_deletes = 0, inner_deletes = 0, note_deletes = 0, copy_calls = 0;
static int inner_delete_rc = -1;
static MPI_Comm note_comm;

static int outer_delete(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state)
{
    (void)keyval;
    (void)attribute_val;
    (void)extra_state;
    outer_deletes++;
    /* Delete another attribute of the same communicator from inside its free. */
    inner_delete_rc = MPI_Comm_delete_attr(comm, k_inner);
    return MPI_SUCCESS;
}

static int counting_delete(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state)
{
    (void)comm;
    (void)attribute_val;
    (void)extra_state;
    if (keyval == k_inner)
        inner_deletes++;
    else if (keyval == k_note)
        note_deletes++;
    return MPI_SUCCESS;
}

static int copy_sets_elsewhere(MPI_Comm oldcomm, int keyval, void *extra_state,
                               void *attribute_val_in, void *attribute_val_out, int *flag)
{
    (void)oldcomm;
    (void)keyval;
    (void)extra_state;
    copy_calls++;
    /* Set an attribute on another communicator from inside a dup. */
    MPI_Comm_set_attr(note_comm, k_note, (void *)(MPI_Aint)copy_calls);
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Comm comm, dup;
    void *val;
    int flag;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, outer_delete, &k_outer, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, counting_delete, &k_inner, NULL);
    MPI_Comm_create_keyval(copy_sets_elsewhere, MPI_COMM_NULL_DELETE_FN, &k_copy, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, counting_delete, &k_note, NULL);

    /* 1. A delete callback that deletes another attribute of the communicator being freed.
     *    Set inner first and outer last, so outer is deleted first whatever order is used for
     *    the others (and test the other order below). */
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_attr(comm, k_inner, (void *)1);
    MPI_Comm_set_attr(comm, k_outer, (void *)2);
    CHECK_EQ(MPI_Comm_free(&comm), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: MPI_Comm_free succeeds when a delete callback deletes another attribute");
    CHECK_EQ(outer_deletes, 1, "docs/DESIGN.md: the outer delete callback runs exactly once");
    CHECK_EQ(inner_deletes, 1, "docs/DESIGN.md: the attribute deleted from inside a callback is deleted exactly once");
    CHECK_EQ(inner_delete_rc, MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Comm_delete_attr from a delete callback succeeds");

    outer_deletes = inner_deletes = 0;
    inner_delete_rc = -1;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_attr(comm, k_outer, (void *)2);
    MPI_Comm_set_attr(comm, k_inner, (void *)1);
    CHECK_EQ(MPI_Comm_free(&comm), MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Comm_free (other setting order)");
    CHECK_EQ(outer_deletes, 1, "docs/DESIGN.md: the outer delete callback runs exactly once (other order)");
    CHECK_EQ(inner_deletes, 1, "docs/DESIGN.md: the inner attribute is deleted exactly once (other order)");
    CHECK_EQ(inner_delete_rc, MPI_SUCCESS, "MPI 4.1 §7.7.2: deleting an attribute already gone succeeds");

    /* Same with MPI_Comm_delete_attr of the outer attribute instead of a free. */
    outer_deletes = inner_deletes = 0;
    MPI_Comm_set_attr(MPI_COMM_WORLD, k_inner, (void *)1);
    MPI_Comm_set_attr(MPI_COMM_WORLD, k_outer, (void *)2);
    CHECK_EQ(MPI_Comm_delete_attr(MPI_COMM_WORLD, k_outer), MPI_SUCCESS, "MPI 4.1 §7.7.2 MPI_Comm_delete_attr");
    CHECK_EQ(outer_deletes, 1, "docs/DESIGN.md: delete callback once");
    CHECK_EQ(inner_deletes, 1, "docs/DESIGN.md: nested delete once");
    val = (void *)0x1;
    CHECK_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, k_inner, &val, &flag), MPI_SUCCESS, "MPI 4.1 §7.7.2");
    CHECK(!flag, "MPI 4.1 §7.7.2: the nested delete removed the attribute");

    /* 2. A copy callback that sets an attribute on another communicator. */
    MPI_Comm_dup(MPI_COMM_WORLD, &note_comm);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_attr(comm, k_copy, (void *)9);
    CHECK_EQ(MPI_Comm_dup(comm, &dup), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: MPI_Comm_dup succeeds when a copy callback sets an attribute elsewhere");
    CHECK_EQ(copy_calls, 1, "MPI 4.1 §7.7.2: the copy callback runs once");
    val = NULL;
    CHECK_EQ(MPI_Comm_get_attr(note_comm, k_note, &val, &flag), MPI_SUCCESS, "MPI 4.1 §7.7.2");
    CHECK(flag && val == (void *)1, "MPI 4.1 §7.7.2: the attribute set by the copy callback is there");
    CHECK_EQ(MPI_Comm_get_attr(dup, k_copy, &val, &flag), MPI_SUCCESS, "MPI 4.1 §7.7.2");
    CHECK(flag && val == (void *)9, "MPI 4.1 §7.7.2: the copy is on the new communicator");
    CHECK_EQ(MPI_Comm_get_attr(dup, k_note, &val, &flag), MPI_SUCCESS, "MPI 4.1 §7.7.2");
    CHECK(!flag, "MPI 4.1 §7.7.2: the attribute set elsewhere is not on the new communicator");
    /* A second dup overwrites the note: the old note's delete callback runs once. */
    {
        MPI_Comm dup2;
        MPI_Comm_dup(comm, &dup2);
        CHECK_EQ(note_deletes, 1, "MPI 4.1 §7.7.2: the overwrite inside the copy callback deletes the old value once");
        MPI_Comm_free(&dup2);
    }
    MPI_Comm_free(&dup);
    MPI_Comm_free(&comm);
    MPI_Comm_free(&note_comm);
    CHECK_EQ(note_deletes, 2, "MPI 4.1 §7.7.2: freeing the other communicator deletes the note once");

    MPI_Comm_free_keyval(&k_outer);
    MPI_Comm_free_keyval(&k_inner);
    MPI_Comm_free_keyval(&k_copy);
    MPI_Comm_free_keyval(&k_note);
    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI 4.1 §11.2.2 MPI_Finalize");
    CHECK_EQ(outer_deletes, 1, "docs/DESIGN.md: no delete callback runs twice");
    CHECK_EQ(inner_deletes, 1, "docs/DESIGN.md: no delete callback runs twice");
    return check_summary("attr_reentrant");
}
