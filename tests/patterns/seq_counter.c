/* Pattern 2: a per-communicator tag/sequence counter shared by all dups, built like the MPI
 * standard's own caching example (MPI 4.1 §7.7.6, Efficient_Collective_Op / gop_stuff): the
 * attribute points to a heap struct with a reference count; the copy callback increments the
 * count and returns the same pointer; the delete callback decrements it and frees the struct at
 * zero. Exercised through MPI_Comm_dup, MPI_Comm_idup, MPI_Comm_dup_with_info,
 * MPI_Comm_idup_with_info and frees in every order, plus overwrite and explicit delete.
 *
 * Standard MPI only. */
#include <mpi.h>
#include <stdlib.h>
#include "check.h"

typedef struct {
    int ref_count;
    int next_tag; /* the library's private tag sequence, shared by every dup */
    int magic;
} seq_stuff;

#define MAGIC 0x5e9c

static int seq_key = MPI_KEYVAL_INVALID;
static int structs_live = 0, structs_made = 0;
static int copies = 0, deletes = 0, bad_calls = 0;
static int extra_seen_ok = 1;
static int extra_token; /* its address is the keyval's extra_state */

static int seq_copier(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    seq_stuff *s = in;
    (void)oldcomm;
    copies++;
    if (keyval != seq_key || s == NULL || s->magic != MAGIC)
        bad_calls++;
    if (extra != &extra_token)
        extra_seen_ok = 0;
    s->ref_count++;
    *(seq_stuff **)out = s;
    *flag = 1;
    return MPI_SUCCESS;
}

static int seq_destructor(MPI_Comm comm, int keyval, void *val, void *extra)
{
    seq_stuff *s = val;
    (void)comm;
    deletes++;
    if (keyval != seq_key || s == NULL || s->magic != MAGIC || s->ref_count <= 0) {
        bad_calls++;
        return MPI_SUCCESS;
    }
    if (extra != &extra_token)
        extra_seen_ok = 0;
    if (--s->ref_count == 0) {
        s->magic = 0;
        free(s);
        structs_live--;
    }
    return MPI_SUCCESS;
}

static seq_stuff *seq_new(void)
{
    seq_stuff *s = malloc(sizeof *s);
    s->ref_count = 1;
    s->next_tag = 100;
    s->magic = MAGIC;
    structs_live++;
    structs_made++;
    return s;
}

/* The library entry point: the next private tag on comm (made on first use). */
static int next_tag(MPI_Comm comm, seq_stuff **out)
{
    seq_stuff *s = NULL;
    int found = 0;
    if (seq_key == MPI_KEYVAL_INVALID)
        MPI_Comm_create_keyval(seq_copier, seq_destructor, &seq_key, &extra_token);
    MPI_Comm_get_attr(comm, seq_key, &s, &found);
    if (!found) {
        s = seq_new();
        MPI_Comm_set_attr(comm, seq_key, s);
    }
    if (out)
        *out = s;
    return s->next_tag++;
}

static seq_stuff *lookup(MPI_Comm comm)
{
    seq_stuff *s = NULL;
    int found = 0;
    if (MPI_Comm_get_attr(comm, seq_key, &s, &found) != MPI_SUCCESS || !found)
        return NULL;
    return s;
}

#define NCOMM 5

/* Makes base (a dup of MPI_COMM_WORLD with the counter) and four dups of it by the four dup
 * calls; returns the shared struct. */
static seq_stuff *make_family(MPI_Comm c[NCOMM])
{
    MPI_Request req[2];
    seq_stuff *s = NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &c[0]);
    next_tag(c[0], &s);
    CHECK_EQ(MPI_Comm_dup(c[0], &c[1]), MPI_SUCCESS, "MPI 4.1 §7.4.2: MPI_Comm_dup");
    CHECK_EQ(MPI_Comm_dup_with_info(c[0], MPI_INFO_NULL, &c[2]), MPI_SUCCESS,
             "MPI 4.1 §7.4.2: MPI_Comm_dup_with_info");
    CHECK_EQ(MPI_Comm_idup(c[1], &c[3], &req[0]), MPI_SUCCESS, "MPI 4.1 §7.4.2: MPI_Comm_idup");
    CHECK_EQ(MPI_Comm_idup_with_info(c[2], MPI_INFO_NULL, &c[4], &req[1]), MPI_SUCCESS,
             "MPI 4.1 §7.4.2: MPI_Comm_idup_with_info");
    CHECK_EQ(MPI_Wait(&req[0], MPI_STATUS_IGNORE), MPI_SUCCESS, "MPI 4.1 §3.7.3: MPI_Wait");
    CHECK_EQ(MPI_Wait(&req[1], MPI_STATUS_IGNORE), MPI_SUCCESS, "MPI 4.1 §3.7.3: MPI_Wait");
    CHECK(req[0] == MPI_REQUEST_NULL && req[1] == MPI_REQUEST_NULL,
          "MPI 4.1 §3.7.3: a completed request becomes MPI_REQUEST_NULL");
    return s;
}

