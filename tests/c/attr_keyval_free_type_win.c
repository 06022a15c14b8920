/* Freeing datatype and window keyvals that attributes still use.
 * MPI 4.1 §7.7.4 MPI_TYPE_FREE_KEYVAL and §7.7.3 MPI_WIN_FREE_KEYVAL behave like
 * MPI_COMM_FREE_KEYVAL (§7.7.2): "the actual free does not transpire until after all references
 * ... to the key have been freed", by a delete of one instance or by freeing the object.
 *
 * So until its last attribute goes, a saved copy of the freed number still names the
 * attributes it has: get finds them (flag = false on an object without one), delete releases
 * one, an overwrite replaces one, MPI_Type_dup still runs the copy callback. A set that would
 * create an attribute under it and a second free are MPI_ERR_KEYVAL and change nothing. Once
 * the last attribute is gone the number is invalid (MPI_ERR_KEYVAL). */
#include <mpi.h>
#include <stdint.h>
#include "check.h"

static int type_copies = 0, type_deletes = 0, win_deletes = 0;
static void *last_type_deleted, *last_win_deleted;

static int type_copy(MPI_Datatype oldtype, int keyval, void *extra_state, void *attribute_val_in,
                     void *attribute_val_out, int *flag)
{
    (void)oldtype;
    (void)keyval;
    (void)extra_state;
    type_copies++;
    *(void **)attribute_val_out = (void *)((intptr_t)attribute_val_in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype type, int keyval, void *attribute_val, void *extra_state)
{
    (void)type;
    (void)keyval;
    (void)extra_state;
    type_deletes++;
    last_type_deleted = attribute_val;
    return MPI_SUCCESS;
}

static int win_delete(MPI_Win win, int keyval, void *attribute_val, void *extra_state)
{
    (void)win;
    (void)keyval;
    (void)extra_state;
    win_deletes++;
    last_win_deleted = attribute_val;
    return MPI_SUCCESS;
}

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

static int type_get(MPI_Datatype t, int keyval, void **val)
{
    int flag = -7;
    if (MPI_Type_get_attr(t, keyval, val, &flag) != MPI_SUCCESS)
        return -1;
    return flag;
}

static int win_get(MPI_Win w, int keyval, void **val)
{
    int flag = -7;
    if (MPI_Win_get_attr(w, keyval, val, &flag) != MPI_SUCCESS)
        return -1;
    return flag;
}

static void datatypes(void)
{
    MPI_Datatype t, other, dup;
    int keyval, saved;
    void *val;

    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_contiguous(3, MPI_INT, &other);
    MPI_Type_create_keyval(type_copy, type_delete, &keyval, NULL);
    saved = keyval;
    CHECK_EQ(MPI_Type_set_attr(t, keyval, (void *)10), MPI_SUCCESS, "MPI 4.1 §7.7.4 MPI_Type_set_attr");
    CHECK_EQ(MPI_Type_free_keyval(&keyval), MPI_SUCCESS,
             "MPI 4.1 §7.7.4: freeing a datatype keyval in use is not erroneous");
    CHECK_EQ(keyval, MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.4: MPI_Type_free_keyval writes MPI_KEYVAL_INVALID");

    val = NULL;
    CHECK_EQ(type_get(t, saved, &val), 1, "MPI 4.1 §7.7.2: MPI_Type_get_attr with the freed keyval finds its attribute");
    CHECK(val == (void *)10, "MPI 4.1 §7.7.2: ... with its value");
    val = (void *)0x77;
    CHECK_EQ(type_get(other, saved, &val), 0, "MPI 4.1 §7.7.2: on a datatype without it: flag = false");
    CHECK(val == (void *)0x77, "MPI 4.1 §7.7.2: flag = false leaves attribute_val alone");

    CHECK_EQ(error_class(MPI_Type_set_attr(other, saved, (void *)1)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: MPI_Type_set_attr cannot create an attribute under a freed keyval");
    CHECK_EQ(type_get(other, saved, &val), 0, "MPI 4.1 §7.7.2: ... and created none");
    CHECK_EQ(error_class(MPI_Type_free_keyval(&saved)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.4: a freed keyval cannot be freed again");
    CHECK(saved != MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.4: a failed free leaves the variable alone");
    CHECK_EQ(type_deletes, 0, "MPI 4.1 §7.7.2: the failed calls ran nothing");

    CHECK_EQ(MPI_Type_set_attr(t, saved, (void *)20), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: MPI_Type_set_attr overwrites the attribute a freed keyval has");
    CHECK_EQ(type_deletes, 1, "MPI 4.1 §7.7.2: the overwrite ran the delete callback");
    CHECK(last_type_deleted == (void *)10, "MPI 4.1 §7.7.2: ... on the old value");

    CHECK_EQ(MPI_Type_dup(t, &dup), MPI_SUCCESS, "MPI 4.1 §5.1.10 MPI_Type_dup");
    CHECK_EQ(type_copies, 1, "MPI 4.1 §7.7.4: MPI_Type_dup runs the freed keyval's copy callback");
    CHECK_EQ(type_get(dup, saved, &val), 1, "MPI 4.1 §7.7.2: the copy is found with the freed keyval");
    CHECK(val == (void *)21, "MPI 4.1 §7.7.4: ... with the callback's value");

    CHECK_EQ(MPI_Type_delete_attr(t, saved), MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Type_delete_attr with the freed keyval");
    CHECK_EQ(type_deletes, 2, "MPI 4.1 §7.7.2: ... runs the delete callback");
    CHECK(last_type_deleted == (void *)20, "MPI 4.1 §7.7.2: ... with its value");
    CHECK_EQ(type_get(t, saved, &val), 0, "MPI 4.1 §7.7.2: the deleted attribute is gone");
    CHECK_EQ(MPI_Type_delete_attr(other, saved), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: deleting an attribute that is not set is not an error");

    CHECK_EQ(MPI_Type_free(&dup), MPI_SUCCESS, "MPI 4.1 §5.1.9 MPI_Type_free");
    CHECK_EQ(type_deletes, 3, "MPI 4.1 §7.7.4: MPI_Type_free deletes the last attribute");
    CHECK(last_type_deleted == (void *)21, "MPI 4.1 §7.7.4: ... with its value");
    CHECK_EQ(error_class(MPI_Type_get_attr(t, saved, &val, &keyval)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: with its last attribute gone the number is invalid (get)");
    CHECK_EQ(error_class(MPI_Type_delete_attr(t, saved)), MPI_ERR_KEYVAL, "MPI 4.1 §7.7.2: ... (delete)");
    CHECK_EQ(error_class(MPI_Type_set_attr(t, saved, (void *)1)), MPI_ERR_KEYVAL, "MPI 4.1 §7.7.2: ... (set)");
    MPI_Type_free(&t);
    MPI_Type_free(&other);
}

static void windows(void)
{
    static int buf[4], buf2[4];
    MPI_Win w, other;
    int keyval, saved;
    void *val;

    MPI_Win_create(buf, (MPI_Aint)sizeof buf, (int)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_create(buf2, (MPI_Aint)sizeof buf2, (int)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &other);
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    MPI_Win_set_errhandler(other, MPI_ERRORS_RETURN);
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &keyval, NULL);
    saved = keyval;
    CHECK_EQ(MPI_Win_set_attr(w, keyval, (void *)30), MPI_SUCCESS, "MPI 4.1 §7.7.3 MPI_Win_set_attr");
    CHECK_EQ(MPI_Win_free_keyval(&keyval), MPI_SUCCESS,
             "MPI 4.1 §7.7.3: freeing a window keyval in use is not erroneous");
    CHECK_EQ(keyval, MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.3: MPI_Win_free_keyval writes MPI_KEYVAL_INVALID");

    val = NULL;
    CHECK_EQ(win_get(w, saved, &val), 1, "MPI 4.1 §7.7.2: MPI_Win_get_attr with the freed keyval finds its attribute");
    CHECK(val == (void *)30, "MPI 4.1 §7.7.2: ... with its value");
    val = (void *)0x77;
    CHECK_EQ(win_get(other, saved, &val), 0, "MPI 4.1 §7.7.2: on a window without it: flag = false");
    CHECK(val == (void *)0x77, "MPI 4.1 §7.7.2: flag = false leaves attribute_val alone");

    CHECK_EQ(error_class(MPI_Win_set_attr(other, saved, (void *)1)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: MPI_Win_set_attr cannot create an attribute under a freed keyval");
    CHECK_EQ(win_get(other, saved, &val), 0, "MPI 4.1 §7.7.2: ... and created none");
    CHECK_EQ(error_class(MPI_Win_free_keyval(&saved)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.3: a freed keyval cannot be freed again");
    CHECK(saved != MPI_KEYVAL_INVALID, "MPI 4.1 §7.7.3: a failed free leaves the variable alone");
    CHECK_EQ(win_deletes, 0, "MPI 4.1 §7.7.2: the failed calls ran nothing");

    CHECK_EQ(MPI_Win_set_attr(w, saved, (void *)31), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: MPI_Win_set_attr overwrites the attribute a freed keyval has");
    CHECK_EQ(win_deletes, 1, "MPI 4.1 §7.7.2: the overwrite ran the delete callback");
    CHECK(last_win_deleted == (void *)30, "MPI 4.1 §7.7.2: ... on the old value");
    CHECK_EQ(MPI_Win_delete_attr(other, saved), MPI_SUCCESS,
             "MPI 4.1 §7.7.2: deleting an attribute that is not set is not an error");
    CHECK_EQ(win_deletes, 1, "MPI 4.1 §7.7.2: ... and calls nothing");

    CHECK_EQ(MPI_Win_free(&w), MPI_SUCCESS, "MPI 4.1 §12.2.5 MPI_Win_free");
    CHECK_EQ(win_deletes, 2, "MPI 4.1 §7.7.3: MPI_Win_free deletes the freed keyval's last attribute");
    CHECK(last_win_deleted == (void *)31, "MPI 4.1 §7.7.3: ... with its value");
    CHECK_EQ(error_class(MPI_Win_get_attr(other, saved, &val, &keyval)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: with its last attribute gone the number is invalid (get)");
    CHECK_EQ(error_class(MPI_Win_delete_attr(other, saved)), MPI_ERR_KEYVAL, "MPI 4.1 §7.7.2: ... (delete)");

    /* And with MPI_Win_delete_attr releasing the last one. */
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &keyval, NULL);
    saved = keyval;
    MPI_Win_set_attr(other, keyval, (void *)40);
    MPI_Win_free_keyval(&keyval);
    CHECK_EQ(MPI_Win_delete_attr(other, saved), MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Win_delete_attr with the freed keyval");
    CHECK_EQ(win_deletes, 3, "MPI 4.1 §7.7.2: ... runs the delete callback");
    CHECK(last_win_deleted == (void *)40, "MPI 4.1 §7.7.2: ... with its value");
    CHECK_EQ(error_class(MPI_Win_set_attr(other, saved, (void *)1)), MPI_ERR_KEYVAL,
             "MPI 4.1 §7.7.2: with its last attribute gone the number is invalid (set)");
    MPI_Win_free(&other);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    datatypes();
    windows();
    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI 4.1 §11.2.2 MPI_Finalize");
    CHECK_EQ(type_deletes, 3, "MPI 4.1 §7.7.2: each datatype attribute deleted exactly once");
    CHECK_EQ(win_deletes, 3, "MPI 4.1 §7.7.2: each window attribute deleted exactly once");
    return check_summary("attr_keyval_free_type_win");
}
