/* MPI_ERRORS_ARE_FATAL is the default handler of MPI_COMM_WORLD (MPI 4.1 §9.3): an invalid
 * keyval in MPI_Comm_get_attr (MPI_ERR_KEYVAL, §9.4) ends the program. The test harness expects
 * a non-zero exit and one stderr line naming the call, the error class and the keyval; the words
 * it looks for are printed first on stdout after "expect-fatal:". */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    const int unknown = 987654;
    void *val = NULL;
    int flag = 0;

    MPI_Init(&argc, &argv);
    printf("expect-fatal: MPI_Comm_get_attr MPI_ERR_KEYVAL %d\n", unknown);
    fflush(stdout);
    MPI_Comm_get_attr(MPI_COMM_WORLD, unknown, &val, &flag);
    printf("FAILED: MPI_Comm_get_attr returned under MPI_ERRORS_ARE_FATAL\n");
    MPI_Finalize();
    return 0;
}
