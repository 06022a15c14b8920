/* Datatype decoding by MPI 4.1 §5.1.13's table: every combiner, made by the int form and by the
 * large-count (_c) form of its constructor, decoded with MPI_Type_get_envelope(_c) and
 * MPI_Type_get_contents(_c); every array entry is compared with the table. */
#include <mpi.h>
#include <string.h>
#include "check.h"

#define MAXN 32

static int cls(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

/* What the table says a type decodes to. */
struct want {
    int combiner;
    int ni, na, nl, nd;
    const long long *ints, *aints, *large;
    const MPI_Datatype *types; /* predefined ones only: derived come back as new handles */
};

static void free_derived(MPI_Datatype *ts, int n)
{
    for (int i = 0; i < n; i++) {
        int comb;
        MPI_Count ca, cb, cc, cd;
        MPI_Type_get_envelope_c(ts[i], &ca, &cb, &cc, &cd, &comb);
        if (comb != MPI_COMBINER_NAMED)
            MPI_Type_free(&ts[i]);
    }
}

static void check_decode(const char *name, MPI_Datatype t, struct want w, int large_form)
{
    MPI_Count ni = -1, na = -1, nl = -1, nd = -1;
    int comb = -1, ok;
    int ints[MAXN];
    MPI_Aint aints[MAXN];
    MPI_Count large[MAXN];
    MPI_Datatype types[MAXN];

    printf("decoding %s\n", name);
    CHECK_EQ(MPI_Type_get_envelope_c(t, &ni, &na, &nl, &nd, &comb), MPI_SUCCESS,
             "MPI 4.1 §5.1.13: MPI_Type_get_envelope_c decodes every derived type");
    CHECK_EQ(comb, w.combiner, "MPI 4.1 §5.1.13: the combiner of the constructor that made it");
    CHECK(ni == w.ni && na == w.na && nl == w.nl && nd == w.nd,
          "MPI 4.1 §5.1.13 table: num_integers, num_addresses, num_large_counts, num_datatypes");
    if (ni != w.ni || na != w.na || nl != w.nl || nd != w.nd)
        printf("    got %lld %lld %lld %lld, expected %d %d %d %d\n", (long long)ni,
               (long long)na, (long long)nl, (long long)nd, w.ni, w.na, w.nl, w.nd);
    if (ni > MAXN || na > MAXN || nl > MAXN || nd > MAXN || ni != w.ni || na != w.na ||
        nl != w.nl || nd != w.nd)
        return;
    CHECK_EQ(MPI_Type_get_contents_c(t, ni, na, nl, nd, ints, aints, large, types), MPI_SUCCESS,
             "MPI 4.1 §5.1.13: MPI_Type_get_contents_c with arrays of the envelope's sizes");
    ok = 1;
    for (int i = 0; i < w.ni; i++)
        ok &= ints[i] == w.ints[i];
    CHECK(ok, "MPI 4.1 §5.1.13 table: array_of_integers entry by entry");
    ok = 1;
    for (int i = 0; i < w.na; i++)
        ok &= aints[i] == w.aints[i];
    CHECK(ok, "MPI 4.1 §5.1.13 table: array_of_addresses entry by entry");
    ok = 1;
    for (int i = 0; i < w.nl; i++)
        ok &= large[i] == w.large[i];
    CHECK(ok, "MPI 4.1 §5.1.13 table: array_of_large_counts entry by entry");
    ok = 1;
    for (int i = 0; i < w.nd; i++)
        ok &= w.types[i] == MPI_DATATYPE_NULL || types[i] == w.types[i];
    CHECK(ok, "MPI 4.1 §5.1.13: predefined datatype arguments come back as themselves");
    free_derived(types, w.nd);

    {
        int i1 = -1, i2 = -1, i3 = -1, c1 = -1;
        int rc = MPI_Type_get_envelope(t, &i1, &i2, &i3, &c1);
        if (large_form) {
            /* The int forms have no place for large counts. */
            CHECK_EQ(cls(rc), MPI_ERR_TYPE,
                     "MPI 4.1 §5.1.13: MPI_Type_get_envelope on a type with large counts is "
                     "MPI_ERR_TYPE");
            CHECK_EQ(cls(MPI_Type_get_contents(t, MAXN, MAXN, MAXN, ints, aints, types)),
                     MPI_ERR_TYPE,
                     "MPI 4.1 §5.1.13: MPI_Type_get_contents on a type with large counts is "
                     "MPI_ERR_TYPE");
        } else {
            CHECK_EQ(rc, MPI_SUCCESS, "MPI 4.1 §5.1.13: MPI_Type_get_envelope on an int-form type");
            CHECK(i1 == w.ni && i2 == w.na && i3 == w.nd && c1 == w.combiner,
                  "MPI 4.1 §5.1.13: the int form's envelope equals the _c form's");
            CHECK_EQ(MPI_Type_get_contents(t, i1, i2, i3, ints, aints, types), MPI_SUCCESS,
                     "MPI 4.1 §5.1.13: MPI_Type_get_contents on an int-form type");
            ok = 1;
            for (int i = 0; i < w.ni; i++)
                ok &= ints[i] == w.ints[i];
            for (int i = 0; i < w.na; i++)
                ok &= aints[i] == w.aints[i];
            CHECK(ok, "MPI 4.1 §5.1.13: the int form's contents entry by entry");
            free_derived(types, w.nd);
        }
    }
}

#define ARR(...) ((const long long[]){__VA_ARGS__})
#define TYPES(...) ((const MPI_Datatype[]){__VA_ARGS__})
#define NONE NULL

int main(int argc, char **argv)
{
    MPI_Datatype t, inner;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* contiguous: int (count); _c large (count) */
    MPI_Type_contiguous(5, MPI_INT, &t);
    check_decode("contiguous", t,
                 (struct want){MPI_COMBINER_CONTIGUOUS, 1, 0, 0, 1, ARR(5), NONE, NONE,
                               TYPES(MPI_INT)}, 0);
    MPI_Type_free(&t);
    MPI_Type_contiguous_c(5, MPI_INT, &t);
    check_decode("contiguous_c", t,
                 (struct want){MPI_COMBINER_CONTIGUOUS, 0, 0, 1, 1, NONE, NONE, ARR(5),
                               TYPES(MPI_INT)}, 1);
    MPI_Type_free(&t);
    if (sizeof(MPI_Count) > sizeof(int)) {
        MPI_Type_contiguous_c(5000000000LL, MPI_CHAR, &t);
        check_decode("contiguous_c beyond int", t,
                     (struct want){MPI_COMBINER_CONTIGUOUS, 0, 0, 1, 1, NONE, NONE,
                                   ARR(5000000000LL), TYPES(MPI_CHAR)}, 1);
        MPI_Type_free(&t);
    }

    /* vector: int (count, blocklength, stride); _c large (the same three) */
    MPI_Type_vector(3, 2, 5, MPI_DOUBLE, &t);
    check_decode("vector", t,
                 (struct want){MPI_COMBINER_VECTOR, 3, 0, 0, 1, ARR(3, 2, 5), NONE, NONE,
                               TYPES(MPI_DOUBLE)}, 0);
    MPI_Type_free(&t);
    MPI_Type_vector_c(3, 2, 5, MPI_DOUBLE, &t);
    check_decode("vector_c", t,
                 (struct want){MPI_COMBINER_VECTOR, 0, 0, 3, 1, NONE, NONE, ARR(3, 2, 5),
                               TYPES(MPI_DOUBLE)}, 1);
    MPI_Type_free(&t);

    /* hvector: int (count, blocklength) + address (stride); _c large (all three) */
    MPI_Type_create_hvector(3, 2, 40, MPI_INT, &t);
    check_decode("hvector", t,
                 (struct want){MPI_COMBINER_HVECTOR, 2, 1, 0, 1, ARR(3, 2), ARR(40), NONE,
                               TYPES(MPI_INT)}, 0);
    MPI_Type_free(&t);
    MPI_Type_create_hvector_c(3, 2, 40, MPI_INT, &t);
    check_decode("hvector_c", t,
                 (struct want){MPI_COMBINER_HVECTOR, 0, 0, 3, 1, NONE, NONE, ARR(3, 2, 40),
                               TYPES(MPI_INT)}, 1);
    MPI_Type_free(&t);

    /* indexed: int (count, blocklengths, displacements); _c large (the same 2*count+1) */
    {
        int bl[2] = {1, 2}, ds[2] = {3, 7};
        MPI_Count cbl[2] = {1, 2}, cds[2] = {3, 7};
        MPI_Aint ads[2] = {8, 24};
        MPI_Type_indexed(2, bl, ds, MPI_INT, &t);
        check_decode("indexed", t,
                     (struct want){MPI_COMBINER_INDEXED, 5, 0, 0, 1, ARR(2, 1, 2, 3, 7), NONE,
                                   NONE, TYPES(MPI_INT)}, 0);
        MPI_Type_free(&t);
        MPI_Type_indexed_c(2, cbl, cds, MPI_INT, &t);
        check_decode("indexed_c", t,
                     (struct want){MPI_COMBINER_INDEXED, 0, 0, 5, 1, NONE, NONE,
                                   ARR(2, 1, 2, 3, 7), TYPES(MPI_INT)}, 1);
        MPI_Type_free(&t);

        /* hindexed: int (count, blocklengths) + addresses (displacements); _c large (all) */
        MPI_Type_create_hindexed(2, bl, ads, MPI_INT, &t);
        check_decode("hindexed", t,
                     (struct want){MPI_COMBINER_HINDEXED, 3, 2, 0, 1, ARR(2, 1, 2), ARR(8, 24),
                                   NONE, TYPES(MPI_INT)}, 0);
        MPI_Type_free(&t);
        cds[0] = 8, cds[1] = 24;
        MPI_Type_create_hindexed_c(2, cbl, cds, MPI_INT, &t);
        check_decode("hindexed_c", t,
                     (struct want){MPI_COMBINER_HINDEXED, 0, 0, 5, 1, NONE, NONE,
                                   ARR(2, 1, 2, 8, 24), TYPES(MPI_INT)}, 1);
        MPI_Type_free(&t);

        /* indexed_block: int (count, blocklength, displacements); _c large (count+2) */
        MPI_Type_create_indexed_block(2, 4, ds, MPI_SHORT, &t);
        check_decode("indexed_block", t,
                     (struct want){MPI_COMBINER_INDEXED_BLOCK, 4, 0, 0, 1, ARR(2, 4, 3, 7), NONE,
                                   NONE, TYPES(MPI_SHORT)}, 0);
        MPI_Type_free(&t);
        cds[0] = 3, cds[1] = 7;
        MPI_Type_create_indexed_block_c(2, 4, cds, MPI_SHORT, &t);
        check_decode("indexed_block_c", t,
                     (struct want){MPI_COMBINER_INDEXED_BLOCK, 0, 0, 4, 1, NONE, NONE,
                                   ARR(2, 4, 3, 7), TYPES(MPI_SHORT)}, 1);
        MPI_Type_free(&t);

        /* hindexed_block: int (count, blocklength) + addresses; _c large (count+2) */
        MPI_Type_create_hindexed_block(2, 4, ads, MPI_SHORT, &t);
        check_decode("hindexed_block", t,
                     (struct want){MPI_COMBINER_HINDEXED_BLOCK, 2, 2, 0, 1, ARR(2, 4), ARR(8, 24),
                                   NONE, TYPES(MPI_SHORT)}, 0);
        MPI_Type_free(&t);
        cds[0] = 8, cds[1] = 24;
        MPI_Type_create_hindexed_block_c(2, 4, cds, MPI_SHORT, &t);
        check_decode("hindexed_block_c", t,
                     (struct want){MPI_COMBINER_HINDEXED_BLOCK, 0, 0, 4, 1, NONE, NONE,
                                   ARR(2, 4, 8, 24), TYPES(MPI_SHORT)}, 1);
        MPI_Type_free(&t);

        /* struct: int (count, blocklengths) + addresses + count datatypes; _c large (2*count+1) */
        {
            MPI_Datatype ts[2] = {MPI_INT, MPI_DOUBLE};
            MPI_Aint sds[2] = {0, 8};
            MPI_Count csds[2] = {0, 8};
            MPI_Type_create_struct(2, bl, sds, ts, &t);
            check_decode("struct", t,
                         (struct want){MPI_COMBINER_STRUCT, 3, 2, 0, 2, ARR(2, 1, 2), ARR(0, 8),
                                       NONE, TYPES(MPI_INT, MPI_DOUBLE)}, 0);
            MPI_Type_free(&t);
            MPI_Type_create_struct_c(2, cbl, csds, ts, &t);
            check_decode("struct_c", t,
                         (struct want){MPI_COMBINER_STRUCT, 0, 0, 5, 2, NONE, NONE,
                                       ARR(2, 1, 2, 0, 8), TYPES(MPI_INT, MPI_DOUBLE)}, 1);
            MPI_Type_free(&t);
        }
    }

    /* subarray: int (ndims, sizes, subsizes, starts, order); _c keeps ndims and order as
     * integers and only sizes, subsizes, starts as large counts. */
    {
        int sz[2] = {4, 5}, ss[2] = {2, 3}, st[2] = {1, 2};
        MPI_Count csz[2] = {4, 5}, css[2] = {2, 3}, cst[2] = {1, 2};
        MPI_Type_create_subarray(2, sz, ss, st, MPI_ORDER_FORTRAN, MPI_INT, &t);
        check_decode("subarray", t,
                     (struct want){MPI_COMBINER_SUBARRAY, 8, 0, 0, 1,
                                   ARR(2, 4, 5, 2, 3, 1, 2, MPI_ORDER_FORTRAN), NONE, NONE,
                                   TYPES(MPI_INT)}, 0);
        MPI_Type_free(&t);
        MPI_Type_create_subarray_c(2, csz, css, cst, MPI_ORDER_C, MPI_INT, &t);
        check_decode("subarray_c", t,
                     (struct want){MPI_COMBINER_SUBARRAY, 2, 0, 6, 1, ARR(2, MPI_ORDER_C), NONE,
                                   ARR(4, 5, 2, 3, 1, 2), TYPES(MPI_INT)}, 1);
        MPI_Type_free(&t);

        /* darray: int (size, rank, ndims, gsizes, distribs, dargs, psizes, order); _c keeps all
         * but gsizes as integers. */
        {
            int di[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
            int da[2] = {MPI_DISTRIBUTE_DFLT_DARG, 1}, ps[2] = {1, 1};
            MPI_Type_create_darray(1, 0, 2, sz, di, da, ps, MPI_ORDER_C, MPI_INT, &t);
            check_decode("darray", t,
                         (struct want){MPI_COMBINER_DARRAY, 12, 0, 0, 1,
                                       ARR(1, 0, 2, 4, 5, MPI_DISTRIBUTE_BLOCK,
                                           MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_DFLT_DARG, 1, 1,
                                           1, MPI_ORDER_C),
                                       NONE, NONE, TYPES(MPI_INT)}, 0);
            MPI_Type_free(&t);
            MPI_Type_create_darray_c(1, 0, 2, csz, di, da, ps, MPI_ORDER_FORTRAN, MPI_INT, &t);
            check_decode("darray_c", t,
                         (struct want){MPI_COMBINER_DARRAY, 10, 0, 2, 1,
                                       ARR(1, 0, 2, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC,
                                           MPI_DISTRIBUTE_DFLT_DARG, 1, 1, 1, MPI_ORDER_FORTRAN),
                                       NONE, ARR(4, 5), TYPES(MPI_INT)}, 1);
            MPI_Type_free(&t);
        }
    }

    /* resized: addresses (lb, extent); _c large (lb, extent) */
    MPI_Type_create_resized(MPI_INT, -4, 16, &t);
    check_decode("resized", t,
                 (struct want){MPI_COMBINER_RESIZED, 0, 2, 0, 1, NONE, ARR(-4, 16), NONE,
                               TYPES(MPI_INT)}, 0);
    MPI_Type_free(&t);
    MPI_Type_create_resized_c(MPI_INT, -4, 16, &t);
    check_decode("resized_c", t,
                 (struct want){MPI_COMBINER_RESIZED, 0, 0, 2, 1, NONE, NONE, ARR(-4, 16),
                               TYPES(MPI_INT)}, 1);
    MPI_Type_free(&t);

    /* dup: one datatype; a dup of a _c type has no large counts of its own. */
    MPI_Type_vector_c(2, 1, 3, MPI_INT, &inner);
    MPI_Type_dup(inner, &t);
    check_decode("dup of vector_c", t,
                 (struct want){MPI_COMBINER_DUP, 0, 0, 0, 1, NONE, NONE, NONE,
                               TYPES(MPI_DATATYPE_NULL)}, 0);
    {
        /* The derived argument decodes by its own (large-count) form. */
        MPI_Datatype got;
        MPI_Count c[3], ni, na, nl, nd;
        int comb;
        MPI_Type_get_contents_c(t, 0, 0, 0, 1, NULL, NULL, NULL, &got);
        MPI_Type_get_envelope_c(got, &ni, &na, &nl, &nd, &comb);
        CHECK(comb == MPI_COMBINER_VECTOR && ni == 0 && nl == 3,
              "MPI 4.1 §5.1.13: a returned derived type decodes as the one passed in");
        MPI_Type_get_contents_c(got, 0, 0, 3, 1, NULL, NULL, c, &inner);
        CHECK(c[0] == 2 && c[1] == 1 && c[2] == 3, "MPI 4.1 §5.1.13: its large counts");
        MPI_Type_free(&got);
    }
    MPI_Type_free(&t);

    /* Too small arrays: MPI_ERR_ARG, nothing written. */
    MPI_Type_vector_c(3, 2, 5, MPI_INT, &t);
    {
        MPI_Count c[2] = {-7, -7};
        MPI_Datatype d = MPI_DATATYPE_NULL;
        CHECK_EQ(cls(MPI_Type_get_contents_c(t, 0, 0, 2, 1, NULL, NULL, c, &d)), MPI_ERR_ARG,
                 "MPI 4.1 §5.1.13: max_large_counts below num_large_counts is erroneous");
        CHECK(c[0] == -7 && d == MPI_DATATYPE_NULL, "nothing is written on error");
    }
    MPI_Type_free(&t);

    MPI_Finalize();
    return check_summary("type_decode_table");
}
