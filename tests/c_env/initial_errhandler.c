/* MPI 4.1 §9.3: the initial error handler handles errors raised before MPI_Init, and
 * MPI_COMM_WORLD and MPI_COMM_SELF start with it. Run with
 * MPICACHE_INITIAL_ERRHANDLER=mpi_errors_return (what `mpiexec -initial-errhandler
 * mpi_errors_return` passes): the errors below return instead of aborting. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int failures = 0, k, flag, rc;
    void *v;
    /* MPI 4.1 §11.2.1: a call before MPI_Init is erroneous; the initial handler returns it. */
    rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL);
    if (rc == MPI_SUCCESS) { printf("FAIL: a call before MPI_Init succeeded\n"); failures++; }
    MPI_Init(&argc, &argv);
    MPI_Errhandler e;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &e);
    if (e != MPI_ERRORS_RETURN) { printf("FAIL: MPI_COMM_WORLD did not start with the initial handler\n"); failures++; }
    MPI_Errhandler_free(&e);
    MPI_Comm_get_errhandler(MPI_COMM_SELF, &e);
    if (e != MPI_ERRORS_RETURN) { printf("FAIL: MPI_COMM_SELF did not start with the initial handler\n"); failures++; }
    MPI_Errhandler_free(&e);
    rc = MPI_Comm_get_attr(MPI_COMM_WORLD, 999, &v, &flag);
    if (rc != MPI_ERR_KEYVAL) { printf("FAIL: unknown keyval returned %d, not MPI_ERR_KEYVAL\n", rc); failures++; }
    MPI_Finalize();
    printf("%d passed, %d failed\n", 4 - failures, failures);
    return failures != 0;
}
