/* Predefined communicator attributes.
 * MPI 4.1 §9.1.2 (environmental inquiries): MPI_TAG_UB (at least 32767), MPI_HOST, MPI_IO,
 * MPI_WTIME_IS_GLOBAL, plus MPI_APPNUM (§11.8.3), MPI_UNIVERSE_SIZE (§11.10.1) and
 * MPI_LASTUSEDCODE (§9.5: it moves when MPI_Add_error_class / MPI_Add_error_code add codes).
 * MPI 4.1 §20.3.7: integer-valued predefined attributes behave as if put by MPI_ATTR_PUT, so
 * a C reader gets a pointer to an int. docs/DESIGN.md: MPI_TAG_UB answers on every communicator, dups
 * and splits included; predefined keyvals cannot be set, deleted or freed by users: that is
 * MPI_ERR_KEYVAL and changes nothing. */
#include <mpi.h>
#include <stdio.h>
#include "check.h"

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* Reads an int-valued predefined attribute; returns the flag. */
static int get_int_attr(MPI_Comm comm, int keyval, int *value)
{
    int *p = NULL, flag = 0;
    int rc = MPI_Comm_get_attr(comm, keyval, &p, &flag);
    CHECK_EQ(rc, MPI_SUCCESS, "MPI 4.1 §7.7.2: MPI_Comm_get_attr on a predefined keyval succeeds");
    if (rc != MPI_SUCCESS || !flag)
        return 0;
    CHECK(p != NULL, "MPI 4.1 §20.3.7: an integer-valued predefined attribute reads as a pointer to int");
    if (p == NULL)
        return 0;
    *value = *p;
    return 1;
}

static void check_comm(MPI_Comm comm, const char *name, const int world[4], const int world_flag[4])
{
    static const int keys[4] = {MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL};
    int i, v = -12345;
    printf("checking %s\n", name);
    CHECK(get_int_attr(comm, MPI_TAG_UB, &v), "docs/DESIGN.md / MPI 4.1 §9.1.2: MPI_TAG_UB is set on every communicator");
    CHECK(v >= 32767, "MPI 4.1 §9.1.2: MPI_TAG_UB is at least 32767");
    for (i = 0; i < 4; i++) {
        int got = -12345;
        if (get_int_attr(comm, keys[i], &got)) {
            CHECK(world_flag[i] && got == world[i],
                  "MPI 4.1 §9.1.2: predefined attributes read the same on every communicator");
        }
    }
}

