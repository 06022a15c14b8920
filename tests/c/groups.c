/* Groups (MPI 4.1 §7.3) as programs use them to build communicators: every operation on the
 * groups of the one-process world, and MPI_Comm_create with the results. A communicator made by
 * MPI_Comm_create starts with no attributes (§7.7: only dup copies them). */
#include <mpi.h>
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Group world, empty_excl, incl, u, i, d, d2;
    MPI_Comm comm;
    int size, rank, result, k, flag, cls, rc;
    int zero = 0, out[2], in[2] = {0, MPI_PROC_NULL};
    int range[1][3] = {{0, 0, 1}};
    void *v;

    MPI_Init(&argc, &argv);
    /* Errors tied to no communicator go to MPI_COMM_SELF's handler (MPI 4.1 §9.3); older
     * implementations use MPI_COMM_WORLD's: set both, so the program is portable. */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_group(MPI_COMM_WORLD, &world);

    CHECK_EQ(MPI_Group_excl(world, 1, &zero, &empty_excl), MPI_SUCCESS, "MPI 4.1 §7.3.2 MPI_Group_excl");
    MPI_Group_size(empty_excl, &size);
    CHECK_EQ(size, 0, "MPI 4.1 §7.3.2: excluding the only member leaves an empty group");
    MPI_Group_compare(empty_excl, MPI_GROUP_EMPTY, &result);
    CHECK_EQ(result, MPI_IDENT, "MPI 4.1 §7.3.2: an empty result is MPI_GROUP_EMPTY");
    CHECK_EQ(MPI_Group_range_incl(world, 1, range, &incl), MPI_SUCCESS, "MPI 4.1 §7.3.2 MPI_Group_range_incl");

    CHECK_EQ(MPI_Group_translate_ranks(world, 2, in, incl, out), MPI_SUCCESS, "MPI 4.1 §7.3.1 MPI_Group_translate_ranks");
    CHECK(out[0] == 0 && out[1] == MPI_PROC_NULL, "MPI 4.1 §7.3.1: rank 0 maps to 0, MPI_PROC_NULL to MPI_PROC_NULL");
    MPI_Group_translate_ranks(world, 1, in, MPI_GROUP_EMPTY, out);
    CHECK_EQ(out[0], MPI_UNDEFINED, "MPI 4.1 §7.3.1: a rank absent from the second group is MPI_UNDEFINED");

    MPI_Group_union(MPI_GROUP_EMPTY, world, &u);
    MPI_Group_compare(u, world, &result);
    CHECK_EQ(result, MPI_IDENT, "MPI 4.1 §7.3.2: the union with the empty group is the group");
    MPI_Group_intersection(world, MPI_GROUP_EMPTY, &i);
    MPI_Group_size(i, &size);
    CHECK_EQ(size, 0, "MPI 4.1 §7.3.2: the intersection with the empty group is empty");
    MPI_Group_difference(world, incl, &d);
    MPI_Group_size(d, &size);
    CHECK_EQ(size, 0, "MPI 4.1 §7.3.2: a group minus itself is empty");
    MPI_Group_difference(world, MPI_GROUP_EMPTY, &d2);
    MPI_Group_rank(d2, &rank);
    CHECK_EQ(rank, 0, "MPI 4.1 §7.3.2: the difference keeps this process, rank 0");

    rc = MPI_Group_excl(world, 1, in + 1, &u);
    MPI_Error_class(rc, &cls);
    CHECK_EQ(cls, MPI_ERR_RANK, "MPI 4.1 §7.3.2: excluding a rank not in the group is MPI_ERR_RANK");

    /* MPI_Comm_create with the groups: a member gets a communicator, a non-member MPI_COMM_NULL. */
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, k, (void *)7);
    CHECK_EQ(MPI_Comm_create(MPI_COMM_WORLD, d2, &comm), MPI_SUCCESS, "MPI 4.1 §7.4.2 MPI_Comm_create");
    CHECK(comm != MPI_COMM_NULL, "MPI 4.1 §7.4.2: a member of the group gets the new communicator");
    MPI_Comm_get_attr(comm, k, &v, &flag);
    CHECK(!flag, "MPI 4.1 §7.7: MPI_Comm_create copies no attributes");
    MPI_Comm_free(&comm);
    MPI_Comm_create(MPI_COMM_WORLD, empty_excl, &comm);
    CHECK(comm == MPI_COMM_NULL, "MPI 4.1 §7.4.2: a process outside the group gets MPI_COMM_NULL");
    MPI_Comm_free_keyval(&k);

    MPI_Group_free(&world);
    MPI_Group_free(&empty_excl);
    MPI_Group_free(&incl);
    MPI_Group_free(&u);
    MPI_Group_free(&i);
    MPI_Group_free(&d);
    MPI_Group_free(&d2);
    MPI_Finalize();
    return check_summary("groups");
}
