/* Erroneous caching calls under MPI_ERRORS_RETURN return their error class and change nothing.
 * MPI 4.1 §9.3 (error handlers: MPI_ERRORS_RETURN returns the code to the caller; calls tied to
 * no communicator raise on MPI_COMM_SELF), §9.4 error classes: MPI_ERR_KEYVAL for an invalid
 * keyval (unknown, MPI_KEYVAL_INVALID, freed, or of another object kind -- §7.7.2 keyvals are
 * created per kind), MPI_ERR_COMM for an invalid communicator, MPI_ERR_ARG for an invalid
 * argument (a NULL output pointer). docs/DESIGN.md: a failed call leaves the state as it was. */
#include <mpi.h>
#include "check.h"

static int deletes = 0;

static int delete_fn(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state)
{
    (void)comm;
    (void)keyval;
    (void)attribute_val;
    (void)extra_state;
    deletes++;
    return MPI_SUCCESS;
}

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

static int value = 7;
static int keyval;

/* The attribute set at the start is still there, with the same value, and nothing was deleted. */
static void unchanged(const char *after)
{
    void *val = NULL;
    int flag = 0;
    int rc = MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &val, &flag);
    CHECK_EQ(rc, MPI_SUCCESS, after);
    CHECK(flag && val == &value, after);
    CHECK_EQ(deletes, 0, after);
}

