/* Pattern 1: the PETSc-style "inner communicator" (PetscCommDuplicate / PetscCommDestroy).
 *
 * A library never communicates on the user's communicator. The first time it sees one, it
 * lazily creates its keyvals, dups the user's ("outer") communicator into an "inner" one, caches
 * the inner handle as an attribute on the outer communicator and a back-reference to the outer
 * one as an attribute on the inner communicator. The outer attribute's delete callback frees the
 * inner communicator -- MPI_Comm_free called from inside a delete callback -- which in turn runs
 * the back-reference's delete callback (a delete callback nested in a delete callback).
 *
 * Used on MPI_COMM_WORLD (cleaned up inside MPI_Finalize), on user dups freed explicitly, and on a
 * user dup the program forgets to free. Every callback must run exactly once, and no inner
 * communicator may be freed twice.
 *
 * Standard MPI only. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* ---------------------------------------------------------------- the "library" ---- */

typedef struct {
    MPI_Comm comm;
} comm_box; /* MPI_Comm is not necessarily an int or a pointer: box it for portability */

static int lib_inner_keyval = MPI_KEYVAL_INVALID; /* on outer: comm_box* holding the inner comm */
static int lib_outer_keyval = MPI_KEYVAL_INVALID; /* on inner: comm_box* holding the outer comm */
static int inner_keyval_number = -1;  /* the numbers, kept: the callbacks still get them after */
static int outer_keyval_number = -1;  /* MPI_Comm_free_keyval set the variables to INVALID */
static int keyval_creations = 0;
static int inner_created = 0;     /* inner communicators made by lib_get_inner */
static int inner_deletes = 0;     /* runs of the outer attribute's delete callback */
static int backref_deletes = 0;   /* runs of the inner attribute's (back-reference's) delete callback */
static int inner_frees_ok = 0;    /* MPI_Comm_free(inner) inside the callback returned MPI_SUCCESS */
static int inner_frees_bad = 0;   /* ... returned anything else */
static int backref_nested = 0;    /* back-reference deleted while the outer delete was running */
static int backref_wrong = 0;     /* back-reference callback saw a comm/keyval it should not */
static int inner_wrong = 0;       /* outer-attribute callback saw a comm/keyval it should not */
static int finalized_inside = 0;  /* MPI_Finalized reported true inside a callback */
static int in_inner_delete = 0;
static int finalizing = 0;        /* set by the library's MPI_COMM_SELF hook (MPI 4.1 §11.2.4) */
static int boxes_live = 0;

#define MAX_INNER 16
static MPI_Comm inner_seen[MAX_INNER]; /* every inner comm created, to detect double frees */
static int inner_freed[MAX_INNER];

static comm_box *box_new(MPI_Comm c)
{
    comm_box *b = malloc(sizeof *b);
    b->comm = c;
    boxes_live++;
    return b;
}

static void box_free(comm_box *b)
{
    boxes_live--;
    free(b);
}

static void note_finalized(void)
{
    int fin = 1;
    MPI_Finalized(&fin);
    if (fin)
        finalized_inside = 1;
}

/* Back-reference on the inner communicator: runs when the inner communicator is freed. */
static int backref_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    comm_box *outer = val;
    (void)extra;
    backref_deletes++;
    note_finalized();
    if (keyval != outer_keyval_number || outer == NULL)
        backref_wrong++;
    if (in_inner_delete)
        backref_nested++;
    /* the object handed to the callback is the inner communicator being freed */
    {
        int known = 0;
        for (int i = 0; i < inner_created && i < MAX_INNER; i++)
            if (inner_seen[i] == comm)
                known = 1;
        if (!known)
            backref_wrong++;
    }
    box_free(outer);
    return MPI_SUCCESS;
}

