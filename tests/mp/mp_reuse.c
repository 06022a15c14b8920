/* Handles handed out again (issue 17), standard MPI only: run on 1, 2 and 4 processes by
 * tests/layer_programs.rs over each engine, with the layer.
 *
 * The engines reuse the handles of freed objects (MPICH its handle slots, Open MPI the memory of
 * its objects): the layer, which knows objects by their handles, must not show a new object the
 * attributes of the one its handle named before. Each round makes an object with a constructor
 * the layer does not intercept (MPI_Comm_split, MPI_Type_contiguous, MPI_Win_create) or with a
 * dup, sets an attribute, frees the object (its delete callback runs once), makes the next one
 * and checks that it has no attribute. How many new objects got a freed handle back is printed:
 * the rule is checked either way, and the count says how often the case arose. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

enum { ROUNDS = 40 };

static int rank;
static int comm_deletes, type_deletes, win_deletes;

static int comm_delete(MPI_Comm c, int k, void *val, void *extra)
{
    (void)c, (void)k, (void)val, (void)extra;
    comm_deletes++;
    return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype t, int k, void *val, void *extra)
{
    (void)t, (void)k, (void)val, (void)extra;
    type_deletes++;
    return MPI_SUCCESS;
}

static int win_delete(MPI_Win w, int k, void *val, void *extra)
{
    (void)w, (void)k, (void)val, (void)extra;
    win_deletes++;
    return MPI_SUCCESS;
}

/* Communicators: from MPI_Comm_split (not intercepted) and from MPI_Comm_dup (intercepted). */
static void comms(int use_dup)
{
    int k, flag, reused = 0;
    void *v;
    MPI_Comm c, prev = MPI_COMM_NULL;
    comm_deletes = 0;
    CHECK_EQ(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, comm_delete, &k, NULL), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: MPI_Comm_create_keyval");
    for (int i = 0; i < ROUNDS; i++) {
        if (use_dup)
            CHECK_EQ(MPI_Comm_dup(MPI_COMM_WORLD, &c), MPI_SUCCESS, "MPI 4.1 §7.4.2: MPI_Comm_dup");
        else
            CHECK_EQ(MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &c), MPI_SUCCESS,
                     "MPI 4.1 §7.4.2: MPI_Comm_split");
        reused += c == prev;
        flag = -1;
        CHECK_EQ(MPI_Comm_get_attr(c, k, &v, &flag), MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Comm_get_attr");
        CHECK(flag == 0, "MPI 4.1 §7.7.2: a new communicator has no attribute, whatever its handle "
                         "named before");
        CHECK_EQ(MPI_Comm_set_attr(c, k, (void *)(intptr_t)(i + 1)), MPI_SUCCESS,
                 "MPI 4.1 §7.7.2: MPI_Comm_set_attr");
        CHECK_EQ(MPI_Comm_get_attr(c, k, &v, &flag), MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Comm_get_attr");
        CHECK(flag == 1 && v == (void *)(intptr_t)(i + 1), "MPI 4.1 §7.7.2: the value set reads back");
        prev = c;
        CHECK_EQ(MPI_Comm_free(&c), MPI_SUCCESS, "MPI 4.1 §7.4.3: MPI_Comm_free");
    }
    CHECK_EQ(comm_deletes, ROUNDS,
             "MPI 4.1 §7.7.2: every communicator's free ran its attribute's delete callback once");
    CHECK_EQ(MPI_Comm_free_keyval(&k), MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Comm_free_keyval");
    printf("mp_reuse rank %d: %s: %d of %d new communicators had the freed one's handle\n", rank,
           use_dup ? "MPI_Comm_dup" : "MPI_Comm_split", reused, ROUNDS - 1);
}

/* Datatypes: from MPI_Type_contiguous (not intercepted) and from MPI_Type_dup (intercepted). */
static void types(int use_dup)
{
    int k, flag, reused = 0;
    void *v;
    MPI_Datatype t, prev = MPI_DATATYPE_NULL;
    type_deletes = 0;
    CHECK_EQ(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete, &k, NULL), MPI_SUCCESS,
             "MPI 4.1 §7.7.4: MPI_Type_create_keyval");
    for (int i = 0; i < ROUNDS; i++) {
        if (use_dup)
            CHECK_EQ(MPI_Type_dup(MPI_INT, &t), MPI_SUCCESS, "MPI 4.1 §5.1.10: MPI_Type_dup");
        else
            CHECK_EQ(MPI_Type_contiguous(2 + i % 3, MPI_INT, &t), MPI_SUCCESS,
                     "MPI 4.1 §5.1.2: MPI_Type_contiguous");
        reused += t == prev;
        flag = -1;
        CHECK_EQ(MPI_Type_get_attr(t, k, &v, &flag), MPI_SUCCESS, "MPI 4.1 §7.7.4: MPI_Type_get_attr");
        CHECK(flag == 0, "MPI 4.1 §7.7.4: a new datatype has no attribute, whatever its handle "
                         "named before");
        CHECK_EQ(MPI_Type_set_attr(t, k, (void *)(intptr_t)(i + 1)), MPI_SUCCESS,
                 "MPI 4.1 §7.7.4: MPI_Type_set_attr");
        CHECK_EQ(MPI_Type_get_attr(t, k, &v, &flag), MPI_SUCCESS, "MPI 4.1 §7.7.4: MPI_Type_get_attr");
        CHECK(flag == 1 && v == (void *)(intptr_t)(i + 1), "MPI 4.1 §7.7.4: the value set reads back");
        prev = t;
        CHECK_EQ(MPI_Type_free(&t), MPI_SUCCESS, "MPI 4.1 §5.1.11: MPI_Type_free");
    }
    CHECK_EQ(type_deletes, ROUNDS,
             "MPI 4.1 §7.7.4: every datatype's free ran its attribute's delete callback once");
    CHECK_EQ(MPI_Type_free_keyval(&k), MPI_SUCCESS, "MPI 4.1 §7.7.4: MPI_Type_free_keyval");
    printf("mp_reuse rank %d: %s: %d of %d new datatypes had the freed one's handle\n", rank,
           use_dup ? "MPI_Type_dup" : "MPI_Type_contiguous", reused, ROUNDS - 1);
}

/* Windows: from MPI_Win_create (not intercepted). */
static void wins(void)
{
    int k, flag, reused = 0;
    void *v;
    static int buf[4];
    MPI_Win w, prev = MPI_WIN_NULL;
    win_deletes = 0;
    CHECK_EQ(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &k, NULL), MPI_SUCCESS,
             "MPI 4.1 §7.7.3: MPI_Win_create_keyval");
    for (int i = 0; i < ROUNDS / 4; i++) {
        CHECK_EQ(MPI_Win_create(buf, sizeof buf, sizeof buf[0], MPI_INFO_NULL, MPI_COMM_WORLD, &w),
                 MPI_SUCCESS, "MPI 4.1 §12.2.1: MPI_Win_create");
        reused += w == prev;
        flag = -1;
        CHECK_EQ(MPI_Win_get_attr(w, k, &v, &flag), MPI_SUCCESS, "MPI 4.1 §7.7.3: MPI_Win_get_attr");
        CHECK(flag == 0, "MPI 4.1 §7.7.3: a new window has no attribute, whatever its handle "
                         "named before");
        CHECK_EQ(MPI_Win_set_attr(w, k, (void *)(intptr_t)(i + 1)), MPI_SUCCESS,
                 "MPI 4.1 §7.7.3: MPI_Win_set_attr");
        CHECK_EQ(MPI_Win_get_attr(w, k, &v, &flag), MPI_SUCCESS, "MPI 4.1 §7.7.3: MPI_Win_get_attr");
        CHECK(flag == 1 && v == (void *)(intptr_t)(i + 1), "MPI 4.1 §7.7.3: the value set reads back");
        prev = w;
        CHECK_EQ(MPI_Win_free(&w), MPI_SUCCESS, "MPI 4.1 §12.2.5: MPI_Win_free");
    }
    CHECK_EQ(win_deletes, ROUNDS / 4,
             "MPI 4.1 §7.7.3: every window's free ran its attribute's delete callback once");
    CHECK_EQ(MPI_Win_free_keyval(&k), MPI_SUCCESS, "MPI 4.1 §7.7.3: MPI_Win_free_keyval");
    printf("mp_reuse rank %d: MPI_Win_create: %d of %d new windows had the freed one's handle\n",
           rank, reused, ROUNDS / 4 - 1);
}

int main(int argc, char **argv)
{
    char name[48];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    comms(0);
    comms(1);
    types(0);
    types(1);
    wins();
    MPI_Finalize();
    snprintf(name, sizeof name, "mp_reuse rank %d", rank);
    return check_summary(name);
}
