/* Status conversions between C, Fortran and mpi_f08 (MPI 4.1 §19.3.5). */
#include <mpi.h>
#include <stddef.h>
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Status c, back;
    MPI_F08_status f08, f08b;
    MPI_Fint f[MPI_F_STATUS_SIZE];
    int a = 7, b = 0, n = -1, flag = -1;

    MPI_Init(&argc, &argv);
    CHECK(sizeof(MPI_F08_status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint),
          "MPI 4.1 §19.3.5: MPI_F08_status holds MPI_F_STATUS_SIZE Fortran INTEGERs");
    CHECK(offsetof(MPI_F08_status, MPI_SOURCE) == MPI_F_SOURCE * sizeof(MPI_Fint) &&
              offsetof(MPI_F08_status, MPI_TAG) == MPI_F_TAG * sizeof(MPI_Fint) &&
              offsetof(MPI_F08_status, MPI_ERROR) == MPI_F_ERROR * sizeof(MPI_Fint),
          "MPI 4.1 §19.3.5: MPI_SOURCE, MPI_TAG, MPI_ERROR at the MPI_F_ indexes");

    /* A real status: a received message of one int, tag 9. */
    MPI_Send(&a, 1, MPI_INT, 0, 9, MPI_COMM_SELF);
    MPI_Recv(&b, 1, MPI_INT, 0, 9, MPI_COMM_SELF, &c);

    CHECK_EQ(MPI_Status_c2f08(&c, &f08), MPI_SUCCESS, "MPI 4.1 §19.3.5: MPI_Status_c2f08");
    CHECK(f08.MPI_SOURCE == 0 && f08.MPI_TAG == 9 && f08.MPI_ERROR == c.MPI_ERROR,
          "MPI 4.1 §19.3.5: the public fields carry over to the f08 status");
    CHECK_EQ(MPI_Status_f082f(&f08, f), MPI_SUCCESS, "MPI 4.1 §19.3.5: MPI_Status_f082f");
    CHECK(f[MPI_F_SOURCE] == 0 && f[MPI_F_TAG] == 9, "MPI 4.1 §19.3.5: the Fortran status's fields");
    CHECK_EQ(MPI_Status_f2f08(f, &f08b), MPI_SUCCESS, "MPI 4.1 §19.3.5: MPI_Status_f2f08");
    CHECK_EQ(MPI_Status_f082c(&f08b, &back), MPI_SUCCESS, "MPI 4.1 §19.3.5: MPI_Status_f082c");
    CHECK(back.MPI_SOURCE == 0 && back.MPI_TAG == 9, "MPI 4.1 §19.3.5: the round trip keeps the fields");
    /* The hidden fields survive: the count and the cancelled flag of the round-tripped status. */
    MPI_Get_count(&back, MPI_INT, &n);
    CHECK_EQ(n, 1, "MPI 4.1 §19.3.5: the count survives C -> f08 -> Fortran -> f08 -> C");
    MPI_Status_set_cancelled(&c, 1);
    MPI_Status_c2f08(&c, &f08);
    MPI_Status_f082c(&f08, &back);
    MPI_Test_cancelled(&back, &flag);
    CHECK_EQ(flag, 1, "MPI 4.1 §19.3.5: the cancelled flag survives the conversions");

    /* The f08 ignore sentinels exist and are not statuses to convert. */
    CHECK(MPI_F08_STATUS_IGNORE != NULL && MPI_F08_STATUSES_IGNORE != NULL &&
              MPI_F08_STATUS_IGNORE != MPI_F08_STATUSES_IGNORE,
          "MPI 4.1 §19.3.5: MPI_F08_STATUS_IGNORE and MPI_F08_STATUSES_IGNORE are distinct addresses");
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    CHECK_EQ(MPI_Status_f082c(MPI_F08_STATUS_IGNORE, &back), MPI_ERR_ARG,
             "MPI 4.1 §19.3.5: MPI_F08_STATUS_IGNORE is not a status to convert");
    CHECK_EQ(MPI_Status_c2f08(&c, MPI_F08_STATUSES_IGNORE), MPI_ERR_ARG,
             "MPI 4.1 §19.3.5: MPI_F08_STATUSES_IGNORE is not a status to write");
    CHECK_EQ(MPI_Status_c2f08(NULL, &f08), MPI_ERR_ARG, "MPI 4.1 §19.3.5: a NULL status");
    MPI_Finalize();
    return check_summary("status_f08");
}
