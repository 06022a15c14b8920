/* The standard's C examples of attribute values, set and read in C on MPI_COMM_WORLD.
 * MPI 4.1 §20.3.7 (Example 20.13 A/B, "Attributes" across languages; MPI-2.2 Example 16.17):
 * a C reader of a C-set attribute gets back exactly the void* that was stored: a pointer to an
 * int, a pointer to a struct, or an integer cast to a pointer. MPI 4.1 §7.7.2 for the calls. */
#include <mpi.h>
#include <stdint.h>
#include "check.h"

struct foo {
    int a;
    double b;
};

int main(int argc, char **argv)
{
    int keyval1, keyval2, keyval3, flag;
    int set_val = 3;
    struct foo set_struct = {5, 2.5};
    int *get_val = NULL;
    struct foo *get_struct = NULL;

    MPI_Init(&argc, &argv);
    CHECK_EQ(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval1,
                                    NULL), MPI_SUCCESS, "MPI 4.1 §7.7.2 MPI_Comm_create_keyval");
    CHECK_EQ(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval2,
                                    NULL), MPI_SUCCESS, "MPI 4.1 §7.7.2 MPI_Comm_create_keyval");
    CHECK_EQ(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval3,
                                    NULL), MPI_SUCCESS, "MPI 4.1 §7.7.2 MPI_Comm_create_keyval");
    CHECK(keyval1 != keyval2 && keyval2 != keyval3 && keyval1 != keyval3,
          "MPI 4.1 §7.7.2: each MPI_Comm_create_keyval returns a new key");

    /* A. Setting an attribute value in C */
    CHECK_EQ(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval1, &set_val), MPI_SUCCESS,
             "MPI 4.1 §20.3.7 Example A: set a pointer to an int");
    CHECK_EQ(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval2, &set_struct), MPI_SUCCESS,
             "MPI 4.1 §20.3.7 Example A: set a pointer to a struct");
    CHECK_EQ(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval3, (void *)17), MPI_SUCCESS,
             "MPI 4.1 §20.3.7 Example A: set an integer value");

    /* B. Reading the attribute value in C */
    flag = 0;
    CHECK_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval1, &get_val, &flag), MPI_SUCCESS,
             "MPI 4.1 §7.7.2 MPI_Comm_get_attr");
    CHECK(flag, "MPI 4.1 §7.7.2: flag is true when the attribute is set");
    CHECK(get_val == &set_val, "MPI 4.1 §20.3.7 Example B: get_val == &set_val");
    CHECK(get_val != NULL && *get_val == 3, "MPI 4.1 §20.3.7 Example B: *get_val == 3");

    flag = 0;
    CHECK_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval2, &get_struct, &flag), MPI_SUCCESS,
             "MPI 4.1 §7.7.2 MPI_Comm_get_attr");
    CHECK(flag, "MPI 4.1 §7.7.2: flag is true when the attribute is set");
    CHECK(get_struct == &set_struct, "MPI 4.1 §20.3.7 Example B: get_struct == &set_struct");

    flag = 0;
    CHECK_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval3, &get_val, &flag), MPI_SUCCESS,
             "MPI 4.1 §7.7.2 MPI_Comm_get_attr");
    CHECK(flag, "MPI 4.1 §7.7.2: flag is true when the attribute is set");
    CHECK(get_val == (void *)17, "MPI 4.1 §20.3.7 Example B: get_val == (void*)17");
    CHECK((MPI_Aint)get_val == 17, "MPI 4.1 §20.3.7 Example B: (MPI_Aint)get_val == 17");

    /* The first reads are unchanged by the later sets. */
    CHECK_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval1, &get_val, &flag), MPI_SUCCESS,
             "MPI 4.1 §7.7.2 MPI_Comm_get_attr");
    CHECK(flag && get_val == &set_val, "MPI 4.1 §7.7: attributes under distinct keys are independent");

    CHECK_EQ(MPI_Comm_free_keyval(&keyval1), MPI_SUCCESS, "MPI 4.1 §7.7.2 MPI_Comm_free_keyval");
    CHECK_EQ(MPI_Comm_free_keyval(&keyval2), MPI_SUCCESS, "MPI 4.1 §7.7.2 MPI_Comm_free_keyval");
    CHECK_EQ(MPI_Comm_free_keyval(&keyval3), MPI_SUCCESS, "MPI 4.1 §7.7.2 MPI_Comm_free_keyval");
    CHECK_EQ(MPI_Finalize(), MPI_SUCCESS, "MPI 4.1 §11.2.2 MPI_Finalize");
    return check_summary("attr_examples");
}
