/* mpicache demo: attributes on a communicator, a datatype and a window, copied on dup and
 * deleted on free, with callbacks that print what they are given.
 *
 *   ci/install.sh --prefix DIR && DIR/bin/mpicc demo.c -o demo && ./demo
 *
 * Standard C and MPI only: it builds with any MPI's mpicc. */
#include <mpi.h>
#include <stdio.h>

struct note {
    const char *text;
    int uses;
};

static int comm_copy(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                     void *attribute_val_out, int *flag)
{
    struct note *n = (struct note *)attribute_val_in;
    printf("  copy   callback: comm     %#x keyval %#x value \"%s\" (extra_state %s)\n",
           (unsigned)oldcomm, (unsigned)keyval, n->text, (const char *)extra_state);
    n->uses++;
    *(void **)attribute_val_out = n; /* share the note, counting its users */
    *flag = 1;
    return MPI_SUCCESS;
}

static int comm_delete(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state)
{
    struct note *n = (struct note *)attribute_val;
    (void)extra_state;
    n->uses--;
    printf("  delete callback: comm     %#x keyval %#x value \"%s\" (%d users left)\n",
           (unsigned)comm, (unsigned)keyval, n->text, n->uses);
    return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype type, int keyval, void *attribute_val, void *extra_state)
{
    (void)extra_state;
    printf("  delete callback: datatype %#x keyval %#x value %ld\n", (unsigned)type,
           (unsigned)keyval, (long)(MPI_Aint)attribute_val);
    return MPI_SUCCESS;
}

static int win_delete(MPI_Win win, int keyval, void *attribute_val, void *extra_state)
{
    (void)extra_state;
    printf("  delete callback: window   %#x keyval %#x value \"%s\"\n", (unsigned)win,
           (unsigned)keyval, (const char *)attribute_val);
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    static char comm_state[] = "demo";
    struct note note = {"hello from MPI_COMM_WORLD", 1};
    int comm_key, type_key, win_key, flag, *tag_ub;
    struct note *got;
    MPI_Comm dup;
    MPI_Datatype four_ints, four_ints_dup;
    MPI_Win win;
    int window_memory[16];
    MPI_Aint *win_size;
    void *win_base;
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;

    MPI_Init(&argc, &argv);
    MPI_Get_library_version(version, &len);
    printf("%s\n", version);

    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
    printf("MPI_TAG_UB on MPI_COMM_WORLD: %d\n", flag ? *tag_ub : -1);

    /* Communicator: the copy callback shares the note with the dup. */
    printf("communicator:\n");
    MPI_Comm_create_keyval(comm_copy, comm_delete, &comm_key, comm_state);
    MPI_Comm_set_attr(MPI_COMM_WORLD, comm_key, &note);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_get_attr(dup, comm_key, &got, &flag);
    printf("  the dup %#x reads \"%s\" (flag %d, %d users)\n", (unsigned)dup,
           flag ? got->text : "", flag, note.uses);
    MPI_Comm_free(&dup);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, comm_key);
    MPI_Comm_free_keyval(&comm_key);

    /* Datatype: MPI_TYPE_DUP_FN copies the value to the dup; each free deletes its copy. */
    printf("datatype:\n");
    MPI_Type_contiguous(4, MPI_INT, &four_ints);
    MPI_Type_commit(&four_ints);
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete, &type_key, NULL);
    MPI_Type_set_attr(four_ints, type_key, (void *)(MPI_Aint)4);
    MPI_Type_dup(four_ints, &four_ints_dup);
    printf("  MPI_Type_contiguous(4, MPI_INT) = %#x, its dup = %#x\n", (unsigned)four_ints,
           (unsigned)four_ints_dup);
    MPI_Type_free(&four_ints_dup);
    MPI_Type_free(&four_ints);
    MPI_Type_free_keyval(&type_key);

    /* Window: predefined attributes and a user attribute deleted at MPI_Win_free. */
    printf("window:\n");
    MPI_Win_create(window_memory, (MPI_Aint)sizeof window_memory, (int)sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_get_attr(win, MPI_WIN_BASE, &win_base, &flag);
    printf("  MPI_WIN_BASE is the array: %s\n", flag && win_base == (void *)window_memory ? "yes" : "no");
    MPI_Win_get_attr(win, MPI_WIN_SIZE, &win_size, &flag);
    printf("  MPI_WIN_SIZE: %ld bytes\n", flag ? (long)*win_size : -1L);
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &win_key, NULL);
    MPI_Win_set_attr(win, win_key, "window note");
    MPI_Win_free(&win);
    MPI_Win_free_keyval(&win_key);

    MPI_Finalize();
    printf("done\n");
    return 0;
}
