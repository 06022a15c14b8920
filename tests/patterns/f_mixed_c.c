/* C half of f_mixed.f90: a C library that caches a reference-counted struct on communicators
 * (MPI 4.1 §7.7.6) through a C keyval, while the Fortran program dups and frees those
 * communicators. The C callbacks run from Fortran's MPI_COMM_DUP / MPI_COMM_IDUP / MPI_COMM_FREE
 * / MPI_FINALIZE and must get the C handle of the Fortran communicator (§20.3.4) and the C
 * pointer (§20.3.7). Standard MPI only; called from Fortran through BIND(C) interfaces. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    int magic;
    int ref_count;
} clib_state;

#define CLIB_MAGIC 0xC11B

static int clib_key = MPI_KEYVAL_INVALID;
static int clib_key_number = -1;
static int ncopy = 0, ndelete = 0, nlive = 0, nbad = 0, nfinalized_inside = 0;
static MPI_Fint last_copy_comm = -1, last_delete_comm = -1;

static int clib_copy(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    clib_state *s = in;
    ncopy++;
    last_copy_comm = MPI_Comm_c2f(oldcomm);
    if (keyval != clib_key_number || extra != (void *)&clib_key || s == NULL || s->magic != CLIB_MAGIC)
        nbad++;
    s->ref_count++;
    *(void **)out = s;
    *flag = 1;
    return MPI_SUCCESS;
}

static int clib_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    clib_state *s = val;
    int fin = 1;
    ndelete++;
    last_delete_comm = MPI_Comm_c2f(comm);
    MPI_Finalized(&fin);
    if (fin)
        nfinalized_inside++;
    if (keyval != clib_key_number || extra != (void *)&clib_key || s == NULL ||
        s->magic != CLIB_MAGIC || s->ref_count <= 0) {
        nbad++;
        return MPI_SUCCESS;
    }
    if (--s->ref_count == 0) {
        s->magic = 0;
        free(s);
        nlive--;
    }
    return MPI_SUCCESS;
}

static clib_state *lookup(MPI_Comm c)
{
    clib_state *s = NULL;
    int flag = 0;
    if (clib_key == MPI_KEYVAL_INVALID)
        return NULL;
    if (MPI_Comm_get_attr(c, clib_key, &s, &flag) != MPI_SUCCESS || !flag)
        return NULL;
    return s;
}

/* clib_attach(comm, ierr): cache a fresh state on comm (first use creates the keyval). */
void clib_attach(MPI_Fint *comm, MPI_Fint *ierr)
{
    clib_state *s;
    int rc;
    if (clib_key == MPI_KEYVAL_INVALID) {
        rc = MPI_Comm_create_keyval(clib_copy, clib_delete, &clib_key, &clib_key);
        if (rc != MPI_SUCCESS) {
            *ierr = rc;
            return;
        }
        clib_key_number = clib_key;
    }
    s = malloc(sizeof *s);
    s->magic = CLIB_MAGIC;
    s->ref_count = 1;
    nlive++;
    *ierr = MPI_Comm_set_attr(MPI_Comm_f2c(*comm), clib_key, s);
}

/* The reference count of the state cached on comm, or -1 if none. */
void clib_refcount(MPI_Fint *comm, MPI_Fint *count)
{
    clib_state *s = lookup(MPI_Comm_f2c(*comm));
    *count = s ? s->ref_count : -1;
}

/* 1 if comm1 and comm2 share the same cached state. */
void clib_same_state(MPI_Fint *comm1, MPI_Fint *comm2, MPI_Fint *same)
{
    clib_state *a = lookup(MPI_Comm_f2c(*comm1)), *b = lookup(MPI_Comm_f2c(*comm2));
    *same = (a != NULL && a == b);
}

void clib_keyval(MPI_Fint *key)
{
    *key = clib_key;
}

/* 1 if addr (what Fortran's MPI_COMM_GET_ATTR returned) is the C pointer (§20.3.7). */
void clib_is_state_address(MPI_Fint *comm, MPI_Aint *addr, MPI_Fint *ok)
{
    clib_state *s = lookup(MPI_Comm_f2c(*comm));
    *ok = (s != NULL && (MPI_Aint)(intptr_t)s == *addr);
}

/* C reads an attribute Fortran set with MPI_COMM_SET_ATTR: a pointer to an MPI_Aint holding the
 * value (§20.3.7). */
void clib_read_fortran_attr(MPI_Fint *comm, MPI_Fint *key, MPI_Aint *value, MPI_Fint *flag,
                            MPI_Fint *ierr)
{
    MPI_Aint *p = NULL;
    int f = 0;
    *ierr = MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *key, &p, &f);
    *flag = f;
    *value = (f && p) ? *p : -1;
}

/* The library's shutdown: frees its keyval (attributes still set keep their callbacks). */
void clib_free_keyval(MPI_Fint *ierr)
{
    *ierr = MPI_Comm_free_keyval(&clib_key);
}

void clib_counts(MPI_Fint *copies, MPI_Fint *deletes, MPI_Fint *live, MPI_Fint *bad,
                 MPI_Fint *finalized_inside)
{
    *copies = ncopy;
    *deletes = ndelete;
    *live = nlive;
    *bad = nbad;
    *finalized_inside = nfinalized_inside;
}

void clib_last_comms(MPI_Fint *copy_comm, MPI_Fint *delete_comm)
{
    *copy_comm = last_copy_comm;
    *delete_comm = last_delete_comm;
}