int main(int argc, char **argv)
{
    int v, size, i;
    int world[4], world_flag[4];
    static const int keys[4] = {MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL};
    MPI_Comm dup, split;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    for (i = 0; i < 4; i++)
        world_flag[i] = get_int_attr(MPI_COMM_WORLD, keys[i], &world[i]);
    CHECK(world_flag[0], "MPI 4.1 §9.1.2: MPI_TAG_UB is set on MPI_COMM_WORLD");
    CHECK(world_flag[0] && world[0] >= 32767, "MPI 4.1 §9.1.2: MPI_TAG_UB is at least 32767");
    CHECK(world_flag[1], "MPI 4.1 §9.1.2: MPI_HOST is set on MPI_COMM_WORLD");
    CHECK(world_flag[1] && (world[1] == MPI_PROC_NULL || (world[1] >= 0 && world[1] < size)),
          "MPI 4.1 §9.1.2: MPI_HOST is a rank or MPI_PROC_NULL");
    CHECK(world_flag[2], "MPI 4.1 §9.1.2: MPI_IO is set on MPI_COMM_WORLD");
    CHECK(world_flag[2] && (world[2] == MPI_PROC_NULL || world[2] == MPI_ANY_SOURCE ||
                            (world[2] >= 0 && world[2] < size)),
          "MPI 4.1 §9.1.2: MPI_IO is a rank, MPI_ANY_SOURCE or MPI_PROC_NULL");
    CHECK(world_flag[3], "MPI 4.1 §9.1.2: MPI_WTIME_IS_GLOBAL is set on MPI_COMM_WORLD");
    CHECK(world_flag[3] && (world[3] == 0 || world[3] == 1), "MPI 4.1 §9.1.2: MPI_WTIME_IS_GLOBAL is 0 or 1");

    if (get_int_attr(MPI_COMM_WORLD, MPI_APPNUM, &v))
        CHECK(v >= 0, "MPI 4.1 §11.8.3: MPI_APPNUM is a non-negative application number");
    if (get_int_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &v))
        CHECK(v >= size, "MPI 4.1 §11.10.1: MPI_UNIVERSE_SIZE is at least the size of MPI_COMM_WORLD");

    /* MPI_LASTUSEDCODE moves with MPI_Add_error_class / MPI_Add_error_code. */
    {
        int last0 = -1, last1 = -1, last2 = -1, cls, code;
        CHECK(get_int_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last0), "MPI 4.1 §9.5: MPI_LASTUSEDCODE is set");
        CHECK(last0 >= MPI_ERR_LASTCODE, "MPI 4.1 §9.5: MPI_LASTUSEDCODE >= MPI_ERR_LASTCODE");
        CHECK_EQ(MPI_Add_error_class(&cls), MPI_SUCCESS, "MPI 4.1 §9.5 MPI_Add_error_class");
        CHECK(get_int_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last1), "MPI 4.1 §9.5: MPI_LASTUSEDCODE is set");
        CHECK(last1 >= cls && last1 > last0, "MPI 4.1 §9.5: MPI_Add_error_class moves MPI_LASTUSEDCODE");
        CHECK_EQ(MPI_Add_error_code(cls, &code), MPI_SUCCESS, "MPI 4.1 §9.5 MPI_Add_error_code");
        CHECK(get_int_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last2), "MPI 4.1 §9.5: MPI_LASTUSEDCODE is set");
        CHECK(last2 >= code && last2 > last1, "MPI 4.1 §9.5: MPI_Add_error_code moves MPI_LASTUSEDCODE");
    }

    check_comm(MPI_COMM_WORLD, "MPI_COMM_WORLD", world, world_flag);
    check_comm(MPI_COMM_SELF, "MPI_COMM_SELF", world, world_flag);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    check_comm(dup, "a dup of MPI_COMM_WORLD", world, world_flag);
    MPI_Comm_split(MPI_COMM_WORLD, 1, 0, &split);
    MPI_Comm_set_errhandler(split, MPI_ERRORS_RETURN);
    check_comm(split, "a split of MPI_COMM_WORLD", world, world_flag);

    /* Users cannot set, delete or free predefined keyvals. */
    {
        int mine = 5, keyval = MPI_TAG_UB;
        CHECK_EQ(error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &mine)), MPI_ERR_KEYVAL,
                 "docs/DESIGN.md (MPI 4.1 §9.1.2: predefined attributes are read-only): setting MPI_TAG_UB is MPI_ERR_KEYVAL");
        CHECK_EQ(error_class(MPI_Comm_set_attr(dup, MPI_HOST, &mine)), MPI_ERR_KEYVAL,
                 "docs/DESIGN.md: setting MPI_HOST is MPI_ERR_KEYVAL");
        CHECK_EQ(error_class(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB)), MPI_ERR_KEYVAL,
                 "docs/DESIGN.md: deleting MPI_TAG_UB is MPI_ERR_KEYVAL");
        CHECK_EQ(error_class(MPI_Comm_free_keyval(&keyval)), MPI_ERR_KEYVAL,
                 "docs/DESIGN.md: freeing MPI_TAG_UB is MPI_ERR_KEYVAL");
        CHECK_EQ(keyval, MPI_TAG_UB, "docs/DESIGN.md: a failed MPI_Comm_free_keyval leaves the keyval argument alone");
        v = -1;
        CHECK(get_int_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v) && v == world[0],
              "docs/DESIGN.md: the failed set/delete/free changed nothing");
        v = -1;
        CHECK(get_int_attr(dup, MPI_HOST, &v) ? v == world[1] : !world_flag[1],
              "docs/DESIGN.md: the failed set changed nothing");
    }

    MPI_Comm_free(&dup);
    MPI_Comm_free(&split);
    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI 4.1 §11.2.2 MPI_Finalize");
    return check_summary("attr_predefined");
}
