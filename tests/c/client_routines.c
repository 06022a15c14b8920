/* The routines a real client (mpi4py) needs around caching: MPI_Topo_test, the names of the null
 * handles, MPI_Comm_split_type, datatype decoding, MPI_Pcontrol, status accessors,
 * MPI_Comm_create_from_group, MPI_Request_get_status*, MPI_Remove_error_*. */
#include <mpi.h>
#include <string.h>
#include "check.h"

static void null_names(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_EQ(MPI_Comm_get_name(MPI_COMM_NULL, name, &len), MPI_SUCCESS,
             "MPI 4.1 §7.8: MPI_COMM_NULL has a name");
    CHECK(strcmp(name, "MPI_COMM_NULL") == 0 && len == 13, "MPI 4.1 §7.8: it is MPI_COMM_NULL");
    CHECK_EQ(MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len), MPI_SUCCESS,
             "MPI 4.1 §5.1.15: MPI_DATATYPE_NULL has a name");
    CHECK(strcmp(name, "MPI_DATATYPE_NULL") == 0, "MPI 4.1 §5.1.15: it is MPI_DATATYPE_NULL");
    CHECK_EQ(MPI_Win_get_name(MPI_WIN_NULL, name, &len), MPI_SUCCESS,
             "MPI 4.1 §12.2.6: MPI_WIN_NULL has a name");
    CHECK(strcmp(name, "MPI_WIN_NULL") == 0, "MPI 4.1 §12.2.6: it is MPI_WIN_NULL");
}

static void split_type(void)
{
    MPI_Comm c = MPI_COMM_NULL;
    int size = 0;
    MPI_Info info;
    CHECK_EQ(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c),
             MPI_SUCCESS, "MPI 4.1 §7.4.2: MPI_COMM_TYPE_SHARED");
    MPI_Comm_size(c, &size);
    CHECK(c != MPI_COMM_NULL && size == 1, "MPI 4.1 §7.4.2: one shared-memory domain of one");
    MPI_Comm_free(&c);
    CHECK_EQ(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &c),
             MPI_SUCCESS, "MPI 4.1 §7.4.2: MPI_UNDEFINED");
    CHECK(c == MPI_COMM_NULL, "MPI 4.1 §7.4.2: MPI_UNDEFINED gives MPI_COMM_NULL");
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory");
    c = MPI_COMM_NULL;
    CHECK_EQ(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c),
             MPI_SUCCESS, "MPI 4.1 §7.4.2: MPI_COMM_TYPE_HW_GUIDED");
    CHECK(c != MPI_COMM_NULL, "MPI 4.1 §7.4.2: mpi_shared_memory is a resource of this process");
    if (c != MPI_COMM_NULL)
        MPI_Comm_free(&c);
    MPI_Info_set(info, "mpi_hw_resource_type", "no-such-resource");
    CHECK_EQ(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c),
             MPI_SUCCESS, "MPI 4.1 §7.4.2: an unknown resource type");
    CHECK(c == MPI_COMM_NULL, "MPI 4.1 §7.4.2: an unknown resource gives MPI_COMM_NULL");
    c = MPI_COMM_WORLD;
    CHECK_EQ(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, MPI_INFO_NULL, &c),
             MPI_SUCCESS, "MPI 4.1 §7.4.2: MPI_COMM_TYPE_HW_UNGUIDED");
    CHECK(c == MPI_COMM_NULL, "MPI 4.1 §7.4.2: one process has no strict subset to split into");
    MPI_Info_set(info, "mpi_pset_name", "mpi://WORLD");
    CHECK_EQ(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_RESOURCE_GUIDED, 0, info, &c),
             MPI_SUCCESS, "MPI 4.1 §7.4.2: MPI_COMM_TYPE_RESOURCE_GUIDED");
    CHECK(c != MPI_COMM_NULL, "MPI 4.1 §7.4.2: mpi://WORLD holds this process");
    if (c != MPI_COMM_NULL)
        MPI_Comm_free(&c);
    MPI_Info_free(&info);
    c = MPI_COMM_WORLD;
    CHECK_EQ(MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL, &c), MPI_ERR_ARG,
             "MPI 4.1 §7.4.2: a split type that is none of the defined ones is MPI_ERR_ARG");
    CHECK(c == MPI_COMM_WORLD, "a failed call writes no output");
}

