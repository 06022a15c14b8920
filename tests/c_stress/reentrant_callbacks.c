/* Re-entrant callbacks (issue 6, part 2). Copy and delete callbacks that call back into MPI:
 * get, set and delete other attributes on the same and on other objects, free their own keyval,
 * dup (and free) another communicator; and the pattern that crashes MPICH's bulk delete: a
 * delete callback that deletes a later attribute of the object being freed. Each attribute's
 * delete callback runs exactly once; nothing crashes (run plainly and under valgrind).
 *
 * MPI 4.1 §7.7.2: callbacks may call MPI; a delete callback runs once per attribute instance
 * (on delete, overwrite, free); MPI_COMM_FREE_KEYVAL on a keyval in use is legal and the
 * attributes keep their callbacks. README "Callbacks run with no lock held". */
#include <mpi.h>
#include <stdint.h>
#include "../c/check.h"

#define NK 16
static int deletes[NK];  /* delete calls per keyval index (extra_state = index) */
static int copies[NK];
static int kv[NK];

#define IDX(extra) ((int)(intptr_t)(extra))

/* Plain counting delete. */
static int count_delete(MPI_Comm c, int k, void *v, void *extra)
{
    (void)c; (void)k; (void)v;
    deletes[IDX(extra)]++;
    return MPI_SUCCESS;
}

/* Deletes the attribute of kv[1] on the same communicator (a *later* one in the free order
 * when kv[1] was set before), and tries to delete its own attribute again (must be a no-op). */
static int delete_other(MPI_Comm c, int k, void *v, void *extra)
{
    (void)v;
    deletes[IDX(extra)]++;
    CHECK_EQ(MPI_Comm_delete_attr(c, kv[1]), MPI_SUCCESS, "§7.7.2: a delete callback may delete another attribute of the object");
    CHECK_EQ(MPI_Comm_delete_attr(c, k), MPI_SUCCESS, "deleting an attribute whose deletion is under way is a no-op");
    return MPI_SUCCESS;
}

/* Reads, sets and deletes attributes on this and on other objects, dups and frees WORLD. */
static int busy_delete(MPI_Comm c, int k, void *v, void *extra)
{
    int flag = 0;
    void *got = NULL;
    MPI_Comm tmp;
    (void)k; (void)v;
    deletes[IDX(extra)]++;
    CHECK_EQ(MPI_Comm_get_attr(c, kv[3], &got, &flag), MPI_SUCCESS, "get inside a delete callback");
    CHECK_EQ(MPI_Comm_set_attr(MPI_COMM_WORLD, kv[3], (void *)(intptr_t)77), MPI_SUCCESS, "set on another object inside a delete callback");
    CHECK_EQ(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv[3]), MPI_SUCCESS, "delete on another object inside a delete callback");
    CHECK_EQ(MPI_Comm_dup(MPI_COMM_WORLD, &tmp), MPI_SUCCESS, "dup inside a delete callback");
    CHECK_EQ(MPI_Comm_free(&tmp), MPI_SUCCESS, "free inside a delete callback");
    return MPI_SUCCESS;
}

/* Frees its own keyval (legal: the attribute is still being deleted). */
static int free_own_keyval_delete(MPI_Comm c, int k, void *v, void *extra)
{
    int mine = k;
    (void)c; (void)v;
    deletes[IDX(extra)]++;
    CHECK_EQ(MPI_Comm_free_keyval(&mine), MPI_SUCCESS, "§7.7.2: freeing a keyval in use is legal");
    return MPI_SUCCESS;
}

