/* Info objects (MPI 4.1 §10) and the routines that take them: MPI_Comm_dup_with_info,
 * MPI_Comm_idup_with_info, MPI_Comm_split_type, MPI_Win_create, MPI_Win_allocate,
 * MPI_Alloc_mem take a created info as well as MPI_INFO_NULL. */
#include <mpi.h>
#include <string.h>
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Info info, dup;
    MPI_Comm comm;
    int nkeys, flag, len, rc, cls;
    char value[MPI_MAX_INFO_VAL], key[MPI_MAX_INFO_KEY];

    MPI_Init(&argc, &argv);
    /* Errors tied to no communicator go to MPI_COMM_SELF's handler (MPI 4.1 §9.3); older
     * implementations use MPI_COMM_WORLD's: set both, so the program is portable. */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    CHECK_EQ(MPI_Info_create(&info), MPI_SUCCESS, "MPI 4.1 §10.3 MPI_Info_create");
    CHECK_EQ(MPI_Info_get_nkeys(info, &nkeys), MPI_SUCCESS, "MPI 4.1 §10.3 MPI_Info_get_nkeys");
    CHECK_EQ(nkeys, 0, "MPI 4.1 §10.3: a new info is empty");
    CHECK_EQ(MPI_Info_set(info, "no_locks", "true"), MPI_SUCCESS, "MPI 4.1 §10.3 MPI_Info_set");
    CHECK_EQ(MPI_Info_set(info, "mpi_assert_no_any_tag", "false"), MPI_SUCCESS, "MPI 4.1 §10.3 MPI_Info_set");
    CHECK_EQ(MPI_Info_set(info, "no_locks", "false"), MPI_SUCCESS, "MPI 4.1 §10.3: setting a key again replaces its value");
    MPI_Info_get_nkeys(info, &nkeys);
    CHECK_EQ(nkeys, 2, "MPI 4.1 §10.3: a key set twice is one key");
    MPI_Info_get_nthkey(info, 0, key);
    CHECK(strcmp(key, "no_locks") == 0, "MPI 4.1 §10.3: keys are numbered in order of setting");
    CHECK_EQ(MPI_Info_get_valuelen(info, "no_locks", &len, &flag), MPI_SUCCESS, "MPI 4.1 §10.3 MPI_Info_get_valuelen");
    CHECK(flag && len == 5, "MPI 4.1 §10.3: the value's length");
    len = MPI_MAX_INFO_VAL;
    CHECK_EQ(MPI_Info_get_string(info, "no_locks", &len, value, &flag), MPI_SUCCESS, "MPI 4.1 §10.3 MPI_Info_get_string");
    CHECK(flag && strcmp(value, "false") == 0 && len == 6, "MPI 4.1 §10.3: value and buflen = length + 1");
    len = 3;
    MPI_Info_get_string(info, "no_locks", &len, value, &flag);
    CHECK(flag && strcmp(value, "fa") == 0 && len == 6, "MPI 4.1 §10.3: a short buffer gets a truncated, terminated value");
    MPI_Info_get_string(info, "absent", &len, value, &flag);
    CHECK(!flag, "MPI 4.1 §10.3: a missing key gives flag = false");

    CHECK_EQ(MPI_Info_dup(info, &dup), MPI_SUCCESS, "MPI 4.1 §10.3 MPI_Info_dup");
    CHECK_EQ(MPI_Info_delete(info, "no_locks"), MPI_SUCCESS, "MPI 4.1 §10.3 MPI_Info_delete");
    rc = MPI_Info_delete(info, "no_locks");
    MPI_Error_class(rc, &cls);
    CHECK_EQ(cls, MPI_ERR_INFO_NOKEY, "MPI 4.1 §10.3: deleting a missing key is MPI_ERR_INFO_NOKEY");
    MPI_Info_get_nkeys(dup, &nkeys);
    CHECK_EQ(nkeys, 2, "MPI 4.1 §10.3: the dup keeps its own keys");

    /* Routines that take an info accept a created one. */
    CHECK_EQ(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm), MPI_SUCCESS, "MPI 4.1 §7.4.2 MPI_Comm_dup_with_info");
    {
        MPI_Info used;
        CHECK_EQ(MPI_Comm_get_info(comm, &used), MPI_SUCCESS, "MPI 4.1 §7.4.4 MPI_Comm_get_info");
        CHECK_EQ(MPI_Info_free(&used), MPI_SUCCESS, "MPI 4.1 §7.4.4: the caller frees the info returned");
    }
    MPI_Comm_free(&comm);
    {
        int buf[4];
        MPI_Win win;
        void *mem;
        CHECK_EQ(MPI_Win_create(buf, sizeof buf, sizeof(int), info, MPI_COMM_WORLD, &win), MPI_SUCCESS, "MPI 4.1 §12.2.1 MPI_Win_create with an info");
        MPI_Win_free(&win);
        CHECK_EQ(MPI_Alloc_mem(64, dup, &mem), MPI_SUCCESS, "MPI 4.1 §8.2 MPI_Alloc_mem with an info");
        MPI_Free_mem(mem);
    }

    CHECK_EQ(MPI_Info_free(&info), MPI_SUCCESS, "MPI 4.1 §10.3 MPI_Info_free");
    CHECK(info == MPI_INFO_NULL, "MPI 4.1 §10.3: MPI_Info_free sets MPI_INFO_NULL");
    rc = MPI_Info_get_nkeys(dup, &nkeys);
    CHECK_EQ(rc, MPI_SUCCESS, "MPI 4.1 §10.3: freeing one info leaves its dup");
    MPI_Info_free(&dup);
    rc = MPI_Info_set(dup, "k", "v");
    MPI_Error_class(rc, &cls);
    /* The standard names no class for this; MPI_ERR_INFO ("invalid info object") or
     * MPI_ERR_ARG both say it. */
    CHECK(cls == MPI_ERR_INFO || cls == MPI_ERR_ARG, "MPI 4.1 §10: MPI_INFO_NULL is not an info to set");

    MPI_Finalize();
    return check_summary("info");
}
