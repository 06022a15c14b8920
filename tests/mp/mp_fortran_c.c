/* C half of mp_fortran.F90 and mp_f08.F90 (issue 17 item 4): the C setter, readers, dup and
 * free of the C x Fortran matrix, called from Fortran with every argument by reference
 * (gfortran's trailing underscore). Handles arrive as Fortran integers (MPI_Comm_f2c). */
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* C sets the value itself, (void *)val (MPI 4.1 §20.3.7: C stores a pointer-sized value). */
void c_set_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *rc)
{
    *rc = MPI_Comm_set_attr(MPI_Comm_f2c(*comm), *keyval, (void *)(intptr_t)*val);
}

/* Uses some stack, so that a pointer into a finished call's frame no longer holds its value. */
__attribute__((noinline)) static void scribble(void)
{
    volatile char junk[4096];
    for (int i = 0; i < (int)sizeof junk; i++)
        junk[i] = (char)0xA5;
}

/* C reads a Fortran MPI_COMM_SET_ATTR value: a pointer to an MPI_Aint holding it. */
void c_get_aint_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *out, MPI_Fint *flag)
{
    MPI_Aint *p = NULL;
    int f = 0;
    *out = 0;
    if (MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &p, &f) != MPI_SUCCESS) {
        *flag = -1;
        return;
    }
    *flag = f;
    /* The pointer stays valid while the attribute is set (MPI 4.1 §20.3.7). */
    scribble();
    if (f && p)
        *out = *p;
}

/* C reads a Fortran MPI_ATTR_PUT value: a pointer to an int holding it. */
void c_get_int_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *out, MPI_Fint *flag)
{
    int *p = NULL;
    int f = 0;
    *out = 0;
    if (MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &p, &f) != MPI_SUCCESS) {
        *flag = -1;
        return;
    }
    *flag = f;
    if (f && p)
        *out = *p;
}

/* MPI_Comm_dup and MPI_Comm_free called from C on a Fortran handle. */
void c_dup_(MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *rc)
{
    MPI_Comm n = MPI_COMM_NULL;
    *rc = MPI_Comm_dup(MPI_Comm_f2c(*comm), &n);
    *newcomm = MPI_Comm_c2f(n);
}

void c_free_(MPI_Fint *comm, MPI_Fint *rc)
{
    MPI_Comm c = MPI_Comm_f2c(*comm);
    *rc = MPI_Comm_free(&c);
}

/* MPI_Comm_delete_attr from C. */
void c_delete_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *rc)
{
    *rc = MPI_Comm_delete_attr(MPI_Comm_f2c(*comm), *keyval);
}
