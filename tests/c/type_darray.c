/* MPI_Type_create_darray(_c) (MPI 4.1 §5.1.4) and the large-count block/subarray constructors
 * (§5.1.2, §5.1.3 with §5.1.13's _c forms). Typemaps are read by packing a global array whose
 * element i holds i; the expected indices are worked out by hand from the standard's rules. */
#include <mpi.h>
#include <string.h>
#include "check.h"

/* Packs one `t` from a global array of 64 ints (a[i] = i); returns how many ints it gave. */
static int pick(MPI_Datatype t, int *out)
{
    int a[64], pos = 0, size = 0;
    char buf[512];
    for (int i = 0; i < 64; i++)
        a[i] = i;
    MPI_Type_size(t, &size);
    MPI_Pack(a, 1, t, buf, sizeof buf, &pos, MPI_COMM_WORLD);
    memcpy(out, buf, (size_t)pos);
    return pos / (int)sizeof(int);
}

static int same(const int *got, const int *want, int n)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i])
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    /* MPI 4.1 §9.3: errors of calls without an object go to MPI_COMM_SELF's handler. */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Datatype t, t2;
    MPI_Aint lb, ext;
    int got[64], size;

    /* 4x6 C-order array on a 2x2 grid, rows by block, columns cyclic(2); rank 3 is (1,1):
     * rows 2..3, columns 2..3 (the next cyclic block would start at column 6). */
    {
        int g[2] = {4, 6}, d[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
        int a[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, p[2] = {2, 2};
        CHECK_EQ(MPI_Type_create_darray(4, 3, 2, g, d, a, p, MPI_ORDER_C, MPI_INT, &t), MPI_SUCCESS,
                 "MPI 4.1 §5.1.4: block and cyclic(2) on a row-major process grid");
        MPI_Type_commit(&t);
        int want[] = {14, 15, 20, 21};
        CHECK_EQ(pick(t, got), 4, "MPI 4.1 §5.1.4: rank (1,1) owns 2x2 elements");
        CHECK(same(got, want, 4), "MPI 4.1 §5.1.4: the owned elements in array order");
        MPI_Type_get_extent(t, &lb, &ext);
        CHECK(lb == 0 && ext == 24 * (MPI_Aint)sizeof(int),
              "MPI 4.1 §5.1.4: lower bound 0, extent of the whole global array");
        int ni, na, nd, comb;
        MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
        CHECK(comb == MPI_COMBINER_DARRAY && ni == 4 * 2 + 4 && na == 0 && nd == 1,
              "MPI 4.1 §5.1.13: darray envelope has 4*ndims+4 integers and one type");
        int ints[12];
        MPI_Aint ad[1];
        MPI_Datatype ty[1];
        MPI_Type_get_contents(t, 12, 0, 1, ints, ad, ty);
        int wints[12] = {4, 3, 2, 4, 6, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC,
                         MPI_DISTRIBUTE_DFLT_DARG, 2, 2, 2, MPI_ORDER_C};
        CHECK(same(ints, wints, 12) && ty[0] == MPI_INT,
              "MPI 4.1 §5.1.13: contents give size, rank, ndims, gsizes, distribs, dargs, psizes, order");
        /* Rank 0 of the same grid: rows 0..1, columns 0,1,4,5. */
        MPI_Type_create_darray(4, 0, 2, g, d, a, p, MPI_ORDER_C, MPI_INT, &t2);
        MPI_Type_commit(&t2);
        int want0[] = {0, 1, 4, 5, 6, 7, 10, 11};
        CHECK_EQ(pick(t2, got), 8, "MPI 4.1 §5.1.4: rank (0,0) owns 2x4 elements");
        CHECK(same(got, want0, 8), "MPI 4.1 §5.1.4: cyclic(2) deals column blocks round-robin");
        MPI_Type_free(&t2);
        MPI_Type_free(&t);
    }

    /* 5x3 Fortran-order array, rows cyclic over 2 processes, columns not distributed; rank 1 owns
     * rows 1 and 3 of every column: Fortran index i + 5*j. */
    {
        int g[2] = {5, 3}, d[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE};
        int a[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, p[2] = {2, 1};
        CHECK_EQ(MPI_Type_create_darray(2, 1, 2, g, d, a, p, MPI_ORDER_FORTRAN, MPI_INT, &t),
                 MPI_SUCCESS, "MPI 4.1 §5.1.4: cyclic with the default darg, Fortran order");
        MPI_Type_commit(&t);
        int want[] = {1, 3, 6, 8, 11, 13};
        CHECK_EQ(pick(t, got), 6, "MPI 4.1 §5.1.4: two rows of three columns");
        CHECK(same(got, want, 6), "MPI 4.1 §5.1.4: column-major order, first index fastest");
        MPI_Type_get_extent(t, &lb, &ext);
        CHECK(lb == 0 && ext == 15 * (MPI_Aint)sizeof(int), "MPI 4.1 §5.1.4: extent of 5x3 ints");
        MPI_Type_free(&t);
    }

    /* A process with no elements: 3 elements by block over 4 processes leaves rank 3 empty. */
    {
        int g[1] = {3}, d[1] = {MPI_DISTRIBUTE_BLOCK}, a[1] = {MPI_DISTRIBUTE_DFLT_DARG}, p[1] = {4};
        CHECK_EQ(MPI_Type_create_darray(4, 3, 1, g, d, a, p, MPI_ORDER_C, MPI_INT, &t), MPI_SUCCESS,
                 "MPI 4.1 §5.1.4: a process may own nothing");
        MPI_Type_size(t, &size);
        MPI_Type_get_extent(t, &lb, &ext);
        CHECK(size == 0 && lb == 0 && ext == 3 * (MPI_Aint)sizeof(int),
              "MPI 4.1 §5.1.4: empty part, extent still the global array's");
        MPI_Type_free(&t);
    }

    /* Bad arguments: MPI_ERR_ARG and no new type. */
    {
        int g[1] = {10}, d[1] = {MPI_DISTRIBUTE_BLOCK}, a[1] = {2}, p[1] = {4};
        t = MPI_DATATYPE_NULL;
        int rc = MPI_Type_create_darray(4, 0, 1, g, d, a, p, MPI_ORDER_C, MPI_INT, &t), cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_ARG && t == MPI_DATATYPE_NULL,
              "MPI 4.1 §5.1.4: a block darg with darg*psize < gsize is erroneous");
        a[0] = MPI_DISTRIBUTE_DFLT_DARG;
        rc = MPI_Type_create_darray(3, 0, 1, g, d, a, p, MPI_ORDER_C, MPI_INT, &t);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_ARG, "MPI 4.1 §5.1.4: the process grid must have size processes");
        rc = MPI_Type_create_darray(4, 4, 1, g, d, a, p, MPI_ORDER_C, MPI_INT, &t);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_ARG, "MPI 4.1 §5.1.4: rank must be below size");
    }

    /* darray_c: gsizes as MPI_Count, same typemap as the int form. */
    {
        MPI_Count g[2] = {4, 6};
        int d[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
        int a[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, p[2] = {2, 2};
        CHECK_EQ(MPI_Type_create_darray_c(4, 3, 2, g, d, a, p, MPI_ORDER_C, MPI_INT, &t),
                 MPI_SUCCESS, "MPI 4.1 §5.1.4: MPI_Type_create_darray_c");
        MPI_Type_commit(&t);
        int want[] = {14, 15, 20, 21};
        CHECK(pick(t, got) == 4 && same(got, want, 4), "MPI 4.1 §5.1.4: _c form, same typemap");
        MPI_Type_free(&t);
    }

    /* The other large-count constructors: same typemaps as their int forms. */
    {
        MPI_Count disp[3] = {5, 0, 9};
        CHECK_EQ(MPI_Type_create_indexed_block_c(3, 2, disp, MPI_INT, &t), MPI_SUCCESS,
                 "MPI 4.1 §5.1.2: MPI_Type_create_indexed_block_c");
        MPI_Type_commit(&t);
        int want[] = {5, 6, 0, 1, 9, 10};
        CHECK(pick(t, got) == 6 && same(got, want, 6),
              "MPI 4.1 §5.1.2: blocks of 2 at element displacements 5, 0, 9");
        MPI_Type_free(&t);

        MPI_Count hdisp[2] = {4 * (MPI_Count)sizeof(int), 0};
        CHECK_EQ(MPI_Type_create_hindexed_block_c(2, 3, hdisp, MPI_INT, &t), MPI_SUCCESS,
                 "MPI 4.1 §5.1.2: MPI_Type_create_hindexed_block_c");
        MPI_Type_commit(&t);
        int hwant[] = {4, 5, 6, 0, 1, 2};
        CHECK(pick(t, got) == 6 && same(got, hwant, 6),
              "MPI 4.1 §5.1.2: blocks of 3 at byte displacements");
        MPI_Type_free(&t);

        MPI_Count sz[2] = {4, 5}, sub[2] = {2, 2}, st[2] = {1, 3};
        CHECK_EQ(MPI_Type_create_subarray_c(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &t), MPI_SUCCESS,
                 "MPI 4.1 §5.1.3: MPI_Type_create_subarray_c");
        MPI_Type_commit(&t);
        int swant[] = {8, 9, 13, 14};
        CHECK(pick(t, got) == 4 && same(got, swant, 4),
              "MPI 4.1 §5.1.3: 2x2 subarray at (1,3) of a 4x5 array");
        MPI_Type_get_extent(t, &lb, &ext);
        CHECK(lb == 0 && ext == 20 * (MPI_Aint)sizeof(int), "MPI 4.1 §5.1.3: extent of the full array");
        MPI_Type_free(&t);

        MPI_Count bad[2] = {4, 5}, badsub[2] = {5, 2}, badst[2] = {0, 0};
        int rc = MPI_Type_create_subarray_c(2, bad, badsub, badst, MPI_ORDER_C, MPI_INT, &t), cls;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_ARG, "MPI 4.1 §5.1.3: a subsize larger than the size is erroneous");
    }

    MPI_Finalize();
    return check_summary("type_darray");
}
