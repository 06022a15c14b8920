/* Pattern 3: HDF5/netCDF-style cleanup at MPI_Finalize (MPI 4.1 §11.2.4, "Allowing User
 * Functions at MPI Finalize").
 *
 * HDF5 (H5_init_library) creates a keyval, sets an attribute with value NULL on MPI_COMM_SELF and
 * frees the keyval at once; the attribute's delete callback runs the library's termination when
 * MPI_Finalize frees MPI_COMM_SELF. That termination calls MPI: it reads attributes of other
 * objects (its private communicator, MPI_TAG_UB on MPI_COMM_WORLD), frees a datatype it made
 * (whose own attribute's delete callback then runs) and its private communicator (likewise), and
 * checks that MPI_Finalized is still false. A second library (netCDF/PnetCDF-style) registers its
 * hook later, so its hook runs first.
 *
 * Standard MPI only. */
#include <mpi.h>
#include <stdlib.h>
#include "check.h"

/* ---------------------------------------------------------------- library A (HDF5-like) ---- */
typedef struct {
    int magic;
    int opens;
} a_cache;

static MPI_Comm a_comm = MPI_COMM_NULL;     /* private dup of MPI_COMM_WORLD */
static MPI_Datatype a_type = MPI_DATATYPE_NULL; /* a derived type the library made */
static int a_cache_kv = MPI_KEYVAL_INVALID; /* cache on a_comm */
static int a_type_kv = MPI_KEYVAL_INVALID;  /* cache on a_type */
static int a_cache_kv_number = -1;

static int a_term_runs = 0, a_term_order = 0, a_term_errors = 0;
static int a_cache_deletes = 0, a_type_deletes = 0;
static int a_cache_deleted_inside_term = 0, a_type_deleted_inside_term = 0;
static int in_a_term = 0;
static int order_counter = 0;
static int finalized_inside = 0, not_initialized_inside = 0;

static int a_cache_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    a_cache *c = val;
    (void)extra;
    a_cache_deletes++;
    if (in_a_term)
        a_cache_deleted_inside_term++;
    if (keyval != a_cache_kv_number || c == NULL || c->magic != 0xA || comm == MPI_COMM_SELF)
        a_term_errors++;
    free(c);
    return MPI_SUCCESS;
}

static int a_type_delete(MPI_Datatype type, int keyval, void *val, void *extra)
{
    (void)type;
    (void)keyval;
    (void)extra;
    a_type_deletes++;
    if (in_a_term)
        a_type_deleted_inside_term++;
    if (val != (void *)&a_type_kv)
        a_term_errors++;
    return MPI_SUCCESS;
}

/* H5_term_library, run by MPI_Finalize freeing MPI_COMM_SELF. */
static int a_term(MPI_Comm comm, int keyval, void *val, void *extra)
{
    int flag = 0, rc, fin = 1, init = 0;
    a_cache *c = NULL;
    int *tag_ub = NULL;
    (void)keyval;
    (void)extra;
    a_term_runs++;
    a_term_order = ++order_counter;
    in_a_term = 1;
    if (comm != MPI_COMM_SELF || val != NULL)
        a_term_errors++;
    MPI_Finalized(&fin);
    if (fin)
        finalized_inside = 1;
    MPI_Initialized(&init);
    if (!init)
        not_initialized_inside = 1;

    /* MPI_Comm_get_attr on another object: the library's private communicator */
    rc = MPI_Comm_get_attr(a_comm, a_cache_kv, &c, &flag);
    if (rc != MPI_SUCCESS || !flag || c == NULL || c->magic != 0xA || c->opens != 3)
        a_term_errors += 100;
    /* ... and a predefined attribute of MPI_COMM_WORLD */
    flag = 0;
    rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
    if (rc != MPI_SUCCESS || !flag || tag_ub == NULL || *tag_ub < 32767)
        a_term_errors += 1000;

    /* free the datatype the library made: its attribute's delete callback runs now */
    rc = MPI_Type_free(&a_type);
    if (rc != MPI_SUCCESS || a_type != MPI_DATATYPE_NULL)
        a_term_errors += 10000;
    rc = MPI_Type_free_keyval(&a_type_kv);
    if (rc != MPI_SUCCESS)
        a_term_errors += 10000;

    /* free the private communicator: its attribute's delete callback runs now */
    rc = MPI_Comm_free(&a_comm);
    if (rc != MPI_SUCCESS || a_comm != MPI_COMM_NULL)
        a_term_errors += 100000;
    rc = MPI_Comm_free_keyval(&a_cache_kv);
    if (rc != MPI_SUCCESS)
        a_term_errors += 100000;
    in_a_term = 0;
    return MPI_SUCCESS;
}

