/* C half of handlers.F90: C runs the Fortran-created user operation (MPI_Reduce_local) and
 * raises errors on the file and the session that carry Fortran-created error handlers; it
 * also creates a C operation that Fortran then runs. */
#include <mpi.h>
#include <stdio.h>

void c_reduce_local_(MPI_Fint *op, MPI_Fint *in, MPI_Fint *inout, MPI_Fint *n, MPI_Fint *rc) {
    *rc = MPI_Reduce_local(in, inout, *n, MPI_INT, MPI_Op_f2c(*op));
}

void c_file_seek_bad_(MPI_Fint *fh, MPI_Fint *rc) {
    /* MPI 4.1 §14.4.2: a negative offset with MPI_SEEK_SET is erroneous. */
    *rc = MPI_File_seek(MPI_File_f2c(*fh), -1, MPI_SEEK_SET);
}

void c_session_bad_(MPI_Fint *session, MPI_Fint *rc) {
    char name[MPI_MAX_PSET_NAME_LEN];
    int len = (int)sizeof name;
    *rc = MPI_Session_get_nth_pset(MPI_Session_f2c(*session), MPI_INFO_NULL, 100000, &len, name);
}

static void c_max(void *in, void *inout, int *len, MPI_Datatype *dt) {
    (void)dt;
    for (int i = 0; i < *len; i++)
        if (((int *)in)[i] > ((int *)inout)[i])
            ((int *)inout)[i] = ((int *)in)[i];
}

void c_op_create_(MPI_Fint *op, MPI_Fint *rc) {
    MPI_Op o = MPI_OP_NULL;
    *rc = MPI_Op_create(c_max, 1, &o);
    *op = MPI_Op_c2f(o);
}

/* The datatype handle a Fortran function receives when C calls with MPI_INT. */
void c_int_handle_(MPI_Fint *h) {
    *h = MPI_Type_c2f(MPI_INT);
}