/* A copy callback that works on the old communicator and elsewhere, then copies. */
static int busy_copy(MPI_Comm old, int k, void *extra, void *in, void *out, int *flag)
{
    int f = 0;
    void *got = NULL;
    MPI_Comm tmp;
    (void)k;
    copies[IDX(extra)]++;
    CHECK_EQ(MPI_Comm_get_attr(old, kv[1], &got, &f), MPI_SUCCESS, "get on the old communicator inside a copy callback");
    CHECK_EQ(MPI_Comm_set_attr(old, kv[5], (void *)(intptr_t)55), MPI_SUCCESS, "set (overwrite) on the old communicator inside a copy callback");
    CHECK_EQ(MPI_Comm_delete_attr(old, kv[6]), MPI_SUCCESS, "delete another attribute of the old communicator inside a copy callback");
    CHECK_EQ(MPI_Comm_set_attr(MPI_COMM_SELF, kv[3], (void *)(intptr_t)33), MPI_SUCCESS, "set on another object inside a copy callback");
    CHECK_EQ(MPI_Comm_dup(MPI_COMM_SELF, &tmp), MPI_SUCCESS, "dup another communicator inside a copy callback");
    CHECK_EQ(MPI_Comm_free(&tmp), MPI_SUCCESS, "free it again");
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

/* A copy callback that frees its own keyval and still copies. */
static int free_own_keyval_copy(MPI_Comm old, int k, void *extra, void *in, void *out, int *flag)
{
    int mine = k;
    (void)old;
    copies[IDX(extra)]++;
    CHECK_EQ(MPI_Comm_free_keyval(&mine), MPI_SUCCESS, "freeing its own keyval inside a copy callback");
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static void create(int i, MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del)
{
    CHECK_EQ(MPI_Comm_create_keyval(copy, del, &kv[i], (void *)(intptr_t)i), MPI_SUCCESS, "create keyval");
}

static void reset_counts(void)
{
    int i;
    for (i = 0; i < NK; i++)
        deletes[i] = copies[i] = 0;
}

int main(int argc, char **argv)
{
    MPI_Comm c, d;
    int flag, i;
    void *v;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    create(0, MPI_COMM_NULL_COPY_FN, delete_other);
    create(1, MPI_COMM_DUP_FN, count_delete);
    create(2, MPI_COMM_NULL_COPY_FN, busy_delete);
    create(3, MPI_COMM_NULL_COPY_FN, count_delete);
    create(4, busy_copy, count_delete);
    create(5, MPI_COMM_DUP_FN, count_delete);
    create(6, MPI_COMM_DUP_FN, count_delete);
    create(7, MPI_COMM_NULL_COPY_FN, free_own_keyval_delete);
    create(8, free_own_keyval_copy, count_delete);

    /* 1. MPICH's bulk-delete crash: kv[1] set first, kv[0] last; freeing runs kv[0]'s delete
     *    first, which deletes kv[1] (later in the free order). */
    for (i = 0; i < 3; i++) {
        reset_counts();
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Comm_set_attr(c, kv[3], (void *)1);
        MPI_Comm_set_attr(c, kv[1], (void *)2);
        MPI_Comm_set_attr(c, kv[0], (void *)3);
        if (i == 0) {
            CHECK_EQ(MPI_Comm_free(&c), MPI_SUCCESS, "§7.7.2: free runs each delete callback once");
        } else if (i == 1) {
            CHECK_EQ(MPI_Comm_delete_attr(c, kv[0]), MPI_SUCCESS, "delete whose callback deletes another");
            MPI_Comm_get_attr(c, kv[1], &v, &flag);
            CHECK_EQ(flag, 0, "the attribute deleted from inside the callback is gone");
            CHECK_EQ(MPI_Comm_free(&c), MPI_SUCCESS, "free");
        } else {
            /* overwrite: the old value's callback deletes kv[1] */
            CHECK_EQ(MPI_Comm_set_attr(c, kv[0], (void *)4), MPI_SUCCESS, "overwrite whose delete callback deletes another");
            CHECK_EQ(deletes[0], 1, "old value deleted once on overwrite");
            CHECK_EQ(MPI_Comm_free(&c), MPI_SUCCESS, "free");
            deletes[0]--; /* the new value's deletion at free */
        }
        CHECK_EQ(deletes[0], 1, "kv[0]'s delete callback ran exactly once");
        CHECK_EQ(deletes[1], 1, "kv[1]'s delete callback ran exactly once");
        CHECK_EQ(deletes[3], 1, "kv[3]'s delete callback ran exactly once");
    }

    /* 2. Delete callback busy with other objects, on delete and on free. */
    reset_counts();
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_attr(c, kv[2], (void *)5);
    CHECK_EQ(MPI_Comm_delete_attr(c, kv[2]), MPI_SUCCESS, "busy delete callback on delete");
    MPI_Comm_set_attr(c, kv[2], (void *)6);
    CHECK_EQ(MPI_Comm_free(&c), MPI_SUCCESS, "busy delete callback on free");
    CHECK_EQ(deletes[2], 2, "one delete call per attribute instance");
    CHECK_EQ(deletes[3], 2, "the attributes set on WORLD inside were deleted once each");

    /* 3. Busy copy callback: overwrites kv[5] and deletes kv[6] on the old communicator. */
    reset_counts();
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_attr(c, kv[4], (void *)7);
    MPI_Comm_set_attr(c, kv[5], (void *)8);
    MPI_Comm_set_attr(c, kv[6], (void *)9);
    CHECK_EQ(MPI_Comm_dup(c, &d), MPI_SUCCESS, "dup with a busy copy callback");
    CHECK_EQ(copies[4], 1, "copy callback ran once");
    CHECK_EQ(deletes[5], 1, "the overwritten kv[5] value was deleted once");
    CHECK_EQ(deletes[6], 1, "kv[6] deleted inside the copy callback, once");
    MPI_Comm_get_attr(d, kv[4], &v, &flag);
    CHECK(flag == 1 && v == (void *)7, "the busy callback's copy is on the new communicator");
    MPI_Comm_get_attr(d, kv[6], &v, &flag);
    CHECK_EQ(flag, 0, "an attribute deleted before its turn is not copied");
    MPI_Comm_get_attr(c, kv[5], &v, &flag);
    CHECK(flag == 1 && v == (void *)55, "the old communicator holds the value set inside");
    CHECK_EQ(MPI_Comm_free(&d), MPI_SUCCESS, "free the dup");
    CHECK_EQ(MPI_Comm_free(&c), MPI_SUCCESS, "free the original");
    MPI_Comm_delete_attr(MPI_COMM_SELF, kv[3]);
    CHECK_EQ(deletes[4], 2, "kv[4]: one delete per instance (original and copy)");
    CHECK_EQ(deletes[3], 1, "kv[3] on SELF deleted once");

    /* 4. Callbacks that free their own keyval. */
    reset_counts();
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_attr(c, kv[7], (void *)10);
    MPI_Comm_set_attr(c, kv[8], (void *)11);
    CHECK_EQ(MPI_Comm_dup(c, &d), MPI_SUCCESS, "dup whose copy callback frees its keyval");
    CHECK_EQ(copies[8], 1, "copy ran once");
    flag = 0;
    CHECK_EQ(MPI_Comm_get_attr(d, kv[8], &v, &flag), MPI_SUCCESS,
             "§7.7.2: kv[8] was freed, but its number still names its attributes (the copy)");
    CHECK(flag == 1 && v == (void *)11, "§7.7.2: ... the value copied after the free");
    CHECK_EQ(MPI_Comm_delete_attr(c, kv[7]), MPI_SUCCESS, "delete whose callback frees its keyval");
    CHECK_EQ(MPI_Comm_set_attr(c, kv[7], (void *)12) != MPI_SUCCESS, 1,
             "§7.7.2: the freed keyval, its only attribute gone, is invalid afterwards");
    CHECK_EQ(MPI_Comm_free(&d), MPI_SUCCESS, "the copy of a freed keyval's attribute is still deleted");
    CHECK_EQ(MPI_Comm_free(&c), MPI_SUCCESS, "free");
    CHECK_EQ(deletes[7], 1, "kv[7] deleted once");
    CHECK_EQ(deletes[8], 2, "kv[8]: original and copy deleted once each");
    CHECK_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, kv[8], &v, &flag), MPI_ERR_KEYVAL,
             "§7.7.2: kv[8], its last attribute gone, is invalid");

    /* 5. At finalize: SELF's delete callback deletes a later attribute of SELF. */
    reset_counts();
    MPI_Comm_set_attr(MPI_COMM_SELF, kv[1], (void *)13);
    MPI_Comm_set_attr(MPI_COMM_SELF, kv[0], (void *)14);
    /* kv[0]'s callback names kv[1] at finalize, so those two stay valid; free the rest. */
    for (i = 3; i < 7; i++)
        if (i != 4)
            MPI_Comm_free_keyval(&kv[i]);
    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "finalize");
    CHECK_EQ(deletes[0], 1, "finalize: kv[0] deleted once");
    CHECK_EQ(deletes[1], 1, "finalize: kv[1] deleted once (from inside kv[0]'s callback)");
    return check_summary("reentrant_callbacks");
}
