/* Pattern 4: attributes on datatypes as "type caches" (MPI 4.1 §7.7.4).
 *
 * A library needs a derived "3-vector of T" type for each base type T it is handed. It caches
 * the derived type as an attribute on the base type itself -- predefined types included
 * (attributes on predefined datatypes are allowed, §7.7.4) -- and marks each derived type it
 * made with an attribute of its own. The cache's delete callback frees the derived type (an
 * MPI_Type_free inside a delete callback, which runs the derived type's own delete callback).
 *
 * Cleanup: the MPI_DOUBLE cache is deleted by the library's MPI_COMM_SELF hook (the portable
 * way, §11.2.4); the MPI_INT cache is left for MPI_Finalize (README "Documented outcomes":
 * attributes of datatypes the program did not free -- predefined ones are never freed -- are
 * deleted at MPI_Finalize, once each).
 *
 * Standard MPI only. */
#include <mpi.h>
#include <stdlib.h>
#include "check.h"

typedef struct {
    MPI_Datatype base;
    MPI_Datatype vec3;
} vec3_entry;

static int vec3_kv = MPI_KEYVAL_INVALID;  /* on a base type: vec3_entry* */
static int mark_kv = MPI_KEYVAL_INVALID;  /* on a derived type the library made: its entry */
static int share_kv = MPI_KEYVAL_INVALID; /* copied by MPI_TYPE_DUP_FN */
static int entries_live = 0, entries_made = 0;
static int cache_deletes = 0, mark_deletes = 0, share_deletes = 0;
static int nested_mark_deletes = 0, in_cache_delete = 0;
static int type_free_errors = 0, wrong_args = 0;
static int self_hook_runs = 0, self_hook_errors = 0;
static int finalized_inside = 0;

static void note_finalized(void)
{
    int fin = 1;
    MPI_Finalized(&fin);
    if (fin)
        finalized_inside = 1;
}

static int mark_delete(MPI_Datatype type, int keyval, void *val, void *extra)
{
    vec3_entry *e = val;
    (void)keyval;
    (void)extra;
    mark_deletes++;
    if (in_cache_delete)
        nested_mark_deletes++;
    if (e == NULL || e->vec3 != type)
        wrong_args++;
    return MPI_SUCCESS;
}

static int cache_delete(MPI_Datatype type, int keyval, void *val, void *extra)
{
    vec3_entry *e = val;
    int rc;
    (void)keyval;
    (void)extra;
    cache_deletes++;
    note_finalized();
    if (e == NULL || e->base != type) {
        wrong_args++;
        return MPI_SUCCESS;
    }
    in_cache_delete = 1;
    rc = MPI_Type_free(&e->vec3); /* MPI 4.1 §7.7.2: callbacks may call MPI */
    in_cache_delete = 0;
    if (rc != MPI_SUCCESS || e->vec3 != MPI_DATATYPE_NULL)
        type_free_errors++;
    free(e);
    entries_live--;
    return MPI_SUCCESS;
}

static int share_delete(MPI_Datatype type, int keyval, void *val, void *extra)
{
    (void)type;
    (void)keyval;
    (void)extra;
    if (val != (void *)&share_kv)
        wrong_args++;
    share_deletes++;
    return MPI_SUCCESS;
}

/* The library's cleanup hook on MPI_COMM_SELF: drops the MPI_DOUBLE cache (MPI 4.1 §11.2.4). */
static int self_hook(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)keyval;
    (void)val;
    (void)extra;
    self_hook_runs++;
    note_finalized();
    if (comm != MPI_COMM_SELF)
        self_hook_errors++;
    if (MPI_Type_delete_attr(MPI_DOUBLE, vec3_kv) != MPI_SUCCESS)
        self_hook_errors++;
    return MPI_SUCCESS;
}

/* The library: the cached 3-vector of `base`, made on first use. */
static MPI_Datatype vec3_of(MPI_Datatype base)
{
    vec3_entry *e = NULL;
    int flag = 0;
    if (vec3_kv == MPI_KEYVAL_INVALID) {
        int hook = MPI_KEYVAL_INVALID;
        MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, cache_delete, &vec3_kv, NULL);
        MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, mark_delete, &mark_kv, NULL);
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_hook, &hook, NULL);
        MPI_Comm_set_attr(MPI_COMM_SELF, hook, NULL);
        MPI_Comm_free_keyval(&hook);
    }
    if (MPI_Type_get_attr(base, vec3_kv, &e, &flag) != MPI_SUCCESS)
        return MPI_DATATYPE_NULL;
    if (flag)
        return e->vec3;
    e = malloc(sizeof *e);
    e->base = base;
    MPI_Type_contiguous(3, base, &e->vec3);
    MPI_Type_commit(&e->vec3);
    MPI_Type_set_attr(e->vec3, mark_kv, e);
    MPI_Type_set_attr(base, vec3_kv, e);
    entries_live++;
    entries_made++;
    return e->vec3;
}

