/* Pattern 6: the attribute error paths real codes hit, under MPI_ERRORS_RETURN.
 *
 * Applications set MPI_ERRORS_RETURN on MPI_COMM_WORLD, then look attributes up with a keyval
 * their library already freed, with MPI_KEYVAL_INVALID (a library that was never initialised),
 * or on MPI_COMM_NULL (an optional communicator argument left unset). Each call returns an
 * error code whose class (MPI_Error_class) says what was wrong, and the program goes on. A user
 * error handler on a communicator sees the same code.
 *
 * Standard MPI only. Which handler an error on MPI_COMM_NULL goes to changed in MPI 4.0 (now
 * MPI_COMM_SELF's, §9.3), so before those calls the program sets MPI_ERRORS_RETURN on
 * MPI_COMM_SELF as well, as a portable code must. */
#include <mpi.h>
#include <string.h>
#include "check.h"

static int err_class(int code)
{
    int cls = -1;
    if (MPI_Error_class(code, &cls) != MPI_SUCCESS)
        return -2;
    return cls;
}

static int handler_calls = 0, handler_code = MPI_SUCCESS;
static MPI_Comm handler_comm = MPI_COMM_NULL;

static void user_handler(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_comm = *comm;
    handler_code = *code;
}

static int deletes = 0;
static int count_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)val;
    (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

/* A successful set / get / delete round trip: the program goes on after each error. */
static int still_works(MPI_Comm comm)
{
    int k = MPI_KEYVAL_INVALID, flag = 0, x = 7, ok = 1;
    int *p = NULL;
    ok &= MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL) == MPI_SUCCESS;
    ok &= MPI_Comm_set_attr(comm, k, &x) == MPI_SUCCESS;
    ok &= MPI_Comm_get_attr(comm, k, &p, &flag) == MPI_SUCCESS;
    ok &= flag && p == &x;
    ok &= MPI_Comm_delete_attr(comm, k) == MPI_SUCCESS;
    ok &= MPI_Comm_free_keyval(&k) == MPI_SUCCESS;
    return ok;
}