static void decoding(void)
{
    int ni, na, nd, comb, ints[16];
    MPI_Aint aints[4];
    MPI_Datatype types[4], vec, dup, st, inner;
    MPI_Count cni, cna, cnl, cnd;
    CHECK_EQ(MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &comb), MPI_SUCCESS,
             "MPI 4.1 §5.1.13: envelope of a named type");
    CHECK(comb == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0,
          "MPI 4.1 §5.1.13: a predefined type is MPI_COMBINER_NAMED with no arguments");
    CHECK_EQ(MPI_Type_get_contents(MPI_INT, 0, 0, 0, ints, aints, types), MPI_ERR_ARG,
             "MPI 4.1 §5.1.13: contents of a named type is erroneous");

    MPI_Type_dup(MPI_DOUBLE, &dup);
    MPI_Type_get_envelope(dup, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_DUP && ni == 0 && na == 0 && nd == 1,
          "MPI 4.1 §5.1.13: a dup has one datatype");
    MPI_Type_get_contents(dup, 0, 0, 1, ints, aints, types);
    CHECK(types[0] == MPI_DOUBLE, "MPI 4.1 §5.1.13: a predefined old type comes back as itself");

    MPI_Type_vector(3, 2, 5, dup, &vec);
    MPI_Type_get_envelope(vec, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1,
          "MPI 4.1 §5.1.13: a vector has count, blocklength, stride and one type");
    MPI_Type_free(&dup); /* decoding still works once the old type is freed */
    CHECK_EQ(MPI_Type_get_contents(vec, 3, 0, 1, ints, aints, types), MPI_SUCCESS,
             "MPI 4.1 §5.1.13: contents of a vector");
    CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 5, "MPI 4.1 §5.1.13: the vector's integers");
    inner = types[0];
    MPI_Type_get_envelope(inner, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_DUP,
          "MPI 4.1 §5.1.13: a derived old type comes back as a new type describing it");
    MPI_Type_free(&inner);
    CHECK_EQ(MPI_Type_get_contents(vec, 2, 0, 1, ints, aints, types), MPI_ERR_ARG,
             "MPI 4.1 §5.1.13: arrays too small are an error");
    MPI_Type_free(&vec);

    {
        int bl[2] = {1, 3};
        MPI_Aint disp[2] = {0, 8};
        MPI_Datatype ts[2] = {MPI_DOUBLE, MPI_INT};
        MPI_Type_create_struct(2, bl, disp, ts, &st);
    }
    MPI_Type_get_envelope_c(st, &cni, &cna, &cnl, &cnd, &comb);
    CHECK(comb == MPI_COMBINER_STRUCT && cni == 3 && cna == 2 && cnl == 0 && cnd == 2,
          "MPI 4.1 §5.1.13: a struct has count + blocklengths, displacements, types");
    {
        MPI_Count lc[1];
        MPI_Type_get_contents_c(st, 3, 2, 0, 2, ints, aints, lc, types);
        CHECK(ints[0] == 2 && ints[1] == 1 && ints[2] == 3 && aints[1] == 8 &&
                  types[0] == MPI_DOUBLE && types[1] == MPI_INT,
              "MPI 4.1 §5.1.13: the struct's arguments in order");
    }
    {
        MPI_Status s;
        int n;
        MPI_Type_commit(&st);
        MPI_Status_set_elements(&s, MPI_BYTE, 8 + 4 + 4); /* the double and two of the ints */
        MPI_Get_elements(&s, st, &n);
        CHECK_EQ(n, 3, "MPI 4.1 §5.1.11: MPI_Get_elements counts basic elements received");
        MPI_Get_count(&s, st, &n);
        CHECK_EQ(n, MPI_UNDEFINED, "MPI 4.1 §3.2.5: a partial element makes the count undefined");
    }
    MPI_Type_free(&st);
}

static void status_accessors(void)
{
    MPI_Status s;
    int n, flag;
    MPI_Count c;
    memset(&s, 0, sizeof s);
    CHECK_EQ(MPI_Status_set_elements(&s, MPI_INT, 5), MPI_SUCCESS,
             "MPI 4.1 §13.3: MPI_Status_set_elements");
    MPI_Get_count(&s, MPI_INT, &n);
    CHECK_EQ(n, 5, "MPI 4.1 §13.3: MPI_Get_count reads what set_elements set");
    MPI_Get_count(&s, MPI_SHORT, &n);
    CHECK_EQ(n, 10, "MPI 4.1 §3.2.5: the count is in the datatype asked for");
    MPI_Get_count(&s, MPI_DOUBLE, &n);
    CHECK_EQ(n, MPI_UNDEFINED, "MPI 4.1 §3.2.5: not a whole number of elements: MPI_UNDEFINED");
    MPI_Get_elements_c(&s, MPI_INT, &c);
    CHECK(c == 5, "MPI 4.1 §5.1.11: MPI_Get_elements_c");
    MPI_Status_set_elements_c(&s, MPI_DOUBLE, 3);
    MPI_Get_count_c(&s, MPI_DOUBLE, &c);
    CHECK(c == 3, "MPI 4.1 §13.3: the _c forms agree");
    CHECK_EQ(MPI_Status_set_elements(&s, MPI_INT, -1), MPI_ERR_COUNT,
             "MPI 4.1 §2.6.4: a negative count is MPI_ERR_COUNT");
    MPI_Status_set_cancelled(&s, 1);
    MPI_Test_cancelled(&s, &flag);
    CHECK(flag, "MPI 4.1 §13.3: MPI_Test_cancelled reads MPI_Status_set_cancelled");
    MPI_Status_set_cancelled(&s, 0);
    MPI_Test_cancelled(&s, &flag);
    CHECK(!flag, "MPI 4.1 §13.3: and can be cleared");
    MPI_Status_set_source(&s, 7);
    MPI_Status_set_tag(&s, 8);
    MPI_Status_set_error(&s, MPI_ERR_TAG);
    MPI_Status_get_source(&s, &n);
    CHECK_EQ(n, 7, "MPI 4.1 §3.2.5: MPI_Status_get_source");
    CHECK(s.MPI_SOURCE == 7 && s.MPI_TAG == 8 && s.MPI_ERROR == MPI_ERR_TAG,
          "MPI 4.1 §3.2.5: the accessors set the public fields");
    MPI_Status_get_tag(&s, &n);
    CHECK_EQ(n, 8, "MPI 4.1 §3.2.5: MPI_Status_get_tag");
    MPI_Status_get_error(&s, &n);
    CHECK_EQ(n, MPI_ERR_TAG, "MPI 4.1 §3.2.5: MPI_Status_get_error");
}

