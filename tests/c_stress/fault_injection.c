/* Fault injection (issue 6, part 3), with the outcomes README.md documents:
 * - a copy callback failing at the k-th attribute, for every k, makes MPI_Comm_dup,
 *   MPI_Comm_dup_with_info, MPI_Comm_idup and MPI_Type_dup return its code with
 *   MPI_COMM_NULL / MPI_DATATYPE_NULL; the copies already made are deleted exactly once; the old
 *   object is unchanged; nothing leaks (valgrind);
 * - a failing delete callback on delete and on overwrite leaves the attribute with its old
 *   value and returns the code;
 * - on MPI_Comm_free / MPI_Type_free the free stops at the first failure (last set first), the
 *   object stays valid with the attributes not yet deleted, and freeing again finishes;
 * - at MPI_Finalize a failing callback does not stop finalization: every other attribute is
 *   still deleted once and MPI_Finalize returns the first failure.
 * No callback is ever called twice for one attribute instance. */
#include <mpi.h>
#include <stdint.h>
#include "../c/check.h"

#define N 6
#define CODE 1234 /* a user error code handed back by failing callbacks */

static int kv[N], tkv[N];
static int fail_copy_at = -1;   /* attribute index whose copy fails */
static int fail_delete_at = -1; /* attribute index whose delete fails */
static MPI_Comm watched = MPI_COMM_NULL; /* deletes on this handle are counted separately */
static int deletes_new[N], deletes_old[N], copies[N];

#define IDX(extra) ((int)(intptr_t)(extra))

static int copy_fn(MPI_Comm old, int k, void *extra, void *in, void *out, int *flag)
{
    (void)old; (void)k;
    copies[IDX(extra)]++;
    if (IDX(extra) == fail_copy_at)
        return CODE;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm c, int k, void *v, void *extra)
{
    (void)k; (void)v;
    if (c == watched)
        deletes_old[IDX(extra)]++;
    else
        deletes_new[IDX(extra)]++;
    return IDX(extra) == fail_delete_at ? CODE : MPI_SUCCESS;
}

static int type_copy_fn(MPI_Datatype old, int k, void *extra, void *in, void *out, int *flag)
{
    return copy_fn((MPI_Comm)old, k, extra, in, out, flag);
}

static int type_delete_fn(MPI_Datatype t, int k, void *v, void *extra)
{
    (void)t; (void)k; (void)v;
    deletes_new[IDX(extra)]++;
    return IDX(extra) == fail_delete_at ? CODE : MPI_SUCCESS;
}

static void reset(void)
{
    int i;
    for (i = 0; i < N; i++)
        deletes_new[i] = deletes_old[i] = copies[i] = 0;
}

/* The old communicator still has every attribute with its value. */
static void check_intact(MPI_Comm c, const char *rule)
{
    int i, flag;
    void *v;
    for (i = 0; i < N; i++) {
        CHECK_EQ(MPI_Comm_get_attr(c, kv[i], &v, &flag), MPI_SUCCESS, rule);
        CHECK(flag == 1 && v == (void *)(intptr_t)(100 + i), rule);
    }
}

