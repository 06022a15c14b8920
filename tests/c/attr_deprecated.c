/* The deprecated MPI-1 caching calls behave as the new ones in C.
 * MPI 4.1 §20.3.7 / §7.7.2 and the deprecated-interfaces chapter (§A / §16.2 of MPI 4.1):
 * MPI_Keyval_create = MPI_Comm_create_keyval, MPI_Attr_put = MPI_Comm_set_attr,
 * MPI_Attr_get = MPI_Comm_get_attr, MPI_Attr_delete = MPI_Comm_delete_attr,
 * MPI_Keyval_free = MPI_Comm_free_keyval ("In C, the deprecated routines MPI_Attr_put and
 * MPI_Attr_get behave identical to MPI_Comm_set_attr and MPI_Comm_get_attr"). */
#include <mpi.h>
#include "check.h"

static int copies = 0, deletes = 0;
static void *last_deleted = NULL, *last_extra = NULL;
static int last_keyval = -1;

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
    deletes++;
    last_deleted = attribute_val;
    last_extra = extra_state;
    last_keyval = keyval;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int keyval, flag, x = 1, y = 2, state = 0, cls;
    void *val;
    MPI_Comm dup;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    CHECK_EQ(MPI_Keyval_create(copy_fn, delete_fn, &keyval, &state), MPI_SUCCESS,
             "MPI-1 §5.7.1 MPI_Keyval_create");
    CHECK(keyval != MPI_KEYVAL_INVALID, "MPI-1 §5.7.1: MPI_Keyval_create returns a valid key");

    CHECK_EQ(MPI_Attr_put(MPI_COMM_WORLD, keyval, &x), MPI_SUCCESS, "MPI-1 §5.7.1 MPI_Attr_put");
    val = NULL;
    flag = 0;
    CHECK_EQ(MPI_Attr_get(MPI_COMM_WORLD, keyval, &val, &flag), MPI_SUCCESS, "MPI-1 §5.7.1 MPI_Attr_get");
    CHECK(flag && val == &x, "MPI 4.1 §20.3.7: MPI_Attr_get returns the pointer MPI_Attr_put stored");

    /* Interchangeable with the new calls. */
    val = NULL;
    CHECK_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &val, &flag), MPI_SUCCESS, "MPI 4.1 §7.7.2");
    CHECK(flag && val == &x, "MPI 4.1 §20.3.7: MPI_Comm_get_attr reads what MPI_Attr_put stored");
    CHECK_EQ(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &y), MPI_SUCCESS, "MPI 4.1 §7.7.2");
    CHECK_EQ(deletes, 1, "MPI-1 §5.7.1: overwriting calls the delete function");
    CHECK(last_deleted == &x && last_extra == &state && last_keyval == keyval,
          "MPI-1 §5.7.1: the delete function gets the old value, the keyval and extra_state");
    CHECK_EQ(MPI_Attr_get(MPI_COMM_WORLD, keyval, &val, &flag), MPI_SUCCESS, "MPI-1 §5.7.1 MPI_Attr_get");
    CHECK(flag && val == &y, "MPI 4.1 §20.3.7: MPI_Attr_get reads what MPI_Comm_set_attr stored");

    /* Copy on dup. */
    CHECK_EQ(MPI_Comm_dup(MPI_COMM_WORLD, &dup), MPI_SUCCESS, "MPI 4.1 §7.4.2 MPI_Comm_dup");
    CHECK_EQ(copies, 1, "MPI-1 §5.7.1: MPI_Comm_dup calls the copy function");
    CHECK_EQ(MPI_Attr_get(dup, keyval, &val, &flag), MPI_SUCCESS, "MPI-1 §5.7.1 MPI_Attr_get");
    CHECK(flag && val == &y, "MPI-1 §5.7.1: the copy is on the new communicator");
    CHECK_EQ(MPI_Comm_free(&dup), MPI_SUCCESS, "MPI 4.1 §7.4.3 MPI_Comm_free");
    CHECK_EQ(deletes, 2, "MPI-1 §5.7.1: MPI_Comm_free calls the delete function");

    /* Delete. */
    CHECK_EQ(MPI_Attr_delete(MPI_COMM_WORLD, keyval), MPI_SUCCESS, "MPI-1 §5.7.1 MPI_Attr_delete");
    CHECK_EQ(deletes, 3, "MPI-1 §5.7.1: MPI_Attr_delete calls the delete function");
    CHECK(last_deleted == &y, "MPI-1 §5.7.1: ... with the current value");
    val = (void *)0x99;
    CHECK_EQ(MPI_Attr_get(MPI_COMM_WORLD, keyval, &val, &flag), MPI_SUCCESS, "MPI-1 §5.7.1 MPI_Attr_get");
    CHECK(!flag && val == (void *)0x99, "MPI-1 §5.7.1: after MPI_Attr_delete, flag = false");
    CHECK_EQ(MPI_Attr_delete(MPI_COMM_WORLD, keyval), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: deleting an unset attribute succeeds (MPI_Attr_delete too)");
    CHECK_EQ(deletes, 3, "MPI 4.1 §7.7.2: ... and calls nothing");

    /* Keyvals of either creation call are the same kind of communicator keyval. */
    {
        int k2;
        CHECK_EQ(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k2, NULL),
                 MPI_SUCCESS, "MPI 4.1 §7.7.2");
        CHECK_EQ(MPI_Attr_put(MPI_COMM_WORLD, k2, (void *)5), MPI_SUCCESS,
                 "MPI 4.1 §20.3.7: MPI_Attr_put works with an MPI_Comm_create_keyval key");
        CHECK_EQ(MPI_Attr_get(MPI_COMM_WORLD, k2, &val, &flag), MPI_SUCCESS, "MPI-1 §5.7.1");
        CHECK(flag && val == (void *)5, "MPI 4.1 §20.3.7: ... and MPI_Attr_get reads it");
        CHECK_EQ(MPI_Attr_delete(MPI_COMM_WORLD, k2), MPI_SUCCESS, "MPI-1 §5.7.1 MPI_Attr_delete");
        CHECK_EQ(MPI_Keyval_free(&k2), MPI_SUCCESS, "MPI-1 §5.7.1: MPI_Keyval_free frees a new-style key");
        CHECK_EQ(k2, MPI_KEYVAL_INVALID, "MPI-1 §5.7.1: MPI_Keyval_free writes MPI_KEYVAL_INVALID");
    }

    /* MPI_Attr_get on a predefined attribute gives a pointer to int, as MPI_Comm_get_attr. */
    {
        int *tag_ub = NULL;
        CHECK_EQ(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag), MPI_SUCCESS, "MPI-1 §5.7.1");
        CHECK(flag && tag_ub != NULL && *tag_ub >= 32767, "MPI 4.1 §9.1.2: MPI_TAG_UB through MPI_Attr_get");
    }

    CHECK_EQ(MPI_Keyval_free(&keyval), MPI_SUCCESS, "MPI-1 §5.7.1 MPI_Keyval_free");
    CHECK_EQ(keyval, MPI_KEYVAL_INVALID, "MPI-1 §5.7.1: MPI_Keyval_free writes MPI_KEYVAL_INVALID");
    {
        int rc = MPI_Keyval_free(&keyval);
        cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK_EQ(cls, MPI_ERR_KEYVAL, "MPI 4.1 §7.7.2: MPI_Keyval_free(MPI_KEYVAL_INVALID) is MPI_ERR_KEYVAL");
    }
    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI 4.1 §11.2.2 MPI_Finalize");
    CHECK_EQ(deletes, 3, "MPI 4.1 §7.7.2: every attribute was deleted exactly once");
    return check_summary("attr_deprecated");
}
