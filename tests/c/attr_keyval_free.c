/* Freeing a communicator keyval that attributes still use.
 * MPI 4.1 §7.7.2 MPI_Comm_free_keyval: "sets the value of keyval to MPI_KEYVAL_INVALID. Note
 * that it is not erroneous to free an attribute key that is in use, because the actual free
 * does not transpire until after all references (in other communicators on the process) to
 * the key have been freed. These references need to be explicitly freed by the program, either
 * via calls to MPI_COMM_DELETE_ATTR that free one attribute instance, or by calls to
 * MPI_COMM_FREE that free all attribute instances associated with the freed communicator."
 *
 * So until its last attribute goes, a saved copy of the freed number still names the
 * attributes it has: MPI_Comm_get_attr finds them (flag = false on a communicator without one),
 * MPI_Comm_delete_attr releases one, an overwrite replaces one (delete callback first), dup
 * still copies them and free still deletes them. A set that would create a new attribute under
 * it, and a second free, are MPI_ERR_KEYVAL (mpicache's choice: the user gave the key up; MPICH
 * and Open MPI accept both) and change nothing. Once the last attribute is gone the number is
 * invalid (MPI_ERR_KEYVAL). The same for the MPI-1 calls (MPI-1 §5.7.1 MPI_KEYVAL_FREE says
 * the same of them: "either via calls to MPI_ATTR_DELETE that free one attribute instance, or
 * by calls to MPI_COMM_FREE"). */
#include <mpi.h>
#include <stdint.h>
#include "check.h"

static int copies = 0, deletes = 0;
static void *deleted_values[8];

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
    if (deletes < 8)
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

/* The attribute under `keyval` on `comm`: 1 and its value in *val, or 0 (flag false); -1 on an
 * error. */
static int get(MPI_Comm comm, int keyval, void **val)
{
    int flag = -7;
    if (MPI_Comm_get_attr(comm, keyval, val, &flag) != MPI_SUCCESS)
        return -1;
    return flag;
}

/* MPI-1 §5.7.1 (MPI 4.1 §7.7.2 for the MPI_COMM_ forms): MPI_Keyval_free of a keyval in use, then
 * MPI_Attr_get / MPI_Attr_put / MPI_Attr_delete with the saved number. */