int main(int argc, char **argv)
{
    MPI_Datatype vd, vd2, vi, dup = MPI_DATATYPE_NULL, vd_old;
    vec3_entry *e = NULL;
    int flag = 0, size = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN); /* datatype calls report here */

    vd = vec3_of(MPI_DOUBLE);
    vd2 = vec3_of(MPI_DOUBLE);
    vi = vec3_of(MPI_INT);
    CHECK(vd != MPI_DATATYPE_NULL && vd == vd2,
          "MPI 4.1 §7.7.4: an attribute on the predefined MPI_DOUBLE caches the derived type");
    CHECK_EQ(entries_made, 2, "one derived type per base type");
    CHECK(vi != vd, "MPI_INT has its own cache entry");
    MPI_Type_size(vd, &size);
    CHECK_EQ(size, (int)(3 * sizeof(double)), "MPI 4.1 §5.1.5: the cached type is 3 doubles");
    MPI_Type_size(vi, &size);
    CHECK_EQ(size, (int)(3 * sizeof(int)), "MPI 4.1 §5.1.5: the cached type is 3 ints");
    flag = 1;
    CHECK_EQ(MPI_Type_get_attr(MPI_FLOAT, vec3_kv, &e, &flag), MPI_SUCCESS,
             "MPI 4.1 §7.7.4: MPI_Type_get_attr on a predefined type");
    CHECK(!flag, "MPI 4.1 §7.7.4: MPI_FLOAT has no cache entry");
    flag = 0;
    MPI_Type_get_attr(vd, mark_kv, &e, &flag);
    CHECK(flag && e && e->vec3 == vd && e->base == MPI_DOUBLE,
          "MPI 4.1 §7.7.4: the derived type carries its own mark");

    /* MPI_Type_dup of the predefined type: NULL_COPY leaves the cache behind, DUP_FN copies. */
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, share_delete, &share_kv, NULL);
    MPI_Type_set_attr(MPI_DOUBLE, share_kv, &share_kv);
    CHECK_EQ(MPI_Type_dup(MPI_DOUBLE, &dup), MPI_SUCCESS, "MPI 4.1 §5.1.10: MPI_Type_dup");
    flag = 1;
    MPI_Type_get_attr(dup, vec3_kv, &e, &flag);
    CHECK(!flag, "MPI 4.1 §7.7.4: MPI_TYPE_NULL_COPY_FN does not copy the cache to the dup");
    {
        void *v = NULL;
        flag = 0;
        MPI_Type_get_attr(dup, share_kv, &v, &flag);
        CHECK(flag && v == (void *)&share_kv, "MPI 4.1 §7.7.4: MPI_TYPE_DUP_FN copies the value");
    }
    CHECK_EQ(MPI_Type_free(&dup), MPI_SUCCESS, "MPI 4.1 §5.1.9: free the dup");
    CHECK_EQ(share_deletes, 1, "MPI 4.1 §7.7.4: freeing the dup deleted its copy only");
    CHECK_EQ(MPI_Type_delete_attr(MPI_DOUBLE, share_kv), MPI_SUCCESS,
             "MPI 4.1 §7.7.4: MPI_Type_delete_attr on a predefined type");
    CHECK_EQ(share_deletes, 2, "MPI 4.1 §7.7.4: the delete callback ran for MPI_DOUBLE's value");
    MPI_Type_free_keyval(&share_kv);

    /* Overwriting the cache entry on MPI_DOUBLE frees the old derived type (nested delete). */
    vd_old = vd;
    {
        vec3_entry *fresh = malloc(sizeof *fresh);
        fresh->base = MPI_DOUBLE;
        MPI_Type_contiguous(3, MPI_DOUBLE, &fresh->vec3);
        MPI_Type_commit(&fresh->vec3);
        MPI_Type_set_attr(fresh->vec3, mark_kv, fresh);
        entries_live++;
        entries_made++;
        CHECK_EQ(MPI_Type_set_attr(MPI_DOUBLE, vec3_kv, fresh), MPI_SUCCESS,
                 "MPI 4.1 §7.7.4: overwrite the cache on MPI_DOUBLE");
        CHECK_EQ(cache_deletes, 1, "MPI 4.1 §7.7.4: overwriting ran the old value's delete callback");
        CHECK_EQ(mark_deletes, 1, "MPI 4.1 §7.7.4: which freed the old derived type: its mark's "
                                  "delete callback ran");
        CHECK_EQ(nested_mark_deletes, 1, "... inside the cache's delete callback");
        CHECK(vec3_of(MPI_DOUBLE) == fresh->vec3, "the cache now returns the new type");
    }
    (void)vd_old;
    CHECK_EQ(entries_live, 2, "two entries live (MPI_DOUBLE, MPI_INT)");

    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI 4.1 §11.2.2: MPI_Finalize");
    CHECK_EQ(self_hook_runs, 1, "MPI 4.1 §11.2.4: the MPI_COMM_SELF hook ran once at MPI_Finalize");
    CHECK_EQ(self_hook_errors, 0, "MPI 4.1 §7.7.4, §11.2.4: the hook deleted the MPI_DOUBLE cache");
    CHECK_EQ(entries_live, 0, "README Documented outcomes: the MPI_INT cache (never deleted by the "
                              "program) was deleted at MPI_Finalize too");
    CHECK_EQ(cache_deletes, 3, "every cache entry deleted exactly once (overwrite, hook, finalize)");
    CHECK_EQ(mark_deletes, 3, "every derived type's mark deleted exactly once");
    CHECK_EQ(type_free_errors, 0, "MPI 4.1 §7.7.2: MPI_Type_free inside the delete callback works, "
                                  "at MPI_Finalize included");
    CHECK_EQ(wrong_args, 0, "MPI 4.1 §7.7.4: type callbacks get the datatype and the value");
    CHECK_EQ(finalized_inside, 0, "MPI 4.1 §11.2.4 / README: MPI_Finalized is false inside");
    return check_summary("type_cache");
}
