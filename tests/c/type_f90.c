/* MPI_Type_create_f90_integer/real/complex (MPI 4.1 §19.1.9): a predefined type of the smallest
 * Fortran kind with the asked range / precision, MPI_ERR_ARG when there is none. */
#include <mpi.h>
#include "check.h"

static int cls(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    /* MPI 4.1 §9.3: errors of calls without an object go to MPI_COMM_SELF's handler. */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int size = 0;

    /* MPI 4.1 §19.1.9: range r means at least r decimal digits: 10^9 needs 4 bytes, 10^10 eight. */
    int ranges[] = {2, 4, 9, 10, 18}, isizes[] = {1, 2, 4, 8, 8};
    for (int i = 0; i < 5; i++) {
        CHECK_EQ(MPI_Type_create_f90_integer(ranges[i], &t), MPI_SUCCESS,
                 "MPI 4.1 §19.1.9: MPI_Type_create_f90_integer for a representable range");
        MPI_Type_size(t, &size);
        CHECK_EQ(size, isizes[i], "MPI 4.1 §19.1.9: the smallest integer kind with the range");
    }
    MPI_Type_create_f90_integer(9, &t);
    CHECK(t == MPI_INTEGER4, "MPI 4.1 §19.1.9: the predefined sized type of that kind");
    CHECK_EQ(cls(MPI_Type_create_f90_integer(100, &t)), MPI_ERR_ARG,
             "MPI 4.1 §19.1.9: no integer kind with range 100");

    /* Precision 6 / range 37 is single precision, 15 / 307 double. */
    CHECK_EQ(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &t), MPI_SUCCESS,
             "MPI 4.1 §19.1.9: r may be MPI_UNDEFINED");
    MPI_Type_size(t, &size);
    CHECK_EQ(size, 4, "MPI 4.1 §19.1.9: precision 6 is a 4-byte real");
    MPI_Type_create_f90_real(7, 30, &t);
    MPI_Type_size(t, &size);
    CHECK_EQ(size, 8, "MPI 4.1 §19.1.9: precision 7 needs an 8-byte real");
    MPI_Type_create_f90_real(MPI_UNDEFINED, 308, &t);
    MPI_Type_size(t, &size);
    CHECK(size > 8, "MPI 4.1 §19.1.9: range 308 is beyond double precision");
    CHECK_EQ(cls(MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &t)), MPI_ERR_ARG,
             "MPI 4.1 §19.1.9: p and r both MPI_UNDEFINED is erroneous");
    CHECK_EQ(cls(MPI_Type_create_f90_real(100, 10, &t)), MPI_ERR_ARG,
             "MPI 4.1 §19.1.9: no real kind with precision 100");

    CHECK_EQ(MPI_Type_create_f90_complex(15, 300, &t), MPI_SUCCESS,
             "MPI 4.1 §19.1.9: MPI_Type_create_f90_complex");
    MPI_Type_size(t, &size);
    CHECK_EQ(size, 16, "MPI 4.1 §19.1.9: a complex of two 8-byte reals");
    CHECK_EQ(cls(MPI_Type_create_f90_complex(40, 10, &t)), MPI_ERR_ARG,
             "MPI 4.1 §19.1.9: no complex kind with precision 40");

    MPI_Finalize();
    return check_summary("type_f90");
}
