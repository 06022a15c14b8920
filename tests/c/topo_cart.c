/* Cartesian topologies on one process (MPI 4.1 §8.5.1, §8.5.2, §8.5.5-§8.5.8). */
#include <mpi.h>
#include "check.h"

static int cls(int rc)
{
    int c;
    MPI_Error_class(rc, &c);
    return c;
}

int main(int argc, char **argv)
{
    MPI_Comm cart, dup, sub, split;
    int dims[3], periods[3], coords[3], remain[3];
    int rank, src, dst, ndims, status, newrank;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* Dims_create */
    dims[0] = dims[1] = 0;
    CHECK_EQ(MPI_Dims_create(6, 2, dims), MPI_SUCCESS, "MPI 4.1 §8.5.2 Example 8.1");
    CHECK(dims[0] == 3 && dims[1] == 2, "MPI 4.1 §8.5.2: (0,0) with 6 nodes gives (3,2)");
    dims[0] = dims[1] = 0;
    MPI_Dims_create(7, 2, dims);
    CHECK(dims[0] == 7 && dims[1] == 1, "MPI 4.1 §8.5.2: (0,0) with 7 nodes gives (7,1)");
    dims[0] = 0; dims[1] = 3; dims[2] = 0;
    MPI_Dims_create(6, 3, dims);
    CHECK(dims[0] == 2 && dims[1] == 3 && dims[2] == 1, "MPI 4.1 §8.5.2: (0,3,0) with 6 gives (2,3,1)");
    dims[0] = 0; dims[1] = 3; dims[2] = 0;
    CHECK_EQ(cls(MPI_Dims_create(7, 3, dims)), MPI_ERR_DIMS, "MPI 4.1 §8.5.2: 7 is no multiple of 3");
    CHECK(dims[0] == 0 && dims[2] == 0, "MPI 4.1 §8.5.2: an erroneous call changes nothing");
    dims[0] = 0; dims[1] = 0; dims[2] = 0;
    MPI_Dims_create(16, 3, dims);
    CHECK(dims[0] == 4 && dims[1] == 2 && dims[2] == 2, "MPI 4.1 §8.5.2: as close as possible, non-increasing");
    dims[0] = -1; dims[1] = 0;
    CHECK_EQ(cls(MPI_Dims_create(4, 2, dims)), MPI_ERR_DIMS, "MPI 4.1 §8.5.2: negative dims entry");

    /* Cart_create on one process: a 1x1 grid, periodic in dimension 0 only. */
    dims[0] = 1; dims[1] = 1; periods[0] = 1; periods[1] = 0;
    CHECK_EQ(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart), MPI_SUCCESS, "MPI 4.1 §8.5.1");
    CHECK(cart != MPI_COMM_NULL, "MPI 4.1 §8.5.1: the process is in the grid");
    MPI_Topo_test(cart, &status);
    CHECK_EQ(status, MPI_CART, "MPI 4.1 §8.5.5: MPI_Topo_test on a Cartesian communicator");
    MPI_Topo_test(MPI_COMM_WORLD, &status);
    CHECK_EQ(status, MPI_UNDEFINED, "MPI 4.1 §8.5.5: no topology");
    MPI_Cartdim_get(cart, &ndims);
    CHECK_EQ(ndims, 2, "MPI 4.1 §8.5.5: MPI_Cartdim_get");
    dims[0] = dims[1] = periods[0] = periods[1] = coords[0] = coords[1] = 9;
    CHECK_EQ(MPI_Cart_get(cart, 2, dims, periods, coords), MPI_SUCCESS, "MPI 4.1 §8.5.5 MPI_Cart_get");
    CHECK(dims[0] == 1 && dims[1] == 1 && periods[0] && !periods[1] && coords[0] == 0 && coords[1] == 0,
          "MPI 4.1 §8.5.5: dims, periods and own coordinates");
    coords[0] = 5; coords[1] = 0;
    CHECK_EQ(MPI_Cart_rank(cart, coords, &rank), MPI_SUCCESS, "MPI 4.1 §8.5.5: periodic coordinates wrap");
    CHECK_EQ(rank, 0, "MPI 4.1 §8.5.5: (5,0) wraps to rank 0");
    coords[0] = 0; coords[1] = 1;
    CHECK_EQ(cls(MPI_Cart_rank(cart, coords, &rank)), MPI_ERR_ARG, "MPI 4.1 §8.5.5: out of range in a non-periodic dimension");
    coords[0] = coords[1] = 7;
    CHECK_EQ(MPI_Cart_coords(cart, 0, 2, coords), MPI_SUCCESS, "MPI 4.1 §8.5.5 MPI_Cart_coords");
    CHECK(coords[0] == 0 && coords[1] == 0, "MPI 4.1 §8.5.5: rank 0 is at the origin");
    CHECK_EQ(cls(MPI_Cart_coords(cart, 1, 2, coords)), MPI_ERR_RANK, "MPI 4.1 §8.5.5: rank outside the grid");

    /* Cart_shift: self in the periodic dimension, MPI_PROC_NULL in the other. */
    MPI_Cart_shift(cart, 0, 1, &src, &dst);
    CHECK(src == 0 && dst == 0, "MPI 4.1 §8.5.6: periodic extent 1, the neighbour is self");
    MPI_Cart_shift(cart, 1, 1, &src, &dst);
    CHECK(src == MPI_PROC_NULL && dst == MPI_PROC_NULL, "MPI 4.1 §8.5.6: off a non-periodic edge");
    MPI_Cart_shift(cart, 1, 0, &src, &dst);
    CHECK(src == 0 && dst == 0, "MPI 4.1 §8.5.6: displacement 0 is the process itself");
    CHECK_EQ(cls(MPI_Cart_shift(cart, 2, 1, &src, &dst)), MPI_ERR_ARG, "MPI 4.1 §8.5.6: direction beyond ndims");
    CHECK_EQ(cls(MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &src, &dst)), MPI_ERR_TOPOLOGY, "MPI 4.1 §8.5.6: no Cartesian topology");

    /* The topology goes with a dup (§8.4), not with a split. */
    MPI_Comm_dup(cart, &dup);
    MPI_Topo_test(dup, &status);
    CHECK_EQ(status, MPI_CART, "MPI 4.1 §8.4: MPI_Comm_dup copies the topology");
    MPI_Cartdim_get(dup, &ndims);
    CHECK_EQ(ndims, 2, "MPI 4.1 §8.4: the same grid");
    MPI_Comm_split(cart, 0, 0, &split);
    MPI_Topo_test(split, &status);
    CHECK_EQ(status, MPI_UNDEFINED, "MPI 4.1 §7.4.2: a split has no topology");

    /* Cart_sub */
    remain[0] = 0; remain[1] = 1;
    CHECK_EQ(MPI_Cart_sub(cart, remain, &sub), MPI_SUCCESS, "MPI 4.1 §8.5.7 MPI_Cart_sub");
    MPI_Cartdim_get(sub, &ndims);
    CHECK_EQ(ndims, 1, "MPI 4.1 §8.5.7: one dimension kept");
    MPI_Cart_get(sub, 1, dims, periods, coords);
    CHECK(dims[0] == 1 && periods[0] == 0, "MPI 4.1 §8.5.7: the kept dimension's extent and period");
    MPI_Comm_free(&sub);
    remain[0] = 0; remain[1] = 0;
    MPI_Cart_sub(cart, remain, &sub);
    MPI_Cartdim_get(sub, &ndims);
    CHECK_EQ(ndims, 0, "MPI 4.1 §8.5.7: nothing kept gives a zero-dimensional grid");
    MPI_Comm_free(&sub);

    /* Cart_create errors and the grid smaller than the group. */
    dims[0] = 2; dims[1] = 1;
    CHECK_EQ(cls(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &sub)), MPI_ERR_ARG, "MPI 4.1 §8.5.1: a grid larger than the group");
    dims[0] = 0;
    CHECK_EQ(cls(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &sub)), MPI_ERR_DIMS, "MPI 4.1 §8.5.1: a zero extent");
    CHECK_EQ(cls(MPI_Cart_create(MPI_COMM_WORLD, -1, dims, periods, 0, &sub)), MPI_ERR_DIMS, "MPI 4.1 §8.5.1: negative ndims");
    CHECK_EQ(MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 1, &sub), MPI_SUCCESS, "MPI 4.1 §8.5.1: ndims 0 is a zero-dimensional grid");
    MPI_Cartdim_get(sub, &ndims);
    CHECK_EQ(ndims, 0, "MPI 4.1 §8.5.1: zero dimensions");
    MPI_Comm_free(&sub);

    /* Cart_map */
    dims[0] = 1; dims[1] = 1;
    CHECK_EQ(MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &newrank), MPI_SUCCESS, "MPI 4.1 §8.5.8 MPI_Cart_map");
    CHECK_EQ(newrank, 0, "MPI 4.1 §8.5.8: the process's rank in the grid");
    dims[0] = 3;
    CHECK_EQ(cls(MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &newrank)), MPI_ERR_ARG, "MPI 4.1 §8.5.8: a grid larger than the group");

    MPI_Comm_free(&split);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return check_summary("topo_cart");
}