static void mpi1_calls(void)
{
    int keyval, saved, flag, before = deletes;
    void *val = NULL;

    CHECK_EQ(MPI_Keyval_create(MPI_NULL_COPY_FN, delete_fn, &keyval, NULL), MPI_SUCCESS,
             "MPI-1 §5.7.1 MPI_Keyval_create");
    saved = keyval;
    CHECK_EQ(MPI_Attr_put(MPI_COMM_WORLD, keyval, (void *)5), MPI_SUCCESS, "MPI-1 §5.7.1 MPI_Attr_put");
    CHECK_EQ(MPI_Keyval_free(&keyval), MPI_SUCCESS, "MPI-1 §5.7.1: MPI_Keyval_free of a keyval in use");
    CHECK_EQ(keyval, MPI_KEYVAL_INVALID, "MPI-1 §5.7.1: MPI_Keyval_free writes MPI_KEYVAL_INVALID");

    flag = -7;
    CHECK_EQ(MPI_Attr_get(MPI_COMM_WORLD, saved, &val, &flag), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: MPI_Attr_get with a freed keyval that still has an attribute");
    CHECK(flag && val == (void *)5, "MPI 4.1 §7.7.2: ... finds it");
    flag = -7;
    val = (void *)0x77;
    CHECK_EQ(MPI_Attr_get(MPI_COMM_SELF, saved, &val, &flag), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: MPI_Attr_get with the freed keyval on a communicator without one");
    CHECK(flag == 0 && val == (void *)0x77, "MPI 4.1 §7.7.2: ... flag = false, nothing written");
    CHECK_EQ(error_class(MPI_Attr_put(MPI_COMM_SELF, saved, (void *)6)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: MPI_Attr_put cannot create an attribute under a freed keyval");
    CHECK_EQ(MPI_Attr_put(MPI_COMM_WORLD, saved, (void *)7), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: MPI_Attr_put overwrites the attribute a freed keyval still has");
    CHECK_EQ(deletes - before, 1, "MPI 4.1 §7.7.2: the overwrite ran the delete callback");
    CHECK_EQ(MPI_Attr_get(MPI_COMM_WORLD, saved, &val, &flag), MPI_SUCCESS, "MPI-1 §5.7.1 MPI_Attr_get");
    CHECK(flag && val == (void *)7, "MPI 4.1 §7.7.2: ... with the new value");
    keyval = saved;
    CHECK_EQ(error_class(MPI_Keyval_free(&keyval)), MPI_ERR_KEYVAL,
             "MPI-1 §5.7.1: MPI_Keyval_free of a freed keyval");
    CHECK_EQ(keyval, saved, "MPI-1 §5.7.1: a failed free leaves the variable alone");

    CHECK_EQ(MPI_Attr_delete(MPI_COMM_WORLD, saved), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: MPI_Attr_delete releases the freed keyval's last attribute");
    CHECK_EQ(deletes - before, 2, "MPI 4.1 §7.7.2: ... running its delete callback");
    CHECK_EQ(error_class(MPI_Attr_get(MPI_COMM_WORLD, saved, &val, &flag)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: with its last attribute gone the number is invalid (MPI_Attr_get)");
    CHECK_EQ(error_class(MPI_Attr_delete(MPI_COMM_WORLD, saved)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: ... (MPI_Attr_delete)");
    CHECK_EQ(error_class(MPI_Attr_put(MPI_COMM_WORLD, saved, (void *)8)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: ... (MPI_Attr_put)");
}

/* A library that frees its keyval at once and deletes its attribute later (at its own
 * finalize) may do so any number of times: each keyval ends with its attribute. More rounds
 * than a keyval number can name slots. */
static void free_then_delete_rounds(void)
{
    int i, keyval, saved, failures = 0;
    for (i = 0; i < 70000 && failures == 0; i++) {
        void *val = NULL;
        if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL) !=
            MPI_SUCCESS) {
            failures++;
            break;
        }
        saved = keyval;
        failures += MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, (void *)(intptr_t)(i + 1)) != MPI_SUCCESS;
        failures += MPI_Comm_free_keyval(&keyval) != MPI_SUCCESS;
        failures += get(MPI_COMM_WORLD, saved, &val) != 1 || val != (void *)(intptr_t)(i + 1);
        failures += MPI_Comm_delete_attr(MPI_COMM_WORLD, saved) != MPI_SUCCESS;
    }
    CHECK_EQ(i, 70000, "MPI 4.1 §7.7.2: create, set, free the keyval, delete with the saved number: "
                       "70,000 rounds never run out of keyvals");
    CHECK_EQ(failures, 0, "MPI 4.1 §7.7.2: every round's calls succeed");
}

int main(int argc, char **argv)
{
    MPI_Comm comm, dup, other;
    int keyval, saved, flag;
    void *val;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &other);
    MPI_Comm_set_errhandler(other, MPI_ERRORS_RETURN);

    MPI_Comm_create_keyval(copy_fn, delete_fn, &keyval, NULL);
    saved = keyval;
    CHECK_EQ(MPI_Comm_set_attr(comm, keyval, (void *)42), MPI_SUCCESS, "MPI 4.1 §7.7.2 MPI_Comm_set_attr");

    CHECK_EQ(MPI_Comm_free_keyval(&keyval), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: freeing a keyval in use is not erroneous");
    CHECK_EQ(keyval, MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.2: MPI_Comm_free_keyval writes MPI_KEYVAL_INVALID");
    CHECK_EQ(deletes, 0, "MPI 4.1 §7.7.2: freeing the keyval does not delete its attributes");

    /* The saved number still names the attribute. */
    val = NULL;
    CHECK_EQ(get(comm, saved, &val), 1, "MPI 4.1 §7.7.2: MPI_Comm_get_attr with the freed keyval finds its attribute");
    CHECK(val == (void *)42, "MPI 4.1 §7.7.2: ... with its value");
    val = (void *)0x77;
    CHECK_EQ(get(other, saved, &val), 0,
             "MPI 4.1 §7.7.2: the freed keyval on a communicator without its attribute: flag = false");
    CHECK(val == (void *)0x77, "MPI 4.1 §7.7.2: flag = false leaves attribute_val alone");

    /* What is refused, changing nothing. */
    CHECK_EQ(error_class(MPI_Comm_set_attr(other, saved, (void *)1)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: a set cannot create a new attribute under a freed keyval");
    CHECK_EQ(get(other, saved, &val), 0, "MPI 4.1 §7.7.2: ... and created none");
    CHECK_EQ(error_class(MPI_Comm_free_keyval(&saved)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: a freed keyval cannot be freed again");
    CHECK(saved != MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.2: a failed free leaves the variable alone");
    CHECK_EQ(error_class(MPI_Comm_get_attr(comm, MPI_KEYVAL_INVALID, &val, &flag)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: MPI_KEYVAL_INVALID (what the free wrote) is not a keyval");
    CHECK_EQ(deletes, 0, "MPI 4.1 §7.7.2: none of the failed calls ran the delete callback");
    CHECK_EQ(get(comm, saved, &val), 1, "MPI 4.1 §7.7.2: the failed calls left the attribute");

    /* An overwrite replaces the attribute it has (delete callback on the old value first). */
    CHECK_EQ(MPI_Comm_set_attr(comm, saved, (void *)43), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: overwriting the attribute of a freed keyval");
    CHECK_EQ(deletes, 1, "MPI 4.1 §7.7.2: the overwrite ran the delete callback");
    CHECK(deleted_values[0] == (void *)42, "MPI 4.1 §7.7.2: ... on the old value");
    CHECK_EQ(get(comm, saved, &val), 1, "MPI 4.1 §7.7.2 MPI_Comm_get_attr");
    CHECK(val == (void *)43, "MPI 4.1 §7.7.2: ... the new value");

    /* Dup still runs the copy callback; its copy is one more attribute under the number. */
    CHECK_EQ(MPI_Comm_dup(comm, &dup), MPI_SUCCESS, "MPI 4.1 §7.4.2 MPI_Comm_dup");
    CHECK_EQ(copies, 1, "MPI 4.1 §7.7.2: the attribute of a freed keyval is still copied on dup");
    CHECK_EQ(get(dup, saved, &val), 1, "MPI 4.1 §7.7.2: the copy is found with the freed keyval");
    CHECK(val == (void *)43, "MPI 4.1 §7.7.2: ... with the copied value");

    /* Deleting releases one instance; deleting where none is set calls nothing. */
    CHECK_EQ(MPI_Comm_delete_attr(comm, saved), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: MPI_Comm_delete_attr with the freed keyval");
    CHECK_EQ(deletes, 2, "MPI 4.1 §7.7.2: ... runs the delete callback");
    CHECK(deleted_values[1] == (void *)43, "MPI 4.1 §7.7.2: ... with its value");
    CHECK_EQ(get(comm, saved, &val), 0, "MPI 4.1 §7.7.2: the deleted attribute is gone");
    CHECK_EQ(MPI_Comm_delete_attr(other, saved), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: deleting an attribute that is not set is not an error");
    CHECK_EQ(deletes, 2, "MPI 4.1 §7.7.2: ... and calls nothing");

    /* The last instance goes with its communicator, and the keyval with it. */
    CHECK_EQ(MPI_Comm_free(&dup), MPI_SUCCESS, "MPI 4.1 §7.4.3 MPI_Comm_free");
    CHECK_EQ(deletes, 3, "MPI 4.1 §7.7.2: the copy gets its delete callback at MPI_Comm_free");
    CHECK(deleted_values[2] == (void *)43, "MPI 4.1 §7.7.2: ... with the copied value");
    CHECK_EQ(error_class(MPI_Comm_get_attr(comm, saved, &val, &flag)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: with its last attribute gone the number is invalid (get)");
    CHECK_EQ(error_class(MPI_Comm_delete_attr(comm, saved)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: ... (delete)");
    CHECK_EQ(error_class(MPI_Comm_set_attr(comm, saved, (void *)1)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: ... (set)");
    CHECK_EQ(error_class(MPI_Comm_free_keyval(&saved)), MPI_ERR_KEYVAL, "MPI 4.1 §7.7.2: ... (free)");

    /* A new keyval never takes a number that could still be in use by mistake. */
    {
        int fresh;
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &fresh, NULL);
        CHECK(fresh != MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.2: a new keyval is valid");
        CHECK(fresh != saved, "MPI 4.1 §7.7.2: a new keyval is not the dead number");
        MPI_Comm_free_keyval(&fresh);
    }

    mpi1_calls();
    free_then_delete_rounds();

    /* An attribute of a freed keyval left on MPI_COMM_WORLD is deleted at MPI_Finalize. */
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &keyval, NULL);
    CHECK_EQ(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, (void *)99), MPI_SUCCESS, "MPI 4.1 §7.7.2 MPI_Comm_set_attr");
    CHECK_EQ(MPI_Comm_free_keyval(&keyval), MPI_SUCCESS, "MPI 4.1 §7.7.2 MPI_Comm_free_keyval");
    MPI_Comm_free(&comm);
    MPI_Comm_free(&other);
    flag = deletes;
    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI 4.1 §11.2.2 MPI_Finalize");
    CHECK_EQ(deletes, flag + 1, "MPI 4.1 §11.2.2: MPI_Finalize deletes the freed keyval's attribute on MPI_COMM_WORLD");
    CHECK(flag < 8 && deleted_values[flag] == (void *)99, "MPI 4.1 §11.2.2: ... with its value");
    return check_summary("attr_keyval_free");
}
