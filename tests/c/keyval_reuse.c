/* Keyvals created and freed many times over: every rule holds for a keyval whatever keyvals came
 * before it. (mpicache reuses the storage of freed keyvals; its fast paths serve creates with
 * predefined callbacks and frees of keyvals no attribute uses, so this program drives more
 * create/free cycles than the reuse delay and mixes in the cases the fast paths must leave.)
 *
 * MPI 4.1 §7.7.2:
 * - MPI_Comm_free_keyval "sets the value of keyval to MPI_KEYVAL_INVALID";
 * - MPI_COMM_DUP_FN copies the attribute to the new communicator, MPI_COMM_NULL_COPY_FN does
 *   not, and a user copy callback decides;
 * - the delete callback runs when the attribute is deleted, and a keyval created with
 *   MPI_COMM_NULL_DELETE_FN runs none;
 * - extra_state is handed to the callbacks as given at creation;
 * - a keyval freed while an attribute uses it still serves that attribute.
 * MPI 4.1 §7.7.3, §7.7.4: keyvals of datatypes and windows follow the same rules. */
#include <mpi.h>
#include <stdint.h>
#include "check.h"

#define CYCLES 700

static int copies, deletes;
static void *last_extra;

static int counting_copy(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                         void *attribute_val_out, int *flag)
{
    (void)oldcomm;
    (void)keyval;
    copies++;
    last_extra = extra_state;
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int counting_delete(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state)
{
    (void)comm;
    (void)keyval;
    (void)attribute_val;
    deletes++;
    last_extra = extra_state;
    return MPI_SUCCESS;
}

/* One keyval of each kind of callback, used once and freed: the rules above. */
static void one_cycle(int i)
{
    int k_dup, k_null, k_user, k_plain;
    MPI_Comm base, dup;
    void *v;
    int flag;

    CHECK_EQ(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k_dup, NULL),
             MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Comm_create_keyval");
    CHECK_EQ(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k_null,
                                    NULL),
             MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Comm_create_keyval");
    CHECK_EQ(MPI_Comm_create_keyval(counting_copy, counting_delete, &k_user,
                                    (void *)(intptr_t)(1000 + i)),
             MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Comm_create_keyval with user callbacks");
    CHECK_EQ(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k_plain,
                                    NULL),
             MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Comm_create_keyval");
    CHECK(k_dup != k_null && k_dup != k_user && k_null != k_user && k_plain != k_user &&
              k_plain != k_dup && k_plain != k_null,
          "MPI 4.1 §7.7.2: keyvals live at once are distinct");

    /* MPI_COMM_SELF: the cycles are one process's own, so on many processes (tests/
     * layer_programs.rs) the dups stay local instead of 1,400 collectives over MPI_COMM_WORLD. */
    MPI_Comm_dup(MPI_COMM_SELF, &base);
    MPI_Comm_set_attr(base, k_dup, (void *)(intptr_t)(i + 1));
    MPI_Comm_set_attr(base, k_null, (void *)(intptr_t)(i + 2));
    MPI_Comm_set_attr(base, k_user, (void *)(intptr_t)(i + 3));
    copies = deletes = 0;
    MPI_Comm_dup(base, &dup);
    CHECK_EQ(copies, 1, "MPI 4.1 §7.7.2: the user copy callback runs once on MPI_Comm_dup");
    CHECK(last_extra == (void *)(intptr_t)(1000 + i),
          "MPI 4.1 §7.7.2: the copy callback gets the keyval's extra_state");
    MPI_Comm_get_attr(dup, k_dup, &v, &flag);
    CHECK(flag && v == (void *)(intptr_t)(i + 1), "MPI 4.1 §7.7.2: MPI_COMM_DUP_FN copies");
    MPI_Comm_get_attr(dup, k_null, &v, &flag);
    CHECK(!flag, "MPI 4.1 §7.7.2: MPI_COMM_NULL_COPY_FN does not copy");
    MPI_Comm_get_attr(dup, k_user, &v, &flag);
    CHECK(flag && v == (void *)(intptr_t)(i + 3), "MPI 4.1 §7.7.2: the user callback copied");

    /* Freed while its attributes live: they stay readable and keep their callbacks. */
    CHECK_EQ(MPI_Comm_free_keyval(&k_user), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: freeing a keyval in use is not erroneous");
    CHECK_EQ(k_user, MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.2: free sets MPI_KEYVAL_INVALID");
    CHECK_EQ(MPI_Comm_free(&dup), MPI_SUCCESS, "MPI 4.1 §6.4.3: MPI_Comm_free");
    CHECK_EQ(deletes, 1, "MPI 4.1 §7.7.2: the delete callback of a freed keyval still runs");
    CHECK(last_extra == (void *)(intptr_t)(1000 + i),
          "MPI 4.1 §7.7.2: the delete callback gets the keyval's extra_state");

    /* The plain keyval is freed unused, the others while their attributes live on `base`;
     * freeing `base` deletes them, with the user's callback once. */
    CHECK_EQ(MPI_Comm_free_keyval(&k_plain), MPI_SUCCESS, "MPI 4.1 §7.7.2: free unused");
    CHECK_EQ(k_plain, MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.2: free sets MPI_KEYVAL_INVALID");
    CHECK_EQ(MPI_Comm_free_keyval(&k_dup), MPI_SUCCESS, "MPI 4.1 §7.7.2: free");
    CHECK_EQ(MPI_Comm_free_keyval(&k_null), MPI_SUCCESS, "MPI 4.1 §7.7.2: free");
    CHECK_EQ(k_dup, MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.2: free sets MPI_KEYVAL_INVALID");
    CHECK_EQ(k_null, MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.2: free sets MPI_KEYVAL_INVALID");
    CHECK_EQ(MPI_Comm_free(&base), MPI_SUCCESS, "MPI 4.1 §6.4.3: MPI_Comm_free");
    CHECK_EQ(deletes, 2, "MPI 4.1 §7.7.2: each attribute's delete callback runs once");
}

/* A keyval made with the null delete function, maybe where one with a delete callback was:
 * deleting its attribute calls nothing. */
static void no_stale_callbacks(void)
{
    int k;
    for (int i = 0; i < CYCLES; i++) {
        CHECK_EQ(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL),
                 MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Comm_create_keyval");
        MPI_Comm_set_attr(MPI_COMM_SELF, k, (void *)(intptr_t)7);
        copies = deletes = 0;
        MPI_Comm_delete_attr(MPI_COMM_SELF, k);
        MPI_Comm_free_keyval(&k);
        if (deletes != 0) {
            CHECK_EQ(deletes, 0,
                     "MPI 4.1 §7.7.2: MPI_COMM_NULL_DELETE_FN: no delete callback runs");
            break;
        }
    }
}

/* Datatype and window keyvals through the same cycles: each number names its own kind. */
static void other_kinds(void)
{
    static char buf[64];
    MPI_Win win;
    MPI_Datatype t;
    MPI_Type_contiguous(4, MPI_INT, &t);
    MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_SELF, &win);
    for (int i = 0; i < CYCLES; i++) {
        int kt, kw, kc, flag;
        void *v;
        MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kt,
                               (void *)(intptr_t)i);
        MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &kw, NULL);
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kc, NULL);
        if (i % 7 == 0) {
            MPI_Datatype t2;
            MPI_Type_set_attr(t, kt, (void *)(intptr_t)(i + 5));
            MPI_Win_set_attr(win, kw, (void *)(intptr_t)(i + 6));
            MPI_Type_dup(t, &t2);
            MPI_Type_get_attr(t2, kt, &v, &flag);
            CHECK(flag && v == (void *)(intptr_t)(i + 5),
                  "MPI 4.1 §7.7.3: MPI_TYPE_DUP_FN copies on MPI_Type_dup");
            MPI_Win_get_attr(win, kw, &v, &flag);
            CHECK(flag && v == (void *)(intptr_t)(i + 6), "MPI 4.1 §7.7.4: window attribute");
            MPI_Type_free(&t2);
            MPI_Type_delete_attr(t, kt);
            MPI_Win_delete_attr(win, kw);
        }
        CHECK_EQ(MPI_Type_free_keyval(&kt), MPI_SUCCESS, "MPI 4.1 §7.7.3: free");
        CHECK_EQ(MPI_Win_free_keyval(&kw), MPI_SUCCESS, "MPI 4.1 §7.7.4: free");
        CHECK_EQ(MPI_Comm_free_keyval(&kc), MPI_SUCCESS, "MPI 4.1 §7.7.2: free");
        CHECK(kt == MPI_KEYVAL_INVALID && kw == MPI_KEYVAL_INVALID && kc == MPI_KEYVAL_INVALID,
              "MPI 4.1 §7.7.3, §7.7.4: free sets MPI_KEYVAL_INVALID");
    }
    MPI_Win_free(&win);
    MPI_Type_free(&t);
}

/* The deprecated MPI-1 forms cycle too. */
static void deprecated_forms(void)
{
    for (int i = 0; i < CYCLES; i++) {
        int k, flag;
        void *v;
        CHECK_EQ(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &k, NULL), MPI_SUCCESS,
                 "MPI 4.1 §19.3 (deprecated): MPI_Keyval_create");
        MPI_Attr_put(MPI_COMM_WORLD, k, (void *)(intptr_t)(i + 9));
        MPI_Attr_get(MPI_COMM_WORLD, k, &v, &flag);
        CHECK(flag && v == (void *)(intptr_t)(i + 9), "MPI 4.1 §19.3: MPI_Attr_get");
        MPI_Attr_delete(MPI_COMM_WORLD, k);
        CHECK_EQ(MPI_Keyval_free(&k), MPI_SUCCESS, "MPI 4.1 §19.3: MPI_Keyval_free");
        CHECK_EQ(k, MPI_KEYVAL_INVALID, "MPI 4.1 §19.3: free sets MPI_KEYVAL_INVALID");
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    for (int i = 0; i < CYCLES; i++)
        one_cycle(i);
    no_stale_callbacks();
    other_kinds();
    deprecated_forms();
    MPI_Finalize();
    return check_summary("keyval_reuse");
}
