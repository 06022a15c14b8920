/* Attributes on datatypes and windows.
 * MPI 4.1 §7.7.4 (datatypes): MPI_Type_create_keyval / set / get / delete; MPI_Type_dup runs
 * the copy callbacks (MPI_TYPE_DUP_FN copies the value, MPI_TYPE_NULL_COPY_FN nothing) and
 * MPI_Type_free runs the delete callbacks, with the datatype's handle.
 * MPI 4.1 §7.7.3 (windows) and §12.2.6 (window attributes): MPI_WIN_BASE (the base pointer, as
 * set from C), MPI_WIN_SIZE (pointer to MPI_Aint), MPI_WIN_DISP_UNIT (pointer to int),
 * MPI_WIN_CREATE_FLAVOR (MPI_WIN_FLAVOR_CREATE for MPI_Win_create) and MPI_WIN_MODEL
 * (MPI_WIN_UNIFIED or MPI_WIN_SEPARATE); user attributes are deleted at MPI_Win_free. */
#include <mpi.h>
#include "check.h"

static int type_copies = 0, type_deletes = 0, win_deletes = 0;
static MPI_Datatype last_type_deleted = MPI_DATATYPE_NULL;
static MPI_Win last_win_deleted = MPI_WIN_NULL;
static void *last_type_value = NULL;