/* The outer communicator's attribute: frees the inner communicator it caches. */
static int inner_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    comm_box *inner = val;
    MPI_Comm c;
    int rc, i;
    (void)extra;
    inner_deletes++;
    note_finalized();
    if (keyval != inner_keyval_number || inner == NULL) {
        inner_wrong++;
        return MPI_SUCCESS;
    }
    /* the back-reference on the inner communicator must name the communicator being freed
     * (only while the library still holds its keyval: after its free, MPI 4.1 §7.7.2, the
     * library's variable is MPI_KEYVAL_INVALID) */
    if (lib_outer_keyval != MPI_KEYVAL_INVALID) {
        comm_box *back = NULL;
        int flag = 0;
        rc = MPI_Comm_get_attr(inner->comm, lib_outer_keyval, &back, &flag);
        /* While MPI_Finalize sweeps communicators the program did not free, it may reach the
         * inner one first (the order among those is not promised): then the back-reference is
         * already gone. Anywhere else it must be there. */
        if (rc != MPI_SUCCESS || (!flag && !finalizing) || (flag && (back == NULL || back->comm != comm)))
            inner_wrong++;
    }
    for (i = 0; i < inner_created && i < MAX_INNER; i++)
        if (inner_seen[i] == inner->comm)
            break;
    if (i == inner_created || i == MAX_INNER)
        inner_wrong++;
    else if (inner_freed[i]++)
        inner_frees_bad++; /* the same inner communicator freed a second time */
    c = inner->comm;
    in_inner_delete = 1;
    rc = MPI_Comm_free(&c); /* MPI 4.1 §7.7.2: callbacks may call MPI, MPI_Comm_free included */
    in_inner_delete = 0;
    if (rc == MPI_SUCCESS && c == MPI_COMM_NULL)
        inner_frees_ok++;
    else
        inner_frees_bad++;
    box_free(inner);
    return MPI_SUCCESS;
}

/* Like PETSc, the library learns that MPI_Finalize has started from the delete callback of an
 * attribute on MPI_COMM_SELF, which MPI_Finalize frees first (MPI 4.1 §11.2.4). */
static int self_hook_runs = 0;
static int self_hook(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)keyval; (void)val; (void)extra;
    self_hook_runs++;
    if (comm != MPI_COMM_SELF)
        inner_wrong++;
    finalizing = 1;
    return MPI_SUCCESS;
}

/* PetscCommDuplicate: the library's private communicator for `outer`, made on first use. */
static int lib_get_inner(MPI_Comm outer, MPI_Comm *inner)
{
    comm_box *box = NULL;
    int flag = 0, rc;
    if (lib_inner_keyval == MPI_KEYVAL_INVALID) {
        keyval_creations++;
        /* a dup of the outer communicator must not share its inner one: null copy */
        rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, inner_delete, &lib_inner_keyval, NULL);
        if (rc != MPI_SUCCESS)
            return rc;
        rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, backref_delete, &lib_outer_keyval, NULL);
        if (rc != MPI_SUCCESS)
            return rc;
        inner_keyval_number = lib_inner_keyval;
        outer_keyval_number = lib_outer_keyval;
        {
            int hook = MPI_KEYVAL_INVALID;
            rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_hook, &hook, NULL);
            if (rc != MPI_SUCCESS)
                return rc;
            rc = MPI_Comm_set_attr(MPI_COMM_SELF, hook, NULL);
            if (rc != MPI_SUCCESS)
                return rc;
            rc = MPI_Comm_free_keyval(&hook); /* HDF5 does this too: the attribute stays */
            if (rc != MPI_SUCCESS)
                return rc;
        }
    }
    rc = MPI_Comm_get_attr(outer, lib_inner_keyval, &box, &flag);
    if (rc != MPI_SUCCESS)
        return rc;
    if (flag) {
        *inner = box->comm;
        return MPI_SUCCESS;
    }
    rc = MPI_Comm_dup(outer, inner);
    if (rc != MPI_SUCCESS)
        return rc;
    if (inner_created < MAX_INNER) {
        inner_seen[inner_created] = *inner;
        inner_freed[inner_created] = 0;
    }
    inner_created++;
    rc = MPI_Comm_set_attr(*inner, lib_outer_keyval, box_new(outer));
    if (rc != MPI_SUCCESS)
        return rc;
    return MPI_Comm_set_attr(outer, lib_inner_keyval, box_new(*inner));
}

/* PetscFinalize frees its keyvals while attributes made with them are still set on
 * MPI_COMM_WORLD: legal, the attributes keep their callbacks (MPI 4.1 §7.7.2). */
static void lib_free_keyvals(void)
{
    MPI_Comm_free_keyval(&lib_inner_keyval);
    MPI_Comm_free_keyval(&lib_outer_keyval);
}

/* ---------------------------------------------------------------- the "application" ---- */

