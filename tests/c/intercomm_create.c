/* Intercommunicator construction in one process (MPI 4.1 §7.6.2): the two groups must be
 * disjoint, and one process cannot be on both sides, so each call fails with the error for
 * its arguments and creates nothing. */
#include <mpi.h>
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Comm inter = MPI_COMM_WORLD;
    MPI_Group world, empty = MPI_GROUP_EMPTY;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_group(MPI_COMM_WORLD, &world);

    CHECK_EQ(MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_WORLD, 0, 5, &inter), MPI_ERR_RANK,
             "MPI 4.1 §7.6.2: the remote leader is the local leader itself: groups overlap");
    CHECK(inter == MPI_COMM_NULL, "no intercommunicator is made");
    CHECK_EQ(MPI_Intercomm_create(MPI_COMM_WORLD, 1, MPI_COMM_WORLD, 0, 5, &inter), MPI_ERR_RANK,
             "MPI 4.1 §7.6.2: local_leader must be a rank of local_comm");
    CHECK_EQ(MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_WORLD, 3, 5, &inter), MPI_ERR_RANK,
             "MPI 4.1 §7.6.2: remote_leader must be a rank of peer_comm");
    CHECK_EQ(MPI_Intercomm_create(MPI_COMM_NULL, 0, MPI_COMM_WORLD, 0, 5, &inter), MPI_ERR_COMM,
             "MPI 4.1 §7.6.2: local_comm must be a communicator");
    CHECK_EQ(MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_WORLD, 0, -2, &inter), MPI_ERR_TAG,
             "MPI 4.1 §7.6.2: tag is a valid tag");

    CHECK_EQ(MPI_Intercomm_create_from_groups(world, 0, world, 0, "t", MPI_INFO_NULL,
                                              MPI_ERRORS_RETURN, &inter),
             MPI_ERR_GROUP, "MPI 4.1 §7.6.2: local and remote groups are not disjoint");
    CHECK_EQ(MPI_Intercomm_create_from_groups(empty, 0, world, 0, "t", MPI_INFO_NULL,
                                              MPI_ERRORS_RETURN, &inter),
             MPI_ERR_GROUP, "MPI 4.1 §7.6.2: the caller must be in local_group");
    CHECK_EQ(MPI_Intercomm_create_from_groups(world, 0, empty, 0, "t", MPI_INFO_NULL,
                                              MPI_ERRORS_RETURN, &inter),
             MPI_ERR_RANK, "MPI 4.1 §7.6.2: remote_leader must be a rank of remote_group");

    {
        MPI_Datatype t = MPI_INT;
        MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &t);
        CHECK(t == MPI_DOUBLE_INT, "MPI 4.1 §6.9.4: (double, int) pairs as MPI_DOUBLE_INT");
        MPI_Type_get_value_index(MPI_INTEGER, MPI_INTEGER, &t);
        CHECK(t == MPI_2INTEGER, "MPI 4.1 §6.9.4: (INTEGER, INTEGER) is MPI_2INTEGER");
        MPI_Type_get_value_index(MPI_CHAR, MPI_INT, &t);
        CHECK(t == MPI_DATATYPE_NULL, "MPI 4.1 §6.9.4: no pair type gives MPI_DATATYPE_NULL");
        CHECK_EQ(MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &t), MPI_ERR_TYPE,
                 "MPI 4.1 §6.9.4: the value type must be a datatype");
    }
    MPI_Group_free(&world);
    MPI_Finalize();
    return check_summary("intercomm_create");
}