static int type_copy(MPI_Datatype oldtype, int keyval, void *extra_state, void *attribute_val_in,
                     void *attribute_val_out, int *flag)
{
    (void)oldtype;
    (void)keyval;
    (void)extra_state;
    type_copies++;
    *(void **)attribute_val_out = (void *)((MPI_Aint)attribute_val_in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype type, int keyval, void *attribute_val, void *extra_state)
{
    (void)keyval;
    (void)extra_state;
    type_deletes++;
    last_type_deleted = type;
    last_type_value = attribute_val;
    return MPI_SUCCESS;
}

static int win_delete(MPI_Win win, int keyval, void *attribute_val, void *extra_state)
{
    (void)keyval;
    (void)attribute_val;
    (void)extra_state;
    win_deletes++;
    last_win_deleted = win;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Datatype contig, dup, dup2;
    MPI_Win win, freed_win;
    int k_user, k_dupfn, k_null, k_win, flag;
    void *val;
    int buf[10];

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* ---- datatypes ---- */
    CHECK_EQ(MPI_Type_contiguous(4, MPI_INT, &contig), MPI_SUCCESS, "MPI 4.1 §5.1.2 MPI_Type_contiguous");
    CHECK_EQ(MPI_Type_commit(&contig), MPI_SUCCESS, "MPI 4.1 §5.1.9 MPI_Type_commit");
    CHECK_EQ(MPI_Type_create_keyval(type_copy, type_delete, &k_user, NULL), MPI_SUCCESS,
             "MPI 4.1 §7.7.4 MPI_Type_create_keyval");
    CHECK_EQ(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete, &k_dupfn, NULL), MPI_SUCCESS,
             "MPI 4.1 §7.7.4 MPI_Type_create_keyval");
    CHECK_EQ(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_delete, &k_null, NULL), MPI_SUCCESS,
             "MPI 4.1 §7.7.4 MPI_Type_create_keyval");
    CHECK_EQ(MPI_Type_set_attr(contig, k_user, (void *)10), MPI_SUCCESS, "MPI 4.1 §7.7.4 MPI_Type_set_attr");
    CHECK_EQ(MPI_Type_set_attr(contig, k_dupfn, (void *)20), MPI_SUCCESS, "MPI 4.1 §7.7.4 MPI_Type_set_attr");
    CHECK_EQ(MPI_Type_set_attr(contig, k_null, (void *)30), MPI_SUCCESS, "MPI 4.1 §7.7.4 MPI_Type_set_attr");
    val = NULL;
    CHECK_EQ(MPI_Type_get_attr(contig, k_user, &val, &flag), MPI_SUCCESS, "MPI 4.1 §7.7.4 MPI_Type_get_attr");
    CHECK(flag && val == (void *)10, "MPI 4.1 §7.7.4: get returns the value set");

    CHECK_EQ(MPI_Type_dup(contig, &dup), MPI_SUCCESS, "MPI 4.1 §5.1.10 MPI_Type_dup");
    CHECK_EQ(type_copies, 1, "MPI 4.1 §5.1.10: MPI_Type_dup runs the copy callbacks");
    CHECK_EQ(MPI_Type_get_attr(dup, k_user, &val, &flag), MPI_SUCCESS, "MPI 4.1 §7.7.4 MPI_Type_get_attr");
    CHECK(flag && val == (void *)11, "MPI 4.1 §7.7.4: the copy callback's result is on the new type");
    CHECK_EQ(MPI_Type_get_attr(dup, k_dupfn, &val, &flag), MPI_SUCCESS, "MPI 4.1 §7.7.4 MPI_Type_get_attr");
    CHECK(flag && val == (void *)20, "MPI 4.1 §7.7.4: MPI_TYPE_DUP_FN copies the value");
    CHECK_EQ(MPI_Type_get_attr(dup, k_null, &val, &flag), MPI_SUCCESS, "MPI 4.1 §7.7.4 MPI_Type_get_attr");
    CHECK(!flag, "MPI 4.1 §7.7.4: MPI_TYPE_NULL_COPY_FN copies nothing");

    /* Overwrite and delete on a datatype */
    CHECK_EQ(MPI_Type_set_attr(dup, k_user, (void *)12), MPI_SUCCESS, "MPI 4.1 §7.7.4 MPI_Type_set_attr");
    CHECK_EQ(type_deletes, 1, "MPI 4.1 §7.7.4: overwriting runs the delete callback");
    CHECK(last_type_deleted == dup && last_type_value == (void *)11,
          "MPI 4.1 §7.7.4: ... with the datatype and the old value");
    CHECK_EQ(MPI_Type_delete_attr(dup, k_user), MPI_SUCCESS, "MPI 4.1 §7.7.4 MPI_Type_delete_attr");
    CHECK_EQ(type_deletes, 2, "MPI 4.1 §7.7.4: MPI_Type_delete_attr runs the delete callback");

    /* Free: every remaining attribute's delete callback, with the datatype's handle */
    {
        MPI_Datatype freed = dup;
        CHECK_EQ(MPI_Type_free(&dup), MPI_SUCCESS, "MPI 4.1 §5.1.9 MPI_Type_free");
        CHECK(dup == MPI_DATATYPE_NULL, "MPI 4.1 §5.1.9: MPI_Type_free sets the handle to MPI_DATATYPE_NULL");
        CHECK_EQ(type_deletes, 3, "MPI 4.1 §7.7.4: MPI_Type_free runs the delete callback of the MPI_TYPE_DUP_FN copy");
        CHECK(last_type_deleted == freed && last_type_value == (void *)20,
              "MPI 4.1 §7.7.4: ... with the freed datatype's handle and value");
    }
    CHECK_EQ(MPI_Type_dup(contig, &dup2), MPI_SUCCESS, "MPI 4.1 §5.1.10 MPI_Type_dup");
    type_deletes = 0;
    CHECK_EQ(MPI_Type_free(&contig), MPI_SUCCESS, "MPI 4.1 §5.1.9 MPI_Type_free");
    CHECK_EQ(type_deletes, 3, "MPI 4.1 §7.7.4: MPI_Type_free runs the delete callbacks of all three attributes");
    CHECK_EQ(MPI_Type_free(&dup2), MPI_SUCCESS, "MPI 4.1 §5.1.9 MPI_Type_free");
    CHECK_EQ(type_deletes, 5, "MPI 4.1 §7.7.4: the second dup's two copies are deleted at its free");
    MPI_Type_free_keyval(&k_user);
    MPI_Type_free_keyval(&k_dupfn);
    MPI_Type_free_keyval(&k_null);
    CHECK_EQ(k_user, MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.4: MPI_Type_free_keyval writes MPI_KEYVAL_INVALID");

    /* ---- windows ---- */
    CHECK_EQ(MPI_Win_create(buf, (MPI_Aint)sizeof buf, (int)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win),
             MPI_SUCCESS, "MPI 4.1 §12.2.1 MPI_Win_create");
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    {
        void *base = NULL;
        MPI_Aint *size = NULL;
        int *disp_unit = NULL, *flavor = NULL, *model = NULL;
        CHECK_EQ(MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag), MPI_SUCCESS, "MPI 4.1 §12.2.6");
        CHECK(flag && base == (void *)buf, "MPI 4.1 §12.2.6 / §20.3.7: MPI_WIN_BASE is the base pointer itself");
        CHECK_EQ(MPI_Win_get_attr(win, MPI_WIN_SIZE, &size, &flag), MPI_SUCCESS, "MPI 4.1 §12.2.6");
        CHECK(flag && size != NULL && *size == (MPI_Aint)sizeof buf,
              "MPI 4.1 §12.2.6: MPI_WIN_SIZE points to an MPI_Aint holding the size");
        CHECK_EQ(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &disp_unit, &flag), MPI_SUCCESS, "MPI 4.1 §12.2.6");
        CHECK(flag && disp_unit != NULL && *disp_unit == (int)sizeof(int),
              "MPI 4.1 §12.2.6: MPI_WIN_DISP_UNIT points to an int holding the unit");
        CHECK_EQ(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag), MPI_SUCCESS, "MPI 4.1 §12.2.6");
        CHECK(flag && flavor != NULL && *flavor == MPI_WIN_FLAVOR_CREATE,
              "MPI 4.1 §12.2.6: MPI_WIN_CREATE_FLAVOR is MPI_WIN_FLAVOR_CREATE for MPI_Win_create");
        CHECK_EQ(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag), MPI_SUCCESS, "MPI 4.1 §12.2.6");
        CHECK(flag && model != NULL && (*model == MPI_WIN_UNIFIED || *model == MPI_WIN_SEPARATE),
              "MPI 4.1 §12.2.6: MPI_WIN_MODEL is MPI_WIN_UNIFIED or MPI_WIN_SEPARATE");
    }
    CHECK_EQ(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &k_win, NULL), MPI_SUCCESS,
             "MPI 4.1 §7.7.3 MPI_Win_create_keyval");
    CHECK_EQ(MPI_Win_set_attr(win, k_win, (void *)55), MPI_SUCCESS, "MPI 4.1 §7.7.3 MPI_Win_set_attr");
    CHECK_EQ(MPI_Win_get_attr(win, k_win, &val, &flag), MPI_SUCCESS, "MPI 4.1 §7.7.3 MPI_Win_get_attr");
    CHECK(flag && val == (void *)55, "MPI 4.1 §7.7.3: get returns the value set");
    {
        int cls = -1;
        MPI_Error_class(MPI_Win_set_attr(win, MPI_WIN_BASE, (void *)1), &cls);
        CHECK_EQ(cls, MPI_ERR_KEYVAL, "docs/DESIGN.md: predefined window attributes cannot be set");
    }
    freed_win = win;
    CHECK_EQ(MPI_Win_free(&win), MPI_SUCCESS, "MPI 4.1 §12.2.5 MPI_Win_free");
    CHECK(win == MPI_WIN_NULL, "MPI 4.1 §12.2.5: MPI_Win_free sets the handle to MPI_WIN_NULL");
    CHECK_EQ(win_deletes, 1, "MPI 4.1 §7.7.3: MPI_Win_free runs the delete callback");
    CHECK(last_win_deleted == freed_win, "MPI 4.1 §7.7.3: ... with the window's handle");
    MPI_Win_free_keyval(&k_win);

    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI 4.1 §11.2.2 MPI_Finalize");
    CHECK_EQ(win_deletes, 1, "MPI 4.1 §7.7.3: each attribute deleted once");
    return check_summary("attr_type_win");
}
