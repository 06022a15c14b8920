/* Delete callbacks at MPI_Finalize.
 * MPI 4.1 §11.2.4 (allowing user functions at process termination): MPI_Finalize first frees
 * MPI_COMM_SELF as if by MPI_Comm_free, so the delete callbacks of its attributes run, in the
 * reverse order of that in which they were set, before anything else is finalized; inside them
 * MPI_Finalized reports false (§11.2.4: "the freeing of MPI_COMM_SELF occurs before any other
 * parts of MPI are affected", so MPI_FINALIZED returns false in any of these callbacks).
 * docs/DESIGN.md: every attribute left anywhere gets its delete callback once at MPI_Finalize, after
 * MPI_COMM_SELF's (MPI_COMM_WORLD next). */
#include <mpi.h>
#include <stdio.h>
#include "check.h"

#define N 4

static int order[N + 1];
static int finalized_inside[N + 1];
static int ncalls = 0;

static int delete_fn(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state)
{
    int finalized = -1;
    (void)comm;
    (void)keyval;
    (void)extra_state;
    MPI_Finalized(&finalized);
    if (ncalls < N + 1) {
        order[ncalls] = (int)(MPI_Aint)attribute_val;
        finalized_inside[ncalls] = finalized;
    }
    ncalls++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int keyvals[N], world_keyval, i, finalized = -1;

    MPI_Init(&argc, &argv);
    for (i = 0; i < N; i++)
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &keyvals[i], NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &world_keyval, NULL);

    /* Set in the order 1 2 3 4, but not in keyval order: the 3rd keyval first. */
    MPI_Comm_set_attr(MPI_COMM_SELF, keyvals[2], (void *)1);
    MPI_Comm_set_attr(MPI_COMM_SELF, keyvals[0], (void *)2);
    MPI_Comm_set_attr(MPI_COMM_SELF, keyvals[3], (void *)3);
    MPI_Comm_set_attr(MPI_COMM_SELF, keyvals[1], (void *)4);
    MPI_Comm_set_attr(MPI_COMM_WORLD, world_keyval, (void *)100);
    /* Freeing the keyvals does not stop the callbacks (MPI 4.1 §7.7.2). */
    MPI_Comm_free_keyval(&keyvals[3]);

    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI 4.1 §11.2.2 MPI_Finalize");
    MPI_Finalized(&finalized);
    CHECK_EQ(finalized, 1, "MPI 4.1 §11.2.1: MPI_Finalized is true after MPI_Finalize");

    printf("delete callbacks ran in order:");
    for (i = 0; i < ncalls && i < N + 1; i++)
        printf(" %d (finalized=%d)", order[i], finalized_inside[i]);
    printf("\n");

    CHECK(ncalls >= N, "MPI 4.1 §11.2.4: MPI_Finalize runs the delete callbacks of MPI_COMM_SELF");
    for (i = 0; i < N && i < ncalls; i++) {
        CHECK_EQ(order[i], N - i, "MPI 4.1 §11.2.4: MPI_COMM_SELF's attributes are deleted in reverse order of setting");
        CHECK_EQ(finalized_inside[i], 0, "MPI 4.1 §11.2.4: MPI_Finalized is false inside the callbacks");
    }
    CHECK_EQ(ncalls, N + 1, "docs/DESIGN.md: every remaining attribute gets its delete callback once at MPI_Finalize");
    if (ncalls == N + 1)
        CHECK_EQ(order[N], 100, "docs/DESIGN.md: MPI_COMM_WORLD's attributes are deleted after MPI_COMM_SELF's");
    return check_summary("attr_finalize");
}
