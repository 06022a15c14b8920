/* The C parts of MPI 2.2 Examples 16.17 A/B, 16.18 B and 16.19 B (MPI 4.1 §20.3.7), called
 * from examples.F90. The standard's lines are kept as they are; the checks follow them. */
#include <mpi.h>
#include <stdio.h>

struct foo { int a; };
static int set_val = 3;
static struct foo set_struct;

static void fail(MPI_Fint *nfail, const char *what) {
    printf("FAIL (C): %s\n", what);
    ++*nfail;
}

/* Example 16.17 A and B. */
void ex1617_c_setup_(MPI_Fint *keyval1, MPI_Fint *keyval2, MPI_Fint *keyval3, MPI_Aint *addr_val,
               MPI_Aint *addr_struct, MPI_Fint *nfail) {
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, keyval1, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, keyval2, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, keyval3, NULL);
    /* A. */
    MPI_Comm_set_attr(MPI_COMM_WORLD, *keyval1, &set_val);
    MPI_Comm_set_attr(MPI_COMM_WORLD, *keyval2, &set_struct);
    MPI_Comm_set_attr(MPI_COMM_WORLD, *keyval3, (void *) 17);
    /* B. */
    int flag, *get_val;
    struct foo *get_struct;
    MPI_Comm_get_attr(MPI_COMM_WORLD, *keyval1, &get_val, &flag);
    if (!flag || get_val != &set_val || *get_val != 3) fail(nfail, "16.17 B: get_val == &set_val");
    MPI_Comm_get_attr(MPI_COMM_WORLD, *keyval2, &get_struct, &flag);
    if (!flag || get_struct != &set_struct) fail(nfail, "16.17 B: get_struct == &set_struct");
    MPI_Comm_get_attr(MPI_COMM_WORLD, *keyval3, &get_val, &flag);
    if (!flag || (MPI_Aint) get_val != 17) fail(nfail, "16.17 B: get_val == (void*)17");
    *addr_val = (MPI_Aint) &set_val;
    *addr_struct = (MPI_Aint) &set_struct;
}

/* Example 16.18 B. */
void ex1618_c_(MPI_Fint *keyval, MPI_Fint *nfail) {
    int flag;
    int *value;
    MPI_Comm_get_attr(MPI_COMM_WORLD, *keyval, &value, &flag);
    if (!flag || *value != 7) fail(nfail, "16.18 B: *value == (int) 7");
}

/* Example 16.19 B. */
void ex1619_c_(MPI_Fint *keyval1, MPI_Fint *keyval2, MPI_Fint *nfail) {
    int flag;
    MPI_Aint *value1, *value2;
    MPI_Comm_get_attr(MPI_COMM_WORLD, *keyval1, &value1, &flag);
    if (!flag || *value1 != 42) fail(nfail, "16.19 B: *value1 == 42");
    MPI_Comm_get_attr(MPI_COMM_WORLD, *keyval2, &value2, &flag);
    if (!flag || *value2 != (MPI_Aint) 1 << 40) fail(nfail, "16.19 B: *value2 == 2^40");
}
