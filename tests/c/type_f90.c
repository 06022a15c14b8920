/* MPI_Type_create_f90_integer/real/complex (MPI 4.1 §19.1.9): a predefined type that behaves as
 * the smallest Fortran kind with the asked range / precision (MPI_ERR_ARG when there is none),
 * decodes as MPI_COMBINER_F90_* with the arguments given, and cannot be freed. */
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
    {
        MPI_Datatype t2 = MPI_DATATYPE_NULL, m = MPI_DATATYPE_NULL;
        MPI_Aint lb, ext;
        int ni, na, nd, comb, ints[2] = {0, 0};
        MPI_Type_create_f90_integer(9, &t);
        MPI_Type_create_f90_integer(9, &t2);
        CHECK(t == t2, "MPI 4.1 §19.1.9: the same r gives the same datatype handle");
        MPI_Type_get_extent(t, &lb, &ext);
        MPI_Type_size(t, &size);
        CHECK(lb == 0 && ext == 4 && size == 4,
              "MPI 4.1 §19.1.9: it has the size and extent of INTEGER(KIND=4)");
        CHECK_EQ(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb), MPI_SUCCESS,
                 "MPI 4.1 §5.1.13: an F90 type decodes");
        CHECK(comb == MPI_COMBINER_F90_INTEGER && ni == 1 && na == 0 && nd == 0,
              "MPI 4.1 §5.1.13: MPI_COMBINER_F90_INTEGER with one integer");
        MPI_Type_get_contents(t, 1, 0, 0, ints, NULL, NULL);
        CHECK_EQ(ints[0], 9, "MPI 4.1 §5.1.13: the r given");
        CHECK_EQ(cls(MPI_Type_free(&t2)), MPI_ERR_TYPE,
                 "MPI 4.1 §19.1.9: the F90 types are predefined and cannot be freed");
        CHECK(t2 == t, "a failed free leaves the handle");
        MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &m);
        MPI_Type_size(m, &size);
        CHECK_EQ(size, 4, "MPI 4.1 §19.1.9: MPI_Type_match_size still names a 4-byte integer");

        /* It matches the named type in communication and in the predefined operations. */
        {
            int a[3] = {1, 2, 3}, b[3] = {0, 0, 0}, n = -1;
            MPI_Status st;
            MPI_Sendrecv(a, 3, MPI_INTEGER4, 0, 5, b, 3, t, 0, 5, MPI_COMM_SELF, &st);
            MPI_Get_count(&st, t, &n);
            CHECK(b[0] == 1 && b[2] == 3 && n == 3,
                  "MPI 4.1 §19.1.9: sent as INTEGER4, received as the F90 type");
            CHECK_EQ(MPI_Reduce_local(a, b, 3, t, MPI_SUM), MPI_SUCCESS,
                     "MPI 4.1 §6.9.2: MPI_SUM on an F90 integer type");
            CHECK(b[0] == 2 && b[2] == 6, "MPI 4.1 §6.9.2: the sums");
        }
        {
            /* A derived type of it names it as itself when decoded. */
            MPI_Datatype c, got = MPI_DATATYPE_NULL;
            int n = 0;
            MPI_Type_contiguous(2, t, &c);
            MPI_Type_get_contents(c, 1, 0, 1, &n, NULL, &got);
            CHECK(got == t, "MPI 4.1 §5.1.13: a predefined argument comes back as itself");
            MPI_Type_free(&c);
        }
    }
    {
        MPI_Datatype r1, r2;
        int ni, na, nd, comb, ints[2] = {0, 0};
        MPI_Type_create_f90_real(6, MPI_UNDEFINED, &r1);
        MPI_Type_create_f90_real(6, 30, &r2);
        CHECK(r1 != r2, "MPI 4.1 §19.1.9: other (p, r) arguments, another datatype");
        MPI_Type_get_envelope(r1, &ni, &na, &nd, &comb);
        CHECK(comb == MPI_COMBINER_F90_REAL && ni == 2 && na == 0 && nd == 0,
              "MPI 4.1 §5.1.13: MPI_COMBINER_F90_REAL with two integers");
        MPI_Type_get_contents(r1, 2, 0, 0, ints, NULL, NULL);
        CHECK(ints[0] == 6 && ints[1] == MPI_UNDEFINED,
              "MPI 4.1 §5.1.13: p, and MPI_UNDEFINED for the r not given");
        MPI_Type_create_f90_complex(MPI_UNDEFINED, 30, &r1);
        MPI_Type_get_envelope(r1, &ni, &na, &nd, &comb);
        MPI_Type_get_contents(r1, 2, 0, 0, ints, NULL, NULL);
        CHECK(comb == MPI_COMBINER_F90_COMPLEX && ints[0] == MPI_UNDEFINED && ints[1] == 30,
              "MPI 4.1 §5.1.13: MPI_COMBINER_F90_COMPLEX with (p, r)");
        {
            float z[4] = {1, 2, 3, 4}, w[4] = {1, 1, 1, 1};
            MPI_Reduce_local(z, w, 2, r1, MPI_SUM);
            CHECK(w[0] == 2 && w[3] == 5, "MPI 4.1 §6.9.2: MPI_SUM on an F90 complex type");
        }
    }
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