static void a_init(void)
{
    int hook = MPI_KEYVAL_INVALID;
    a_cache *c = malloc(sizeof *c);
    c->magic = 0xA;
    c->opens = 0;
    MPI_Comm_dup(MPI_COMM_WORLD, &a_comm);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, a_cache_delete, &a_cache_kv, NULL);
    a_cache_kv_number = a_cache_kv;
    MPI_Comm_set_attr(a_comm, a_cache_kv, c);
    MPI_Type_contiguous(4, MPI_INT, &a_type);
    MPI_Type_commit(&a_type);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, a_type_delete, &a_type_kv, NULL);
    MPI_Type_set_attr(a_type, a_type_kv, &a_type_kv);
    /* exactly what H5_init_library does */
    CHECK_EQ(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, a_term, &hook, NULL), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: create the finalize hook's keyval");
    CHECK_EQ(MPI_Comm_set_attr(MPI_COMM_SELF, hook, NULL), MPI_SUCCESS,
             "MPI 4.1 §11.2.4: set the hook attribute on MPI_COMM_SELF");
    CHECK_EQ(MPI_Comm_free_keyval(&hook), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: free the keyval while the attribute is still set");
}

static void a_open(void)
{
    a_cache *c = NULL;
    int flag = 0;
    MPI_Comm_get_attr(a_comm, a_cache_kv, &c, &flag);
    if (flag)
        c->opens++;
}

/* ---------------------------------------------------------------- library B (netCDF-like) ---- */
static int b_hook_kv = MPI_KEYVAL_INVALID;
static int b_term_runs = 0, b_term_order = 0, b_term_errors = 0;
static int *b_buffer = NULL;

static int b_term(MPI_Comm comm, int keyval, void *val, void *extra)
{
    int fin = 1;
    b_term_runs++;
    b_term_order = ++order_counter;
    if (comm != MPI_COMM_SELF || keyval != b_hook_kv || val != b_buffer || extra != &b_hook_kv)
        b_term_errors++;
    MPI_Finalized(&fin);
    if (fin)
        finalized_inside = 1;
    /* library A's hook has not run yet: A's private communicator is still there */
    if (a_comm == MPI_COMM_NULL || a_term_runs != 0)
        b_term_errors += 10;
    else {
        int flag = 0;
        a_cache *c = NULL;
        if (MPI_Comm_get_attr(a_comm, a_cache_kv, &c, &flag) != MPI_SUCCESS || !flag)
            b_term_errors += 100;
    }
    free(val);
    b_buffer = NULL;
    return MPI_SUCCESS;
}

static void b_init(void)
{
    b_buffer = malloc(64 * sizeof *b_buffer);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, b_term, &b_hook_kv, &b_hook_kv);
    CHECK_EQ(MPI_Comm_set_attr(MPI_COMM_SELF, b_hook_kv, b_buffer), MPI_SUCCESS,
             "MPI 4.1 §11.2.4: a second library sets its hook on MPI_COMM_SELF");
}

int main(int argc, char **argv)
{
    int fin = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    a_init();
    a_open();
    a_open();
    b_init(); /* set after A's hook: runs first */
    a_open();

    CHECK_EQ(a_term_runs + b_term_runs, 0, "MPI 4.1 §11.2.4: nothing runs before MPI_Finalize");
    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI 4.1 §11.2.2: MPI_Finalize succeeds");
    MPI_Finalized(&fin);
    CHECK(fin, "MPI 4.1 §11.2.5: MPI_Finalized is true after MPI_Finalize");

    CHECK_EQ(a_term_runs, 1, "MPI 4.1 §11.2.4: library A's hook ran once inside MPI_Finalize "
                             "although its keyval was freed right after setting it");
    CHECK_EQ(b_term_runs, 1, "MPI 4.1 §11.2.4: library B's hook ran once");
    CHECK(b_term_order == 1 && a_term_order == 2,
          "MPI 4.1 §11.2.4 / README Documented outcomes: MPI_COMM_SELF's attributes are deleted "
          "in reverse order of setting (B's hook, set last, runs first)");
    CHECK_EQ(finalized_inside, 0, "MPI 4.1 §11.2.4: MPI_Finalized is false inside the hooks");
    CHECK_EQ(not_initialized_inside, 0, "MPI 4.1 §11.2.5: MPI_Initialized is true inside the hooks");
    CHECK_EQ(a_term_errors, 0, "MPI 4.1 §7.7.2, §11.2.4: inside the hook, MPI_Comm_get_attr on "
                               "other objects, MPI_Type_free and MPI_Comm_free all work "
                               "(units: 1 args, 100 cache get, 1000 MPI_TAG_UB, 10000 type "
                               "free, 100000 comm free)");
    CHECK_EQ(b_term_errors, 0, "MPI 4.1 §7.7.2: B's hook got its keyval, value and extra_state, "
                               "and ran before A's");
    CHECK_EQ(a_type_deletes, 1, "MPI 4.1 §7.7.4: MPI_Type_free in the hook ran the type's delete "
                                "callback once");
    CHECK_EQ(a_type_deleted_inside_term, 1, "... inside the hook, not later");
    CHECK_EQ(a_cache_deletes, 1, "MPI 4.1 §7.7.2: MPI_Comm_free in the hook ran the private "
                                 "communicator's delete callback once");
    CHECK_EQ(a_cache_deleted_inside_term, 1, "... inside the hook, not later");
    CHECK(b_buffer == NULL, "B's hook released its buffer");
    return check_summary("finalize_hook");
}
