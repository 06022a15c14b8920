/* Freeing a keyval that attributes still use.
 * MPI 4.1 §7.7.2 MPI_Comm_free_keyval: "sets the value of keyval to MPI_KEYVAL_INVALID. Note
 * that it is not erroneous to free an attribute key that is in use, because the actual free
 * does not transpire until after all references (in other communicators on the process) to
 * the key have been freed." So: the freed number is invalid for new calls (MPI_ERR_KEYVAL),
 * while the attribute already set keeps its callbacks: it is copied on MPI_Comm_dup and its
 * delete callback runs when the communicator is freed. */
#include <mpi.h>
#include <stdint.h>
#include "check.h"

static int copies = 0, deletes = 0;
static void *deleted_values[4];

static int copy_fn(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                   void *attribute_val_out, int *flag)
{
    (void)oldcomm;
    (void)keyval;
    (void)extra_state;
    copies++;
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state)
{
    (void)comm;
    (void)keyval;
    (void)extra_state;
    if (deletes < 4)
        deleted_values[deletes] = attribute_val;
    deletes++;
    return MPI_SUCCESS;
}

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

int main(int argc, char **argv)
{
    MPI_Comm comm, dup;
    int keyval, saved, flag;
    void *val;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);

    MPI_Comm_create_keyval(copy_fn, delete_fn, &keyval, NULL);
    saved = keyval;
    CHECK_EQ(MPI_Comm_set_attr(comm, keyval, (void *)42), MPI_SUCCESS, "MPI 4.1 §7.7.2 MPI_Comm_set_attr");

    CHECK_EQ(MPI_Comm_free_keyval(&keyval), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: freeing a keyval in use is not erroneous");
    CHECK_EQ(keyval, MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.2: MPI_Comm_free_keyval writes MPI_KEYVAL_INVALID");
    CHECK_EQ(deletes, 0, "MPI 4.1 §7.7.2: freeing the keyval does not delete its attributes");

    /* The freed number is no longer usable. */
    CHECK_EQ(error_class(MPI_Comm_set_attr(comm, saved, (void *)1)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: a freed keyval is invalid for MPI_Comm_set_attr");
    val = (void *)0x77;
    flag = 0;
    CHECK_EQ(error_class(MPI_Comm_get_attr(comm, saved, &val, &flag)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: a freed keyval is invalid for MPI_Comm_get_attr");
    CHECK(val == (void *)0x77, "MPI 4.1 §7.7.2: a failed get leaves attribute_val alone");
    CHECK_EQ(error_class(MPI_Comm_delete_attr(comm, saved)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: a freed keyval is invalid for MPI_Comm_delete_attr");
    CHECK_EQ(error_class(MPI_Comm_free_keyval(&saved)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: a freed keyval cannot be freed again");
    CHECK_EQ(deletes, 0, "MPI 4.1 §7.7.2: none of the failed calls ran the delete callback");

    /* The attribute lives on: copied by dup ... */
    CHECK_EQ(MPI_Comm_dup(comm, &dup), MPI_SUCCESS, "MPI 4.1 §7.4.2 MPI_Comm_dup");
    CHECK_EQ(copies, 1, "MPI 4.1 §7.7.2: the attribute of a freed keyval is still copied on dup");

    /* ... and deleted when its communicators go. */
    CHECK_EQ(MPI_Comm_free(&comm), MPI_SUCCESS, "MPI 4.1 §7.4.3 MPI_Comm_free");
    CHECK_EQ(deletes, 1, "MPI 4.1 §7.7.2: the attribute of a freed keyval gets its delete callback at MPI_Comm_free");
    CHECK(deleted_values[0] == (void *)42, "MPI 4.1 §7.7.2: ... with its value");
    CHECK_EQ(MPI_Comm_free(&dup), MPI_SUCCESS, "MPI 4.1 §7.4.3 MPI_Comm_free");
    CHECK_EQ(deletes, 2, "MPI 4.1 §7.7.2: the copy gets its delete callback too");
    CHECK(deleted_values[1] == (void *)42, "MPI 4.1 §7.7.2: ... with the copied value");

    /* A new keyval never takes a number that could still be in use by mistake. */
    {
        int fresh;
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &fresh, NULL);
        CHECK(fresh != MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.2: a new keyval is valid");
        MPI_Comm_free_keyval(&fresh);
    }

    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI 4.1 §11.2.2 MPI_Finalize");
    CHECK_EQ(deletes, 2, "MPI 4.1 §7.7.2: each attribute instance is deleted exactly once");
    return check_summary("attr_keyval_free");
}
