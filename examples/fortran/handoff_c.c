/* C half of the handoff demo: sets a C pointer attribute, reads what Fortran set, and owns a
 * C keyval whose callbacks Fortran's MPI_COMM_DUP / MPI_COMM_FREE run. */
#include <mpi.h>
#include <stdio.h>

static int shared = 3;

static int c_copy(MPI_Comm old, int k, void *extra, void *in, void *out, int *flag) {
    (void)old; (void)k; (void)extra;
    printf("  C copy callback: value in = %ld (through MPI_Aint*)\n", (long)*(MPI_Aint *)in);
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int c_delete(MPI_Comm c, int k, void *v, void *extra) {
    (void)c; (void)k; (void)extra;
    printf("  C delete callback: value = %ld\n", (long)*(MPI_Aint *)v);
    return MPI_SUCCESS;
}

void demo_c_set_(MPI_Fint *keyval) {
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, keyval, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, *keyval, &shared);
}

void demo_c_keyval_(MPI_Fint *keyval) {
    MPI_Comm_create_keyval(c_copy, c_delete, keyval, NULL);
}

void demo_c_read_(MPI_Fint *keyval, MPI_Fint *kind) {
    void *p;
    int flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, *keyval, &p, &flag);
    if (*kind == 0) printf("  %-28s C reads int*      -> %d\n", "", *(int *)p);
    else printf("  %-28s C reads MPI_Aint* -> %ld\n", "", (long)*(MPI_Aint *)p);
}
