/* Keyvals and attributes on communicators, and when delete callbacks run.
 * MPI 4.1 §7.7.2 (Communicators): MPI_Comm_create_keyval, MPI_Comm_set_attr,
 * MPI_Comm_get_attr, MPI_Comm_delete_attr, MPI_Comm_free_keyval, and the delete callback rules:
 * it runs on MPI_Comm_delete_attr, when a set overwrites a value (with the OLD value), and when
 * the communicator is freed; it receives the communicator, the keyval, the value and the
 * extra_state given at MPI_Comm_create_keyval. */
#include <mpi.h>
#include <string.h>
#include "check.h"

#define MAX_CALLS 16

struct call {
    MPI_Comm comm;
    int keyval;
    void *value;
    void *extra_state;
};

static struct call deletes[MAX_CALLS];
static int ndeletes = 0;

static int delete_fn(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state)
{
    if (ndeletes < MAX_CALLS) {
        deletes[ndeletes].comm = comm;
        deletes[ndeletes].keyval = keyval;
        deletes[ndeletes].value = attribute_val;
        deletes[ndeletes].extra_state = extra_state;
    }
    ndeletes++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int keyval = MPI_KEYVAL_INVALID, flag, rc;
    int extra = 99;
    int a = 1, b = 2, c = 3;
    void *val;
    MPI_Comm dup;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    CHECK_EQ(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &keyval, &extra),
             MPI_SUCCESS, "MPI 4.1 §7.7.2 MPI_Comm_create_keyval");
    CHECK(keyval != MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.2: a created keyval is valid");

    /* get before any set: flag false, value untouched */
    val = (void *)0x1234;
    flag = 1;
    CHECK_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &val, &flag), MPI_SUCCESS,
             "MPI 4.1 §7.7.2 MPI_Comm_get_attr on an unset attribute");
    CHECK(flag == 0, "MPI 4.1 §7.7.2: flag = false when no attribute is associated with the key");
    CHECK(val == (void *)0x1234,
          "MPI 4.1 §7.7.2: attribute_val is not changed when flag = false");

    /* deleting an unset attribute: succeeds, calls nothing */
    CHECK_EQ(MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: deleting an attribute that is not set succeeds");
    CHECK_EQ(ndeletes, 0, "MPI 4.1 §7.7.2: no delete callback without an attribute");

    /* set and get */
    CHECK_EQ(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &a), MPI_SUCCESS,
             "MPI 4.1 §7.7.2 MPI_Comm_set_attr");
    CHECK_EQ(ndeletes, 0, "MPI 4.1 §7.7.2: a first set runs no delete callback");
    val = NULL;
    flag = 0;
    CHECK_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &val, &flag), MPI_SUCCESS,
             "MPI 4.1 §7.7.2 MPI_Comm_get_attr");
    CHECK(flag && val == &a, "MPI 4.1 §7.7.2: get returns the value set");

    /* overwrite: the delete callback runs on the OLD value */
    CHECK_EQ(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &b), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: overwriting an attribute");
    CHECK_EQ(ndeletes, 1, "MPI 4.1 §7.7.2: overwriting calls the delete callback once");
    CHECK(deletes[0].value == &a, "MPI 4.1 §7.7.2: the delete callback gets the old value");
    CHECK(deletes[0].comm == MPI_COMM_WORLD,
          "MPI 4.1 §7.7.2: the delete callback gets the communicator");
    CHECK(deletes[0].keyval == keyval, "MPI 4.1 §7.7.2: the delete callback gets the keyval");
    CHECK(deletes[0].extra_state == &extra,
          "MPI 4.1 §7.7.2: the delete callback gets the keyval's extra_state");
    CHECK_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &val, &flag), MPI_SUCCESS,
             "MPI 4.1 §7.7.2 MPI_Comm_get_attr");
    CHECK(flag && val == &b, "MPI 4.1 §7.7.2: the new value replaces the old");

    /* delete: the callback runs with the current value, then the attribute is gone */
    CHECK_EQ(MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval), MPI_SUCCESS,
             "MPI 4.1 §7.7.2 MPI_Comm_delete_attr");
    CHECK_EQ(ndeletes, 2, "MPI 4.1 §7.7.2: MPI_Comm_delete_attr calls the delete callback");
    CHECK(deletes[1].value == &b && deletes[1].comm == MPI_COMM_WORLD &&
              deletes[1].keyval == keyval && deletes[1].extra_state == &extra,
          "MPI 4.1 §7.7.2: delete callback arguments on MPI_Comm_delete_attr");
    val = (void *)0x5678;
    CHECK_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &val, &flag), MPI_SUCCESS,
             "MPI 4.1 §7.7.2 MPI_Comm_get_attr");
    CHECK(flag == 0 && val == (void *)0x5678, "MPI 4.1 §7.7.2: a deleted attribute is gone");
    CHECK_EQ(MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: deleting again succeeds");
    CHECK_EQ(ndeletes, 2, "MPI 4.1 §7.7.2: deleting again calls nothing");

    /* MPI_Comm_free runs the delete callback with the freed communicator's handle */
    rc = MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    CHECK_EQ(rc, MPI_SUCCESS, "MPI 4.1 §7.4.2 MPI_Comm_dup");
    CHECK_EQ(MPI_Comm_set_attr(dup, keyval, &c), MPI_SUCCESS, "MPI 4.1 §7.7.2 MPI_Comm_set_attr");
    {
        MPI_Comm freed = dup;
        CHECK_EQ(MPI_Comm_free(&dup), MPI_SUCCESS, "MPI 4.1 §7.4.3 MPI_Comm_free");
        CHECK(dup == MPI_COMM_NULL, "MPI 4.1 §7.4.3: MPI_Comm_free sets the handle to MPI_COMM_NULL");
        CHECK_EQ(ndeletes, 3, "MPI 4.1 §7.7.2: MPI_Comm_free calls the delete callback");
        CHECK(deletes[2].comm == freed && deletes[2].value == &c && deletes[2].keyval == keyval &&
                  deletes[2].extra_state == &extra,
              "MPI 4.1 §7.7.2: delete callback arguments on MPI_Comm_free");
    }

    /* an attribute set on a communicator that has one already does not affect other comms */
    CHECK_EQ(MPI_Comm_set_attr(MPI_COMM_SELF, keyval, &a), MPI_SUCCESS,
             "MPI 4.1 §7.7.2 MPI_Comm_set_attr on MPI_COMM_SELF");
    CHECK_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &val, &flag), MPI_SUCCESS,
             "MPI 4.1 §7.7.2 MPI_Comm_get_attr");
    CHECK(flag == 0, "MPI 4.1 §7.7: attributes are local to their communicator");
    CHECK_EQ(MPI_Comm_delete_attr(MPI_COMM_SELF, keyval), MPI_SUCCESS,
             "MPI 4.1 §7.7.2 MPI_Comm_delete_attr");
    CHECK_EQ(ndeletes, 4, "MPI 4.1 §7.7.2: MPI_Comm_delete_attr calls the delete callback");

    CHECK_EQ(MPI_Comm_free_keyval(&keyval), MPI_SUCCESS, "MPI 4.1 §7.7.2 MPI_Comm_free_keyval");
    CHECK(keyval == MPI_KEYVAL_INVALID,
          "MPI 4.1 §7.7.2: MPI_Comm_free_keyval sets the keyval to MPI_KEYVAL_INVALID");

    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI 4.1 §11.2.2 MPI_Finalize");
    CHECK_EQ(ndeletes, 4, "MPI 4.1 §7.7.2: no attribute left, so no delete callback at finalize");
    return check_summary("attr_comm");
}