int main(int argc, char **argv)
{
    MPI_Comm inner_w = MPI_COMM_NULL, inner_w2 = MPI_COMM_NULL, user = MPI_COMM_NULL;
    MPI_Comm inner_u = MPI_COMM_NULL, user_dup = MPI_COMM_NULL, inner_ud = MPI_COMM_NULL;
    MPI_Comm leaked = MPI_COMM_NULL, inner_l = MPI_COMM_NULL;
    int flag = 0, result = -1, rc;
    comm_box *box = NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* ---- on MPI_COMM_WORLD: created once, found again on the second call ---- */
    CHECK_EQ(lib_get_inner(MPI_COMM_WORLD, &inner_w), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: create keyval, dup, set attributes on MPI_COMM_WORLD and the dup");
    CHECK_EQ(lib_get_inner(MPI_COMM_WORLD, &inner_w2), MPI_SUCCESS,
             "MPI 4.1 §7.7.3: MPI_Comm_get_attr finds the cached inner communicator");
    CHECK(inner_w == inner_w2,
          "MPI 4.1 §7.7.3: the attribute returns the value stored (same inner communicator)");
    CHECK_EQ(keyval_creations, 1, "MPI 4.1 §7.7.2: the library creates its keyvals once, lazily");
    CHECK_EQ(inner_created, 1, "the second lookup does not dup again");
    CHECK(inner_w != MPI_COMM_WORLD, "MPI 4.1 §7.4.2: MPI_Comm_dup makes a new communicator");
    MPI_Comm_compare(MPI_COMM_WORLD, inner_w, &result);
    CHECK_EQ(result, MPI_CONGRUENT, "MPI 4.1 §7.4.1: a dup is congruent to its original");
    flag = 0;
    box = NULL;
    CHECK_EQ(MPI_Comm_get_attr(inner_w, lib_outer_keyval, &box, &flag), MPI_SUCCESS,
             "MPI 4.1 §7.7.3: get the back-reference on the inner communicator");
    CHECK(flag && box && box->comm == MPI_COMM_WORLD,
          "MPI 4.1 §7.7.3: the back-reference names MPI_COMM_WORLD");
    flag = 1;
    MPI_Comm_get_attr(inner_w, lib_inner_keyval, &box, &flag);
    CHECK(!flag, "MPI 4.1 §7.7.2: the inner communicator has no inner attribute of its own "
                 "(attributes are set on MPI_COMM_WORLD after the dup, and NULL_COPY anyway)");

    /* ---- on a user dup, freed explicitly ---- */
    MPI_Comm_dup(MPI_COMM_WORLD, &user);
    flag = 1;
    MPI_Comm_get_attr(user, lib_inner_keyval, &box, &flag);
    CHECK(!flag, "MPI 4.1 §7.7.2: MPI_COMM_NULL_COPY_FN does not copy the inner attribute to a dup");
    CHECK_EQ(lib_get_inner(user, &inner_u), MPI_SUCCESS, "lib_get_inner on a user dup");
    CHECK(inner_u != inner_w, "each outer communicator gets its own inner communicator");
    CHECK_EQ(inner_created, 2, "a second inner communicator was made");

    /* The user dups the outer communicator again: the dup is a new outer with no inner yet. */
    MPI_Comm_dup(user, &user_dup);
    flag = 1;
    MPI_Comm_get_attr(user_dup, lib_inner_keyval, &box, &flag);
    CHECK(!flag, "MPI 4.1 §7.7.2: NULL_COPY again on a dup of a dup");
    CHECK_EQ(lib_get_inner(user_dup, &inner_ud), MPI_SUCCESS, "lib_get_inner on a dup of a dup");
    CHECK_EQ(inner_created, 3, "a third inner communicator was made");

    /* Free the first user dup: its delete callback frees inner_u, whose back-reference
     * callback runs nested inside. */
    rc = MPI_Comm_free(&user);
    CHECK_EQ(rc, MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Comm_free runs the delete callback, "
                              "which may itself free a communicator");
    CHECK(user == MPI_COMM_NULL, "MPI 4.1 §7.4.3: MPI_Comm_free sets the handle to MPI_COMM_NULL");
    CHECK_EQ(inner_deletes, 1, "MPI 4.1 §7.7.2: the outer attribute's delete callback ran once");
    CHECK_EQ(backref_deletes, 1, "MPI 4.1 §7.7.2: freeing the inner comm deleted its back-reference");
    CHECK_EQ(backref_nested, 1, "the back-reference was deleted inside the outer's delete callback");
    CHECK_EQ(inner_frees_ok, 1, "MPI_Comm_free(inner) inside the delete callback succeeded");
    CHECK_EQ(inner_frees_bad, 0, "no inner communicator freed twice or freed with an error");

    /* The other outer communicators are untouched. */
    flag = 0;
    box = NULL;
    MPI_Comm_get_attr(user_dup, lib_inner_keyval, &box, &flag);
    CHECK(flag && box && box->comm == inner_ud,
          "MPI 4.1 §7.7: freeing one communicator leaves the attributes of others alone");
    flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, lib_inner_keyval, &box, &flag);
    CHECK(flag && box && box->comm == inner_w, "MPI_COMM_WORLD still caches its inner communicator");

    /* The library is still usable on the surviving inner communicator. */
    {
        int x = 41, y = 0;
        CHECK_EQ(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, inner_ud), MPI_SUCCESS,
                 "the inner communicator works");
        CHECK_EQ(y, 41, "MPI 4.1 §6.9.6: a one-process allreduce copies");
    }

    MPI_Comm_free(&user_dup);
    CHECK_EQ(inner_deletes, 2, "MPI 4.1 §7.7.2: second user dup's delete callback ran once");
    CHECK_EQ(backref_deletes, 2, "second back-reference deleted");
    CHECK_EQ(inner_frees_ok, 2, "second inner communicator freed");

    /* ---- a user dup the program forgets to free (README "Documented outcomes": MPI_Finalize
     * deletes the attributes of communicators the program did not free) ---- */
    MPI_Comm_dup(MPI_COMM_WORLD, &leaked);
    CHECK_EQ(lib_get_inner(leaked, &inner_l), MPI_SUCCESS, "lib_get_inner on a leaked dup");
    CHECK_EQ(inner_created, 4, "a fourth inner communicator was made");

    /* PetscFinalize: free the keyvals while WORLD and `leaked` still hold attributes. */
    lib_free_keyvals();
    CHECK(lib_inner_keyval == MPI_KEYVAL_INVALID && lib_outer_keyval == MPI_KEYVAL_INVALID,
          "MPI 4.1 §7.7.2: MPI_Comm_free_keyval sets the keyval to MPI_KEYVAL_INVALID");
    CHECK_EQ(inner_deletes, 2, "MPI 4.1 §7.7.2: freeing a keyval in use deletes no attribute");

    rc = MPI_Finalize();
    CHECK_EQ(rc, MPI_SUCCESS, "MPI 4.1 §11.2.2: MPI_Finalize succeeds");

    /* MPI_COMM_WORLD's and the leaked dup's inner communicators were freed inside MPI_Finalize
     * (README "Documented outcomes": every attribute still set gets its delete callback once). */
    CHECK_EQ(self_hook_runs, 1, "MPI 4.1 §11.2.4: MPI_Finalize frees MPI_COMM_SELF first: the "
                                "hook's delete callback ran once");
    CHECK_EQ(inner_deletes, 4, "README Documented outcomes / MPI 4.1 §11.2.4: the WORLD and leaked "
                               "outer attributes were deleted once each at MPI_Finalize");
    CHECK_EQ(backref_deletes, 4, "README Documented outcomes: every back-reference deleted once");
    CHECK_EQ(inner_frees_ok, 4, "README Documented outcomes: MPI_Comm_free inside a delete "
                                "callback run by MPI_Finalize succeeds");
    CHECK_EQ(inner_frees_bad, 0, "no inner communicator freed twice (one per outer)");
    CHECK_EQ(inner_wrong, 0, "MPI 4.1 §7.7.2: delete callbacks get their keyval and the object");
    CHECK_EQ(backref_wrong, 0, "MPI 4.1 §7.7.2: back-reference callbacks get their keyval and object");
    CHECK_EQ(finalized_inside, 0, "README Documented outcomes: MPI_Finalized is false inside the "
                                  "delete callbacks run by MPI_Finalize");
    CHECK_EQ(boxes_live, 0, "every box the library allocated was freed by a delete callback");
    return check_summary("inner_comm");
}
