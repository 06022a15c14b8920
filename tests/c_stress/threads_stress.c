/* Threads under MPI_THREAD_MULTIPLE (issue 6, part 4): T threads, each for at most SECONDS
 * seconds and ITERS iterations (argv: threads seconds iters), mixing get / set / delete / dup /
 * free on a shared communicator and on a private one, and keyval create / free (also freeing a
 * keyval before deleting its attribute with the saved number, MPI 4.1 §7.7.2); copy and delete
 * callbacks run concurrently and count with atomics. A watchdog (alarm) kills a deadlock.
 *
 * Consistency with a serial order: a thread's private communicator always reads back what
 * that thread last set; the shared communicator's attribute reads back a value some thread set
 * (values carry their thread and iteration); every attribute instance is deleted exactly once
 * (creations == deletions at the end). MPI 4.1 §11.2.3 (MPI_THREAD_MULTIPLE), §7.7. */
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static atomic_long made;    /* attribute instances made (sets and copies) */
static atomic_long deleted; /* delete callbacks run */
static atomic_long failures;
static atomic_long ops;
static int shared_kv;
static MPI_Comm shared;
static int seconds = 2;
static long iters = 1000000;

#define FAIL(...) do { printf(__VA_ARGS__); printf("\n"); atomic_fetch_add(&failures, 1); } while (0)

static int del_fn(MPI_Comm c, int k, void *v, void *extra)
{
    (void)c; (void)k; (void)v; (void)extra;
    atomic_fetch_add(&deleted, 1);
    return MPI_SUCCESS;
}

static int copy_fn(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    int f;
    void *x;
    (void)extra;
    /* a callback that reads back into the library while other threads work */
    MPI_Comm_get_attr(c, k, &x, &f);
    atomic_fetch_add(&made, 1);
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *worker(void *arg)
{
    long id = (long)(intptr_t)arg, i;
    MPI_Comm mine, d;
    int kv, tmpkv, flag;
    void *v;
    intptr_t last = 0;
    double end = now() + seconds;
    MPI_Comm_dup(MPI_COMM_WORLD, &mine);
    MPI_Comm_create_keyval(copy_fn, del_fn, &kv, NULL);
    for (i = 0; i < iters && now() < end; i++) {
        intptr_t val = (id << 32) | (i + 1);
        switch (i % 8) {
        case 0: case 1:
            if (MPI_Comm_set_attr(mine, kv, (void *)val) != MPI_SUCCESS) FAIL("set private");
            atomic_fetch_add(&made, 1);
            last = val;
            break;
        case 2: case 3:
            if (MPI_Comm_get_attr(mine, kv, &v, &flag) != MPI_SUCCESS) FAIL("get private");
            else if (last ? !(flag && (intptr_t)v == last) : flag)
                FAIL("thread %ld: private attribute reads %p (flag %d), last set %lx", id, v, flag, (long)last);
            if (MPI_Comm_get_attr(shared, shared_kv, &v, &flag) != MPI_SUCCESS) FAIL("get shared");
            else if (flag && (((intptr_t)v >> 32) >= 64 || ((intptr_t)v & 0xffffffff) == 0))
                FAIL("shared attribute reads %p, which no thread set", v);
            break;
        case 4:
            if (MPI_Comm_set_attr(shared, shared_kv, (void *)val) != MPI_SUCCESS) FAIL("set shared");
            atomic_fetch_add(&made, 1);
            break;
        case 5:
            if (MPI_Comm_dup(i % 16 == 5 ? shared : mine, &d) != MPI_SUCCESS) FAIL("dup");
            else {
                if (i % 16 != 5) {
                    if (MPI_Comm_get_attr(d, kv, &v, &flag) != MPI_SUCCESS || (last && (intptr_t)v != last))
                        FAIL("dup of the private communicator lost its attribute");
                }
                if (MPI_Comm_free(&d) != MPI_SUCCESS) FAIL("free dup");
            }
            break;
        case 6:
            if (i % 32 == 6) {
                if (MPI_Comm_delete_attr(mine, kv) != MPI_SUCCESS) FAIL("delete private");
                last = 0;
            } else if (MPI_Comm_delete_attr(shared, shared_kv) != MPI_SUCCESS) FAIL("delete shared");
            break;
        default:
            if (MPI_Comm_create_keyval(copy_fn, del_fn, &tmpkv, NULL) != MPI_SUCCESS) FAIL("create keyval");
            else if ((i / 8) % 2 == 0 && i % 64 != 7) {
                /* MPI 4.1 §7.7.2: the keyval freed first; the saved number still names the
                 * attribute until it is deleted, and is invalid after. */
                int saved = tmpkv, cls = -1;
                MPI_Comm_set_attr(mine, tmpkv, (void *)val);
                atomic_fetch_add(&made, 1);
                if (MPI_Comm_free_keyval(&tmpkv) != MPI_SUCCESS) FAIL("free keyval in use");
                if (MPI_Comm_get_attr(mine, saved, &v, &flag) != MPI_SUCCESS || !flag || (intptr_t)v != val)
                    FAIL("thread %ld: a freed keyval's attribute reads %p (flag %d)", id, v, flag);
                if (MPI_Comm_delete_attr(mine, saved) != MPI_SUCCESS) FAIL("delete with a freed keyval");
                MPI_Error_class(MPI_Comm_get_attr(mine, saved, &v, &flag), &cls);
                if (cls != MPI_ERR_KEYVAL) FAIL("a freed keyval without attributes: class %d", cls);
            } else {
                MPI_Comm_set_attr(mine, tmpkv, (void *)val);
                atomic_fetch_add(&made, 1);
                /* mostly deleted first; every 64th stays on `mine` with its keyval freed */
                if (i % 64 != 7 && MPI_Comm_delete_attr(mine, tmpkv) != MPI_SUCCESS) FAIL("delete tmp");
                if (MPI_Comm_free_keyval(&tmpkv) != MPI_SUCCESS) FAIL("free keyval");
            }
        }
        atomic_fetch_add(&ops, 1);
    }
    MPI_Comm_free(&mine);
    MPI_Comm_free_keyval(&kv);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, t, nthreads = argc > 1 ? atoi(argv[1]) : 8;
    pthread_t th[64];
    double start;
    if (argc > 2) seconds = atoi(argv[2]);
    if (argc > 3) iters = atol(argv[3]);
    if (nthreads > 64) nthreads = 64;
    alarm(seconds + 120); /* watchdog: a deadlock dies of SIGALRM */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE) {
        printf("provided %d\n", provided);
        return 1;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_create_keyval(copy_fn, del_fn, &shared_kv, NULL);
    MPI_Comm_dup(MPI_COMM_WORLD, &shared);
    start = now();
    for (t = 0; t < nthreads; t++)
        pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t);
    for (t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);
    MPI_Comm_free(&shared);
    MPI_Comm_free_keyval(&shared_kv);
    MPI_Finalize();
    printf("threads_stress: %d threads x %.1f s, %ld operations, %ld attribute instances, %ld deleted\n",
           nthreads, now() - start, (long)ops, (long)made, (long)deleted);
    if (made != deleted)
        FAIL("%ld attribute instances but %ld delete callbacks", (long)made, (long)deleted);
    printf("%ld passed, %ld failed\n", failures ? 0L : 1L, (long)failures);
    return failures ? 1 : 0;
}