int main(int argc, char **argv)
{
    int type_keyval, freed_keyval, flag, rc, copy;
    void *val;
    MPI_Comm dup, freed_comm;
    const int unknown = 987654;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &keyval, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &value);
    unchanged("setup: the attribute is set");

    /* Unknown keyval */
    CHECK_EQ(error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, unknown, &value)), MPI_ERR_KEYVAL,
             "MPI 4.1 §9.4: an unknown keyval in MPI_Comm_set_attr is MPI_ERR_KEYVAL");
    val = &flag;
    flag = 5;
    CHECK_EQ(error_class(MPI_Comm_get_attr(MPI_COMM_WORLD, unknown, &val, &flag)), MPI_ERR_KEYVAL,
             "MPI 4.1 §9.4: an unknown keyval in MPI_Comm_get_attr is MPI_ERR_KEYVAL");
    CHECK(val == &flag, "docs/DESIGN.md: a failed get writes nothing to attribute_val");
    CHECK_EQ(error_class(MPI_Comm_delete_attr(MPI_COMM_WORLD, unknown)), MPI_ERR_KEYVAL,
             "MPI 4.1 §9.4: an unknown keyval in MPI_Comm_delete_attr is MPI_ERR_KEYVAL");
    copy = unknown;
    CHECK_EQ(error_class(MPI_Comm_free_keyval(&copy)), MPI_ERR_KEYVAL,
             "MPI 4.1 §9.4: freeing an unknown keyval is MPI_ERR_KEYVAL");
    unchanged("MPI 4.1 §9.3: unknown-keyval errors change nothing");

    /* MPI_KEYVAL_INVALID */
    CHECK_EQ(error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &value)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: MPI_KEYVAL_INVALID is never a valid key (set)");
    CHECK_EQ(error_class(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &val, &flag)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: MPI_KEYVAL_INVALID is never a valid key (get)");
    CHECK_EQ(error_class(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: MPI_KEYVAL_INVALID is never a valid key (delete)");
    copy = MPI_KEYVAL_INVALID;
    CHECK_EQ(error_class(MPI_Comm_free_keyval(&copy)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: MPI_KEYVAL_INVALID cannot be freed");
    unchanged("MPI 4.1 §9.3: MPI_KEYVAL_INVALID errors change nothing");

    /* Numbers that name no keyval, on a communicator that has attributes: 0 (which the lock-free
     * reader meets in the place of keyval slot 0) and a live keyval's number with its generation
     * changed (the same place, another keyval). */
    val = &flag;
    CHECK_EQ(error_class(MPI_Comm_get_attr(MPI_COMM_WORLD, 0, &val, &flag)), MPI_ERR_KEYVAL,
             "MPI 4.1 §9.4: a number that is no keyval in MPI_Comm_get_attr is MPI_ERR_KEYVAL (0)");
    CHECK_EQ(error_class(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval ^ (1 << 18), &val, &flag)), MPI_ERR_KEYVAL,
             "docs/DESIGN.md: a keyval number of another generation is MPI_ERR_KEYVAL, not another keyval's attribute");
    CHECK(val == &flag, "docs/DESIGN.md: a failed get writes nothing to attribute_val");
    unchanged("MPI 4.1 §9.3: invalid-number errors change nothing");

    /* A datatype keyval on a communicator */
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &type_keyval, NULL);
    CHECK_EQ(error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, type_keyval, &value)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: a datatype keyval used on a communicator is MPI_ERR_KEYVAL (set)");
    CHECK_EQ(error_class(MPI_Comm_get_attr(MPI_COMM_WORLD, type_keyval, &val, &flag)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: a datatype keyval used on a communicator is MPI_ERR_KEYVAL (get)");
    CHECK_EQ(error_class(MPI_Comm_delete_attr(MPI_COMM_WORLD, type_keyval)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: a datatype keyval used on a communicator is MPI_ERR_KEYVAL (delete)");
    copy = keyval;
    CHECK_EQ(error_class(MPI_Type_free_keyval(&copy)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: MPI_Type_free_keyval of a communicator keyval is MPI_ERR_KEYVAL");
    CHECK_EQ(copy, keyval, "docs/DESIGN.md: a failed free leaves the keyval argument alone");
    CHECK_EQ(error_class(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WIN_BASE, &val, &flag)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: a predefined window keyval on a communicator is MPI_ERR_KEYVAL");
    MPI_Type_free_keyval(&type_keyval);
    unchanged("MPI 4.1 §9.3: wrong-kind errors change nothing");

    /* Null and freed communicators */
    CHECK_EQ(error_class(MPI_Comm_set_attr(MPI_COMM_NULL, keyval, &value)), MPI_ERR_COMM,
             "MPI 4.1 §9.4: MPI_COMM_NULL in MPI_Comm_set_attr is MPI_ERR_COMM");
    CHECK_EQ(error_class(MPI_Comm_get_attr(MPI_COMM_NULL, keyval, &val, &flag)), MPI_ERR_COMM,
             "MPI 4.1 §9.4: MPI_COMM_NULL in MPI_Comm_get_attr is MPI_ERR_COMM");
    CHECK_EQ(error_class(MPI_Comm_delete_attr(MPI_COMM_NULL, keyval)), MPI_ERR_COMM,
             "MPI 4.1 §9.4: MPI_COMM_NULL in MPI_Comm_delete_attr is MPI_ERR_COMM");
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    freed_comm = dup;
    MPI_Comm_free(&dup);
    CHECK_EQ(error_class(MPI_Comm_set_attr(freed_comm, keyval, &value)), MPI_ERR_COMM,
             "MPI 4.1 §9.4 / docs/DESIGN.md: a freed communicator in MPI_Comm_set_attr is MPI_ERR_COMM");
    CHECK_EQ(error_class(MPI_Comm_get_attr(freed_comm, keyval, &val, &flag)), MPI_ERR_COMM,
             "MPI 4.1 §9.4 / docs/DESIGN.md: a freed communicator in MPI_Comm_get_attr is MPI_ERR_COMM");
    CHECK_EQ(error_class(MPI_Comm_delete_attr(freed_comm, keyval)), MPI_ERR_COMM,
             "MPI 4.1 §9.4 / docs/DESIGN.md: a freed communicator in MPI_Comm_delete_attr is MPI_ERR_COMM");
    CHECK_EQ(error_class(MPI_Comm_free(&freed_comm)), MPI_ERR_COMM,
             "MPI 4.1 §9.4 / docs/DESIGN.md: freeing a freed communicator is MPI_ERR_COMM");
    unchanged("MPI 4.1 §9.3: communicator errors change nothing");

    /* NULL output pointers */
    CHECK_EQ(error_class(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &val, NULL)), MPI_ERR_ARG,
             "MPI 4.1 §9.4: a NULL flag pointer is MPI_ERR_ARG");
    CHECK_EQ(error_class(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, NULL, &flag)), MPI_ERR_ARG,
             "MPI 4.1 §9.4: a NULL attribute_val pointer is MPI_ERR_ARG");
    CHECK_EQ(error_class(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL)),
             MPI_ERR_ARG, "MPI 4.1 §9.4: a NULL keyval pointer is MPI_ERR_ARG");
    unchanged("MPI 4.1 §9.3: NULL-pointer errors change nothing");

    /* Freeing a keyval twice */
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &freed_keyval, NULL);
    copy = freed_keyval;
    CHECK_EQ(MPI_Comm_free_keyval(&freed_keyval), MPI_SUCCESS, "MPI 4.1 §7.7.2 MPI_Comm_free_keyval");
    rc = MPI_Comm_free_keyval(&copy);
    CHECK_EQ(error_class(rc), MPI_ERR_KEYVAL, "MPI 4.1 §7.7.2: freeing a keyval twice is MPI_ERR_KEYVAL");
    CHECK_EQ(error_class(MPI_Comm_free_keyval(&freed_keyval)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: freeing the MPI_KEYVAL_INVALID written back is MPI_ERR_KEYVAL");
    unchanged("MPI 4.1 §9.3: double-free errors change nothing");

    /* The error class of every code used above is itself */
    CHECK_EQ(error_class(MPI_ERR_KEYVAL), MPI_ERR_KEYVAL, "MPI 4.1 §9.4: a class is its own class");

    CHECK_EQ(MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval), MPI_SUCCESS, "MPI 4.1 §7.7.2");
    CHECK_EQ(deletes, 1, "MPI 4.1 §7.7.2: the attribute's delete callback ran once, at the delete");
    MPI_Comm_free_keyval(&keyval);
    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI 4.1 §11.2.2 MPI_Finalize");
    return check_summary("attr_errors");
}