int main(int argc, char **argv)
{
    MPI_Comm c[NCOMM], split = MPI_COMM_NULL, wdup = MPI_COMM_NULL;
    seq_stuff *s = NULL, *s2 = NULL;
    int t0, t1, t2, i;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* ---- one family: every dup shares the struct, the count follows ---- */
    s = make_family(c);
    CHECK(s != NULL && s->magic == MAGIC, "next_tag made the struct");
    CHECK_EQ(copies, 4, "MPI 4.1 §7.7.2: the copy callback ran once per dup (dup, dup_with_info, "
                        "idup, idup_with_info)");
    CHECK_EQ(s ? s->ref_count : -1, 5, "MPI 4.1 §7.7.6: ref_count is 1 + one per dup");
    for (i = 0; i < NCOMM; i++)
        CHECK(lookup(c[i]) == s, "MPI 4.1 §7.7.2: the copy callback's attribute_val_out is the "
                                 "new communicator's attribute (same pointer everywhere)");
    CHECK(extra_seen_ok, "MPI 4.1 §7.7.2: callbacks get the keyval's extra_state");
    t0 = next_tag(c[3], NULL);
    t1 = next_tag(c[0], NULL);
    t2 = next_tag(c[4], NULL);
    CHECK(t1 == t0 + 1 && t2 == t1 + 1, "the sequence is shared by every dup");

    /* split and create never copy (MPI 4.1 §7.7.2: copy callbacks run only on dup) */
    MPI_Comm_split(c[0], 0, 0, &split);
    CHECK(lookup(split) == NULL, "MPI 4.1 §7.7.2: MPI_Comm_split copies no attribute");
    CHECK_EQ(copies, 4, "MPI 4.1 §7.7.2: no copy callback on split");
    next_tag(split, &s2);
    CHECK(s2 != s && s2 != NULL, "the split gets its own counter");
    MPI_Comm_free(&split);
    CHECK_EQ(structs_live, 1, "MPI 4.1 §7.7.2: freeing the split's only reference frees its struct");

    /* ---- frees in every order: 5! = 120 orders of freeing a fresh family ---- */
    MPI_Comm_free(&c[0]);
    MPI_Comm_free(&c[1]);
    MPI_Comm_free(&c[2]);
    MPI_Comm_free(&c[3]);
    MPI_Comm_free(&c[4]);
    CHECK_EQ(structs_live, 0, "MPI 4.1 §7.7.6: the last free frees the shared struct");
    {
        int perm[NCOMM], n = 0, bad_order = 0, bad_survivor = 0, bad_null = 0;
        int idx[NCOMM] = {0, 1, 2, 3, 4};
        /* Heap's algorithm over idx */
        int cnt[NCOMM] = {0};
        int k = 0;
        for (;;) {
            int alive = NCOMM;
            for (i = 0; i < NCOMM; i++)
                perm[i] = idx[i];
            s = make_family(c);
            for (i = 0; i < NCOMM; i++) {
                int j;
                MPI_Comm_free(&c[perm[i]]);
                alive--;
                if (c[perm[i]] != MPI_COMM_NULL)
                    bad_null++;
                if (alive > 0 && (structs_live != 1 || s->ref_count != alive))
                    bad_order++;
                for (j = i + 1; j < NCOMM; j++)
                    if (lookup(c[perm[j]]) != s)
                        bad_survivor++;
            }
            if (structs_live != 0)
                bad_order++;
            n++;
            /* next permutation */
            while (k < NCOMM) {
                if (cnt[k] < k) {
                    int a = (k % 2 == 0) ? 0 : cnt[k], tmp = idx[a];
                    idx[a] = idx[k];
                    idx[k] = tmp;
                    cnt[k]++;
                    k = 0;
                    break;
                }
                cnt[k] = 0;
                k++;
            }
            if (k >= NCOMM)
                break;
        }
        CHECK_EQ(n, 120, "all 120 free orders were tried");
        CHECK_EQ(bad_order, 0, "MPI 4.1 §7.7.2, §7.7.6: each free runs the delete callback once: "
                               "the count drops by one and the struct goes with the last one");
        CHECK_EQ(bad_survivor, 0, "MPI 4.1 §7.7: the surviving dups still see the shared struct");
        CHECK_EQ(bad_null, 0, "MPI 4.1 §7.4.3: MPI_Comm_free sets the handle to MPI_COMM_NULL");
    }
    CHECK_EQ(copies, 4 * 121, "MPI 4.1 §7.7.2: one copy per dup over all families");
    CHECK_EQ(deletes, copies + structs_made, "MPI 4.1 §7.7.2: one delete per attribute instance");

    /* ---- overwrite and explicit delete on a member of a family ---- */
    s = make_family(c);
    s2 = seq_new();
    CHECK_EQ(MPI_Comm_set_attr(c[2], seq_key, s2), MPI_SUCCESS,
             "MPI 4.1 §7.7.3: MPI_Comm_set_attr on a set attribute");
    CHECK_EQ(s->ref_count, 4, "MPI 4.1 §7.7.3: overwriting runs the delete callback on the old "
                              "value (count 5 -> 4)");
    CHECK(lookup(c[2]) == s2 && lookup(c[1]) == s, "only c[2] has the new value");
    CHECK_EQ(MPI_Comm_delete_attr(c[1], seq_key), MPI_SUCCESS, "MPI 4.1 §7.7.3: MPI_Comm_delete_attr");
    CHECK_EQ(s->ref_count, 3, "MPI 4.1 §7.7.3: delete runs the delete callback (count 4 -> 3)");
    CHECK(lookup(c[1]) == NULL, "the deleted attribute is gone");
    CHECK_EQ(MPI_Comm_delete_attr(c[1], seq_key), MPI_SUCCESS,
             "MPI 4.1 §7.7.3 / README: deleting an attribute that is not set is not an error");
    CHECK_EQ(s->ref_count, 3, "... and calls nothing");
    /* a dup of c[2] shares s2, not s */
    {
        MPI_Comm d = MPI_COMM_NULL;
        MPI_Comm_dup(c[2], &d);
        CHECK(lookup(d) == s2 && s2->ref_count == 2, "MPI 4.1 §7.7.2: the dup copies the new value");
        /* Free the keyval while in use (legal, MPI 4.1 §7.7.2): the attributes keep working and
         * still get their delete callbacks. Remember the number for our callbacks' check. */
        {
            int kept = seq_key, rc = MPI_Comm_free_keyval(&seq_key);
            CHECK_EQ(rc, MPI_SUCCESS, "MPI 4.1 §7.7.2: freeing a keyval in use is not erroneous");
            CHECK(seq_key == MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.2: the variable becomes INVALID");
            seq_key = kept; /* our callbacks compare against it */
        }
        MPI_Comm_free(&d);
        CHECK_EQ(s2->ref_count, 1, "MPI 4.1 §7.7.2: delete callback of a freed keyval still runs");
    }
    for (i = NCOMM - 1; i >= 0; i--)
        MPI_Comm_free(&c[i]);
    CHECK_EQ(structs_live, 0, "every struct freed once its last communicator is freed");

    /* ---- the counter on MPI_COMM_WORLD (a freed keyval cannot make new attributes: a fresh
     * library instance creates a new one), and a dup left to MPI_Finalize ---- */
    seq_key = MPI_KEYVAL_INVALID;
    next_tag(MPI_COMM_WORLD, &s);
    MPI_Comm_dup(MPI_COMM_WORLD, &wdup);
    CHECK(lookup(wdup) == s && s->ref_count == 2, "MPI 4.1 §7.7.2: a dup of MPI_COMM_WORLD shares it");
    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI 4.1 §11.2.2: MPI_Finalize");
    CHECK_EQ(structs_live, 0, "README Documented outcomes: MPI_Finalize deletes the attributes "
                              "of MPI_COMM_WORLD and of the dup not freed, once each");
    CHECK_EQ(bad_calls, 0, "MPI 4.1 §7.7.2: callbacks always got their keyval and a live struct");
    CHECK_EQ(deletes, copies + structs_made, "MPI 4.1 §7.7.2: one delete per attribute instance");
    return check_summary("seq_counter");
}