int main(int argc, char **argv)
{
    int k = MPI_KEYVAL_INVALID, stale, rc, flag, tk = MPI_KEYVAL_INVALID;
    void *val;
    MPI_Comm dup = MPI_COMM_NULL, hdup = MPI_COMM_NULL;
    MPI_Errhandler eh;
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;

    MPI_Init(&argc, &argv);
    CHECK_EQ(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), MPI_SUCCESS,
             "MPI 4.1 §9.3.1: MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)");

    /* ---- a keyval the library already freed (no attribute left with it) ---- */
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL);
    stale = k;
    CHECK_EQ(MPI_Comm_free_keyval(&k), MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Comm_free_keyval");
    CHECK(k == MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.2: the freed keyval variable is MPI_KEYVAL_INVALID");
    flag = 1;
    rc = MPI_Comm_get_attr(MPI_COMM_WORLD, stale, &val, &flag);
    CHECK(rc != MPI_SUCCESS, "MPI 4.1 §7.7.2: a freed keyval is no longer a valid key");
    CHECK_EQ(err_class(rc), MPI_ERR_KEYVAL, "MPI 4.1 §9.4 / README Conventions: a freed keyval "
                                           "is MPI_ERR_KEYVAL");
    CHECK(still_works(MPI_COMM_WORLD), "MPI 4.1 §9.3: under MPI_ERRORS_RETURN the program goes on");

    /* ---- MPI_KEYVAL_INVALID: a library that was never initialised ---- */
    flag = 1;
    rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &val, &flag);
    CHECK_EQ(err_class(rc), MPI_ERR_KEYVAL, "MPI 4.1 §7.7.2, §9.4: MPI_KEYVAL_INVALID is "
                                           "MPI_ERR_KEYVAL");
    rc = MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, NULL);
    CHECK_EQ(err_class(rc), MPI_ERR_KEYVAL, "MPI 4.1 §7.7.3: set with MPI_KEYVAL_INVALID");
    rc = MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID);
    CHECK_EQ(err_class(rc), MPI_ERR_KEYVAL, "MPI 4.1 §7.7.3: delete with MPI_KEYVAL_INVALID");
    CHECK(still_works(MPI_COMM_WORLD), "MPI 4.1 §9.3: the program goes on");

    /* ---- a keyval freed while an attribute still uses it (on a dup, which inherits
     * MPI_ERRORS_RETURN from MPI_COMM_WORLD, §9.3) ---- */
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &k, NULL);
    stale = k;
    MPI_Comm_set_attr(dup, k, &deletes);
    MPI_Comm_free_keyval(&k);
    flag = 0;
    rc = MPI_Comm_get_attr(dup, stale, &val, &flag);
    CHECK(rc == MPI_SUCCESS && flag && val == &deletes,
          "MPI 4.1 §7.7.2: a freed keyval's number still names the attribute it has");
    rc = MPI_Comm_set_attr(MPI_COMM_WORLD, stale, &deletes);
    CHECK_EQ(err_class(rc), MPI_ERR_KEYVAL, "README Conventions (MPI 4.1 §7.7.2): a freed keyval "
                                           "cannot take a new attribute");
    CHECK_EQ(deletes, 0, "MPI 4.1 §7.7.2: freeing the keyval deleted nothing");
    CHECK_EQ(MPI_Comm_free(&dup), MPI_SUCCESS, "MPI 4.1 §7.4.3: free the dup");
    CHECK_EQ(deletes, 1, "MPI 4.1 §7.7.2: the attribute of the freed keyval still got its delete "
                         "callback, once");
    rc = MPI_Comm_get_attr(MPI_COMM_WORLD, stale, &val, &flag);
    CHECK_EQ(err_class(rc), MPI_ERR_KEYVAL, "MPI 4.1 §7.7.2: with its last attribute gone, the "
                                           "freed keyval's number is invalid");

    /* ---- a wrong-kind keyval: a datatype keyval on a communicator ---- */
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tk, NULL);
    rc = MPI_Comm_get_attr(MPI_COMM_WORLD, tk, &val, &flag);
    CHECK_EQ(err_class(rc), MPI_ERR_KEYVAL, "MPI 4.1 §7.7.2 / README Conventions: a datatype "
                                           "keyval on a communicator is MPI_ERR_KEYVAL");

    /* ---- a user error handler sees the code, and the call still returns it ---- */
    MPI_Comm_dup(MPI_COMM_WORLD, &hdup);
    MPI_Comm_create_errhandler(user_handler, &eh);
    MPI_Comm_set_errhandler(hdup, eh);
    MPI_Errhandler_free(&eh);
    rc = MPI_Comm_get_attr(hdup, MPI_KEYVAL_INVALID, &val, &flag);
    CHECK_EQ(handler_calls, 1, "MPI 4.1 §9.3: the communicator's user error handler is called once");
    CHECK(handler_comm == hdup, "MPI 4.1 §9.3.1: the handler gets the communicator");
    CHECK_EQ(err_class(handler_code), MPI_ERR_KEYVAL, "MPI 4.1 §9.3.1: the handler gets the code");
    CHECK_EQ(rc, handler_code, "MPI 4.1 §9.3: after a returning user handler, the call returns "
                               "the error code");
    CHECK(still_works(hdup), "MPI 4.1 §9.3: the program goes on");
    MPI_Comm_free(&hdup);

    /* ---- MPI_COMM_NULL: its errors go to MPI_COMM_SELF's handler (MPI 4.1 §9.3) ---- */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL);
    flag = 1;
    rc = MPI_Comm_get_attr(MPI_COMM_NULL, k, &val, &flag);
    CHECK_EQ(err_class(rc), MPI_ERR_COMM, "MPI 4.1 §7.7.3, §9.4: MPI_Comm_get_attr on "
                                         "MPI_COMM_NULL is MPI_ERR_COMM");
    rc = MPI_Comm_set_attr(MPI_COMM_NULL, k, NULL);
    CHECK_EQ(err_class(rc), MPI_ERR_COMM, "MPI 4.1 §9.4: MPI_Comm_set_attr on MPI_COMM_NULL");
    rc = MPI_Comm_delete_attr(MPI_COMM_NULL, k);
    CHECK_EQ(err_class(rc), MPI_ERR_COMM, "MPI 4.1 §9.4: MPI_Comm_delete_attr on MPI_COMM_NULL");
    rc = MPI_Comm_get_attr(MPI_COMM_NULL, MPI_TAG_UB, &val, &flag);
    CHECK_EQ(err_class(rc), MPI_ERR_COMM, "MPI 4.1 §9.4: even a predefined keyval on MPI_COMM_NULL");

    /* ---- keyval calls report to MPI_COMM_SELF too: freeing a stale keyval ---- */
    {
        int again = stale;
        rc = MPI_Comm_free_keyval(&again);
        CHECK_EQ(err_class(rc), MPI_ERR_KEYVAL, "MPI 4.1 §7.7.2 / README Conventions: freeing a "
                                               "freed keyval is MPI_ERR_KEYVAL");
        again = MPI_KEYVAL_INVALID;
        rc = MPI_Comm_free_keyval(&again);
        CHECK_EQ(err_class(rc), MPI_ERR_KEYVAL, "MPI 4.1 §7.7.2: freeing MPI_KEYVAL_INVALID");
        rc = MPI_Type_get_attr(MPI_INT, k, &val, &flag);
        CHECK_EQ(err_class(rc), MPI_ERR_KEYVAL, "MPI 4.1 §7.7.4 / README Conventions: a "
                                               "communicator keyval on a datatype");
    }

    rc = MPI_Comm_get_attr(MPI_COMM_WORLD, stale, &val, &flag);
    MPI_Error_string(rc, msg, &len);
    CHECK(len > 0 && len < MPI_MAX_ERROR_STRING && strlen(msg) == (size_t)len,
          "MPI 4.1 §9.4: MPI_Error_string describes the code");

    CHECK(still_works(MPI_COMM_WORLD), "MPI 4.1 §9.3: after all that, attributes still work");
    MPI_Comm_free_keyval(&k);
    MPI_Type_free_keyval(&tk);
    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI 4.1 §11.2.2: MPI_Finalize");
    return check_summary("error_paths");
}