int main(int argc, char **argv)
{
    MPI_Comm c, d;
    MPI_Datatype t, u;
    MPI_Request req;
    int i, k, how, flag, faults = 0;
    void *v;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    for (i = 0; i < N; i++) {
        MPI_Comm_create_keyval(copy_fn, delete_fn, &kv[i], (void *)(intptr_t)i);
        MPI_Type_create_keyval(type_copy_fn, type_delete_fn, &tkv[i], (void *)(intptr_t)i);
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    watched = c;
    for (i = 0; i < N; i++)
        MPI_Comm_set_attr(c, kv[i], (void *)(intptr_t)(100 + i));

    /* Copy failing at attribute k, for every k, through every dup. */
    for (how = 0; how < 3; how++) {
        for (k = 0; k < N; k++) {
            int rc;
            reset();
            fail_copy_at = k;
            d = (MPI_Comm)0x7777;
            if (how == 0)
                rc = MPI_Comm_dup(c, &d);
            else if (how == 1)
                rc = MPI_Comm_dup_with_info(c, MPI_INFO_NULL, &d);
            else
                rc = MPI_Comm_idup(c, &d, &req);
            faults++;
            CHECK_EQ(rc, CODE, "README: a failing copy callback fails the dup with its code");
            CHECK(d == MPI_COMM_NULL, "MPI 4.1 §7.4.2 / README: the new handle is MPI_COMM_NULL");
            for (i = 0; i < N; i++) {
                CHECK_EQ(copies[i], i <= k ? 1 : 0, "copy callbacks run in order of setting, up to the failing one");
                CHECK_EQ(deletes_new[i], i < k ? 1 : 0, "README: each partial copy is deleted exactly once");
                CHECK_EQ(deletes_old[i], 0, "the old communicator loses nothing");
            }
            check_intact(c, "README: the old object is unchanged");
        }
    }
    /* Datatypes too. */
    MPI_Type_contiguous(2, MPI_INT, &t);
    for (i = 0; i < N; i++)
        MPI_Type_set_attr(t, tkv[i], (void *)(intptr_t)(100 + i));
    for (k = 0; k < N; k++) {
        reset();
        fail_copy_at = k;
        u = (MPI_Datatype)0x7777;
        faults++;
        CHECK_EQ(MPI_Type_dup(t, &u), CODE, "README: a failing copy callback fails MPI_Type_dup");
        CHECK(u == MPI_DATATYPE_NULL, "README: newtype is MPI_DATATYPE_NULL");
        for (i = 0; i < N; i++)
            CHECK_EQ(deletes_new[i], i < k ? 1 : 0, "partial datatype copies deleted exactly once");
    }
    fail_copy_at = -1;

    /* A failing delete callback on delete and on overwrite: the attribute stays. */
    reset();
    fail_delete_at = 2;
    faults++;
    CHECK_EQ(MPI_Comm_delete_attr(c, kv[2]), CODE, "README: a failing delete callback's code is returned");
    faults++;
    CHECK_EQ(MPI_Comm_set_attr(c, kv[2], (void *)1), CODE, "README: a failing delete callback fails the overwrite");
    CHECK_EQ(deletes_old[2], 2, "one call per attempt, never a double call");
    check_intact(c, "README: the attribute stays with its old value");

    /* Freeing: stops at the first failure (last set first), the object stays valid. */
    reset();
    fail_delete_at = 2;
    faults++;
    CHECK_EQ(MPI_Comm_free(&c), CODE, "README: the free returns the failing callback's code");
    CHECK(c == watched, "the handle is left alone by a failed free");
    for (i = 0; i < N; i++)
        CHECK_EQ(deletes_old[i], i >= 2 ? 1 : 0, "deleted last set first, up to the failing one");
    for (i = 0; i < N; i++) {
        MPI_Comm_get_attr(c, kv[i], &v, &flag);
        CHECK_EQ(flag, i <= 2 ? 1 : 0, "README: the attributes not yet deleted (and the failing one) stay");
    }
    fail_delete_at = -1;
    reset();
    CHECK_EQ(MPI_Comm_free(&c), MPI_SUCCESS, "README: freeing again finishes");
    CHECK(c == MPI_COMM_NULL, "freed");
    for (i = 0; i < N; i++)
        CHECK_EQ(deletes_old[i], i <= 2 ? 1 : 0, "each remaining attribute deleted once");

    reset();
    fail_delete_at = 4;
    faults++;
    CHECK_EQ(MPI_Type_free(&t), CODE, "README: MPI_Type_free stops at the failure");
    CHECK(t != MPI_DATATYPE_NULL, "the datatype stays valid");
    fail_delete_at = -1;
    CHECK_EQ(MPI_Type_free(&t), MPI_SUCCESS, "freeing again finishes");
    for (i = 0; i < N; i++)
        CHECK_EQ(deletes_new[i], i == 4 ? 2 : 1, "each datatype attribute deleted once (the failing one: one failed call, then one that succeeds)");

    /* Finalize: SELF's failing callback does not stop it. */
    reset();
    watched = MPI_COMM_SELF;
    for (i = 0; i < N; i++)
        MPI_Comm_set_attr(MPI_COMM_SELF, kv[i], (void *)(intptr_t)i);
    MPI_Comm_dup(MPI_COMM_WORLD, &d); /* not freed: finalize deletes its attribute */
    MPI_Comm_set_attr(d, kv[0], (void *)0);
    for (i = 0; i < N; i++) {
        MPI_Comm_free_keyval(&kv[i]);
        MPI_Type_free_keyval(&tkv[i]);
    }
    fail_delete_at = 3;
    faults++;
    CHECK_EQ(MPI_Finalize(), CODE, "README: MPI_Finalize returns the first failure");
    for (i = 0; i < N; i++)
        CHECK_EQ(deletes_old[i], 1, "README: every SELF attribute deleted exactly once at finalize");
    CHECK_EQ(deletes_new[0], 1, "the unfreed communicator's attribute deleted once at finalize");
    printf("fault_injection: %d faults injected\n", faults);
    return check_summary("fault_injection");
}
