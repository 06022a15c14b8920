/* Keyvals made through the profiling names, used through the plain names (issue 17; the
 * pattern of ROMIO inside MPICH and Open MPI, LAYERED.md "The engines' own code uses
 * attributes"): PMPI_Comm_create_keyval / PMPI_Type_create_keyval, then MPI_Comm_set_attr,
 * MPI_Comm_get_attr, MPI_Comm_dup, MPI_Comm_free, MPI_Type_free_keyval and MPI_Comm_free_keyval
 * on them. MPI 4.1 §15.2: the PMPI_ names are the same routines, so the keyvals they make are
 * keyvals like any other. Over the layer the PMPI_ keyvals are the engine's, and the layer
 * must hand them to the engine rather than mistake them for its own. Run on 1, 2 and 4
 * processes by tests/layer_programs.rs; each rank prints "mp_engine_keyval rank R: ...". */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"

static int copies, deletes;

static int copy_cb(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c;
    (void)k;
    (void)extra;
    *(void **)out = in;
    *flag = 1;
    copies++;
    return MPI_SUCCESS;
}

static int delete_cb(MPI_Comm c, int k, void *val, void *extra)
{
    (void)c;
    (void)k;
    (void)val;
    (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int rank, k, kt, flag = 0, cls;
    void *v = NULL;
    MPI_Comm dup;
    char name[48];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    CHECK_EQ(PMPI_Comm_create_keyval(copy_cb, delete_cb, &k, NULL), MPI_SUCCESS,
             "MPI 4.1 §15.2: PMPI_Comm_create_keyval");
    CHECK_EQ(MPI_Comm_set_attr(MPI_COMM_WORLD, k, (void *)(intptr_t)(rank + 40)), MPI_SUCCESS,
             "MPI 4.1 §7.7.2, §15.2: MPI_Comm_set_attr on a keyval made by PMPI_Comm_create_keyval");
    CHECK_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, k, &v, &flag), MPI_SUCCESS,
             "MPI 4.1 §7.7.2, §15.2: MPI_Comm_get_attr on it");
    CHECK(flag == 1 && v == (void *)(intptr_t)(rank + 40),
          "MPI 4.1 §7.7.2: the value set under the PMPI_ keyval reads back");
    CHECK_EQ(MPI_Comm_dup(MPI_COMM_WORLD, &dup), MPI_SUCCESS, "MPI 4.1 §7.4.2: MPI_Comm_dup");
    CHECK_EQ(copies, 1, "MPI 4.1 §7.7.2: MPI_Comm_dup runs the PMPI_ keyval's copy callback once");
    flag = 0;
    v = NULL;
    MPI_Comm_get_attr(dup, k, &v, &flag);
    CHECK(flag == 1 && v == (void *)(intptr_t)(rank + 40), "MPI 4.1 §7.7.2: the dup carries it");
    CHECK_EQ(MPI_Comm_free(&dup), MPI_SUCCESS, "MPI 4.1 §7.4.3: MPI_Comm_free");
    CHECK_EQ(deletes, 1, "MPI 4.1 §7.7.2: MPI_Comm_free runs its delete callback once");
    CHECK_EQ(MPI_Comm_delete_attr(MPI_COMM_WORLD, k), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: MPI_Comm_delete_attr on it");
    CHECK_EQ(deletes, 2, "MPI 4.1 §7.7.2: MPI_Comm_delete_attr runs its delete callback");
    CHECK_EQ(MPI_Comm_free_keyval(&k), MPI_SUCCESS,
             "MPI 4.1 §7.7.2, §15.2: MPI_Comm_free_keyval of a PMPI_ keyval");
    CHECK(k == MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.2: it is set to MPI_KEYVAL_INVALID");

    /* ROMIO (MPICH before 5.0.1) frees a PMPI_ datatype keyval with MPI_Type_free_keyval. */
    CHECK_EQ(PMPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &kt, NULL),
             MPI_SUCCESS, "MPI 4.1 §15.2: PMPI_Type_create_keyval");
    cls = MPI_Type_free_keyval(&kt);
    CHECK_EQ(cls, MPI_SUCCESS, "MPI 4.1 §7.7.4, §15.2: MPI_Type_free_keyval of a PMPI_ keyval");
    CHECK(kt == MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.4: it is set to MPI_KEYVAL_INVALID");

    MPI_Finalize();
    snprintf(name, sizeof name, "mp_engine_keyval rank %d", rank);
    return check_summary(name);
}