static void from_group_and_requests(void)
{
    MPI_Group g;
    MPI_Comm c = MPI_COMM_NULL;
    MPI_Request r[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status s[2];
    int flag = 0, idx = 0, out = 0, idxs[2], size = 0, t = 0;
    MPI_Comm_group(MPI_COMM_WORLD, &g);
    CHECK_EQ(MPI_Comm_create_from_group(g, "org.mpicache.test", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                        &c),
             MPI_SUCCESS, "MPI 4.1 §7.4.2: MPI_Comm_create_from_group");
    MPI_Comm_size(c, &size);
    CHECK_EQ(size, 1, "MPI 4.1 §7.4.2: the communicator has the group's process");
    CHECK_EQ(MPI_Topo_test(c, &t), MPI_SUCCESS, "MPI 4.1 §8.5.5: MPI_Topo_test");
    CHECK_EQ(t, MPI_UNDEFINED, "MPI 4.1 §8.5.5: no topology is MPI_UNDEFINED");
    MPI_Group_free(&g);
    MPI_Comm_idup(c, &c, &r[0]);
    CHECK_EQ(MPI_Request_get_status(r[0], &flag, &s[0]), MPI_SUCCESS,
             "MPI 4.1 §3.7.3: MPI_Request_get_status");
    CHECK(flag && r[0] != MPI_REQUEST_NULL,
          "MPI 4.1 §3.7.3: a complete request is reported and not freed");
    MPI_Request_get_status_any(2, r, &idx, &flag, &s[0]);
    CHECK(flag && idx == 0, "MPI 4.1 §3.7.5: MPI_Request_get_status_any finds it");
    MPI_Request_get_status_all(2, r, &flag, s);
    CHECK(flag, "MPI 4.1 §3.7.5: MPI_Request_get_status_all: every active one complete");
    MPI_Request_get_status_some(2, r, &out, idxs, s);
    CHECK(out == 1 && idxs[0] == 0, "MPI 4.1 §3.7.5: MPI_Request_get_status_some");
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    MPI_Request_get_status_some(2, r, &out, idxs, s);
    CHECK_EQ(out, MPI_UNDEFINED, "MPI 4.1 §3.7.5: no active request: outcount MPI_UNDEFINED");
    MPI_Comm_free(&c);
}

static void error_removal(void)
{
    int cls, code, len;
    char str[MPI_MAX_ERROR_STRING];
    MPI_Add_error_class(&cls);
    MPI_Add_error_code(cls, &code);
    MPI_Add_error_string(code, "a code");
    CHECK_EQ(MPI_Remove_error_class(cls), MPI_ERR_ARG,
             "MPI 4.1 §9.5: a class with codes cannot be removed");
    CHECK_EQ(MPI_Remove_error_code(code), MPI_ERR_ARG,
             "MPI 4.1 §9.5: a code with a string cannot be removed");
    CHECK_EQ(MPI_Remove_error_string(code), MPI_SUCCESS, "MPI 4.1 §9.5: MPI_Remove_error_string");
    MPI_Error_string(code, str, &len);
    CHECK_EQ(len, 0, "MPI 4.1 §9.5: the string is gone");
    CHECK_EQ(MPI_Remove_error_code(code), MPI_SUCCESS, "MPI 4.1 §9.5: MPI_Remove_error_code");
    CHECK_EQ(MPI_Remove_error_class(cls), MPI_SUCCESS, "MPI 4.1 §9.5: then the class");
    CHECK_EQ(MPI_Error_class(code, &len), MPI_ERR_ARG, "MPI 4.1 §9.5: a removed code is no code");
    CHECK_EQ(MPI_Remove_error_class(MPI_ERR_TAG), MPI_ERR_ARG,
             "MPI 4.1 §9.5: predefined classes cannot be removed");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    null_names();
    split_type();
    decoding();
    status_accessors();
    from_group_and_requests();
    error_removal();
    CHECK_EQ(MPI_Pcontrol(1), MPI_SUCCESS, "MPI 4.1 §15.2.4: MPI_Pcontrol accepts any level");
    CHECK_EQ(MPI_Pcontrol(2, "extra"), MPI_SUCCESS, "MPI 4.1 §15.2.4: and extra arguments");
    MPI_Finalize();
    return check_summary("client_routines");
}
