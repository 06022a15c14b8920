/* Sets, reads and deletes an attribute, copies it with MPI_Comm_dup (MPI_COMM_DUP_FN), and reads
 * the predefined MPI_TAG_UB (MPI 4.1 §7.7, §9.1.2). Prints "attr_c: ok" when all is as the
 * standard says. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int keyval, flag = 0, value = 42, errors = 0;
    int *got = NULL, *tag_ub = NULL;
    MPI_Comm dup;

    MPI_Init(&argc, &argv);
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &value);
    MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &got, &flag);
    if (!flag || got != &value) { printf("attr_c: get after set failed\n"); errors++; }

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_get_attr(dup, keyval, &got, &flag);
    if (!flag || got != &value) { printf("attr_c: MPI_COMM_DUP_FN did not copy\n"); errors++; }
    MPI_Comm_free(&dup);

    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
    if (!flag || *tag_ub < 32767) { printf("attr_c: MPI_TAG_UB < 32767\n"); errors++; }

    MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval);
    MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &got, &flag);
    if (flag) { printf("attr_c: attribute still set after delete\n"); errors++; }
    MPI_Comm_free_keyval(&keyval);
    MPI_Finalize();
    if (errors == 0)
        printf("attr_c: ok (MPI_TAG_UB = %d)\n", *tag_ub);
    return errors != 0;
}
