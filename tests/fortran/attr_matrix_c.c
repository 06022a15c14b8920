/* C half of attr_matrix.F90: the C writer and the C reader of the writer x reader matrix
 * (MPI 4.1 §20.3.7, docs/DESIGN.md "What each reader gets"). Called from Fortran: every argument
 * by reference, gfortran's trailing underscore. */
#include <mpi.h>
#include <stdio.h>
#include <stdint.h>

static int set_val = 3;
static struct foo { int a; double b; } set_struct = {1, 2.0};

static void fail(int *nfail, const char *what) {
    printf("FAIL (C): %s\n", what);
    ++*nfail;
}

/* MPI 4.1 §20.3.7 Example 20.x A: C sets a pointer to an int, a pointer to a struct and
 * (void*)17 on the keyvals it creates; returns the keyvals and the addresses it stored. */
void c_set_matrix_(MPI_Fint *comm, MPI_Fint *k_int, MPI_Fint *k_struct, MPI_Fint *k_17,
                   MPI_Aint *addr_int, MPI_Aint *addr_struct, MPI_Fint *low_int,
                   MPI_Fint *low_struct, MPI_Fint *nfail) {
    MPI_Comm c = MPI_Comm_f2c(*comm);
    int k1, k2, k3;
    if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k1, NULL) ||
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k2, NULL) ||
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k3, NULL))
        fail(nfail, "MPI_Comm_create_keyval");
    if (MPI_Comm_set_attr(c, k1, &set_val) || MPI_Comm_set_attr(c, k2, &set_struct) ||
        MPI_Comm_set_attr(c, k3, (void *)17))
        fail(nfail, "MPI_Comm_set_attr");
    *k_int = k1;
    *k_struct = k2;
    *k_17 = k3;
    *addr_int = (MPI_Aint)&set_val;
    *addr_struct = (MPI_Aint)&set_struct;
    /* The low part of the word, as MPI_ATTR_GET returns it (two's complement truncation). */
    *low_int = (MPI_Fint)(uint32_t)(uintptr_t)&set_val;
    *low_struct = (MPI_Fint)(uint32_t)(uintptr_t)&set_struct;
}

/* Reader "C *_get_attr" on a C-set value: the pointer itself. */
void c_read_pointer_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *expect, MPI_Fint *nfail) {
    void *p = NULL;
    int flag = 0;
    char what[160];
    int rc = MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &p, &flag);
    snprintf(what, sizeof what,
             "C reads the C pointer %#lx back unchanged (got %p, flag %d, rc %d)",
             (unsigned long)*expect, p, flag, rc);
    if (rc != MPI_SUCCESS || !flag || (MPI_Aint)p != *expect) fail(nfail, what);
    /* Also through the deprecated C MPI_Attr_get, identical in C (MPI 4.1 §20.3.7). */
    p = NULL;
    rc = MPI_Attr_get(MPI_Comm_f2c(*comm), *keyval, &p, &flag);
    if (rc != MPI_SUCCESS || !flag || (MPI_Aint)p != *expect) fail(nfail, "MPI_Attr_get in C");
}

/* Reader "C" on a MPI_ATTR_PUT value: a pointer to an internal int holding the value. */
void c_read_int_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *expect, MPI_Fint *nfail) {
    int *p = NULL, flag = 0;
    char what[160];
    int rc = MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &p, &flag);
    snprintf(what, sizeof what,
             "C gets an int* to %d for a MPI_ATTR_PUT value (got %d, flag %d, rc %d)",
             (int)*expect, p ? *p : -999999, flag, rc);
    if (rc != MPI_SUCCESS || !flag || p == NULL || *p != *expect) fail(nfail, what);
}

/* Reader "C" on a MPI_COMM_SET_ATTR value: a pointer to an internal MPI_Aint. */
void c_read_aint_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *expect, MPI_Fint *nfail) {
    MPI_Aint *p = NULL;
    int flag = 0;
    char what[160];
    int rc = MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &p, &flag);
    snprintf(what, sizeof what,
             "C gets an MPI_Aint* to %ld for a MPI_COMM_SET_ATTR value (got %ld, flag %d, rc %d)",
             (long)*expect, p ? (long)*p : -999999L, flag, rc);
    if (rc != MPI_SUCCESS || !flag || p == NULL || *p != *expect) fail(nfail, what);
}
