/* The profiling interface (MPI 4.1 §15.2): every MPI_ function can be intercepted by a user
 * function of the same name that calls the PMPI_ twin. This program defines its own
 * MPI_Comm_get_attr, which counts calls and forwards to PMPI_Comm_get_attr; the library's
 * other functions are unaffected and the value read through the wrapper is the real one. */
#include <mpi.h>
#include "check.h"

static int intercepted = 0;

int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    intercepted++;
    return PMPI_Comm_get_attr(comm, comm_keyval, attribute_val, flag);
}

int main(int argc, char **argv)
{
    int keyval, flag = 0, x = 41;
    int *val = NULL, *tag_ub = NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &x);

    CHECK_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &val, &flag), MPI_SUCCESS,
             "MPI 4.1 §15.2: the intercepted call returns what PMPI_Comm_get_attr returns");
    CHECK_EQ(intercepted, 1, "MPI 4.1 §15.2: the user's MPI_Comm_get_attr is the one called");
    CHECK(flag && val == &x, "MPI 4.1 §15.2: the value comes through the PMPI_ call");
    CHECK_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag), MPI_SUCCESS,
             "MPI 4.1 §15.2: the intercepted call on a predefined attribute");
    CHECK_EQ(intercepted, 2, "MPI 4.1 §15.2: every call goes through the wrapper");
    CHECK(flag && tag_ub != NULL && *tag_ub >= 32767, "MPI 4.1 §9.1.2: MPI_TAG_UB through the wrapper");

    /* The PMPI_ twin itself answers directly, without the wrapper. */
    val = NULL;
    CHECK_EQ(PMPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &val, &flag), MPI_SUCCESS,
             "MPI 4.1 §15.2: PMPI_Comm_get_attr is callable directly");
    CHECK_EQ(intercepted, 2, "MPI 4.1 §15.2: PMPI_ calls are not intercepted");
    CHECK(flag && val == &x, "MPI 4.1 §15.2: PMPI_Comm_get_attr reads the same value");

    MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval);
    MPI_Comm_free_keyval(&keyval);
    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI 4.1 §11.2.2 MPI_Finalize");
    return check_summary("pmpi");
}
