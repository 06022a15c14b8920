/* The attribute (caching) benchmark, C half. Standard MPI only: the same source builds with
 * mpicache's, MPICH's and Open MPI's mpicc, plus the floor library (bench/floor.c):
 *
 *   cc -O2 -fPIC -shared bench/floor.c -o DIR/libfloor.so
 *   mpicc -O2 -pthread bench/attr_bench.c -o attr_bench -Wl,--no-as-needed -LDIR -lfloor \
 *         -Wl,-rpath,DIR
 *   ./attr_bench [--impl NAME] [-r RUNS] [-n ITERS] [-t MS] [--mem-comms C] [--mem-attrs A]
 *
 * Every case runs RUNS times; each run times a loop of at most ITERS operations, fewer when
 * the loop would last longer than MS milliseconds (so slow cases of slow implementations stay
 * bounded). Output, one line per case (lines starting with '#' are comments):
 *
 *   case,impl,median,min,max,unit,floor_ratio
 *
 * unit is ns/op (per operation, and per thread for the mt_ cases), ratio, or bytes;
 * floor_ratio is median / floor (the median of case `floor`, timed in the same run) for the
 * get cases, empty otherwise.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int floor_get(int obj, int key, void *out, int *flag);

/* ---- options and output ----------------------------------------------------------------- */

static int runs = 7;
static long max_iters = 1000000;
static double budget_ns = 20e6;
static int mem_comms = 1000;
static int mem_attrs = 1000; /* per communicator */
static char impl[64] = "";
static double floor_median = 0.0;

static volatile uintptr_t sink; /* every loop's result ends here */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *name, double *v, int n, const char *unit, int is_get)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    printf("%s,%s,%.3f,%.3f,%.3f,%s,", name, impl, med, v[0], v[n - 1], unit);
    if (is_get && floor_median > 0)
        printf("%.3f", med / floor_median);
    printf("\n");
    fflush(stdout);
}

static void check(int rc, const char *what)
{
    if (rc != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, msg, &len);
        fprintf(stderr, "attr_bench: %s failed: %s\n", what, msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
        exit(1);
    }
}

/* ---- the harness ------------------------------------------------------------------------ */

struct ctx {
    MPI_Comm comm;
    MPI_Datatype type;
    MPI_Win win;
    int key;
};

typedef void (*body_fn)(long iters, struct ctx *c);

/* Iterations for one run: grow until a run lasts a quarter of the budget, then scale. */
static long calibrate(body_fn body, struct ctx *c)
{
    long it = 1;
    for (;;) {
        double t0 = now_ns();
        body(it, c);
        double t = now_ns() - t0;
        if (it >= max_iters)
            return max_iters;
        if (t >= budget_ns / 4) {
            double want = (double)it * budget_ns / t;
            long n = (long)want;
            return n < 1 ? 1 : n > max_iters ? max_iters : n;
        }
        it *= 4;
        if (it > max_iters)
            it = max_iters;
    }
}

/* Median (and min, max) ns per operation of `body` over `runs` runs. */
static double time_case(const char *name, body_fn body, struct ctx *c, int is_get)
{
    long it = calibrate(body, c);
    double *v = malloc(sizeof(double) * (size_t)runs);
    for (int r = 0; r < runs; r++) {
        double t0 = now_ns();
        body(it, c);
        v[r] = (now_ns() - t0) / (double)it;
    }
    report(name, v, runs, "ns/op", is_get);
    qsort(v, (size_t)runs, sizeof *v, cmp_double);
    double med = runs % 2 ? v[runs / 2] : (v[runs / 2 - 1] + v[runs / 2]) / 2;
    free(v);
    return med;
}

/* ---- bodies ----------------------------------------------------------------------------- */

static void body_floor(long n, struct ctx *c)
{
    uintptr_t acc = 0;
    for (long i = 0; i < n; i++) {
        void *v;
        int flag;
        floor_get(1, c->key, &v, &flag);
        acc += (uintptr_t)v + (uintptr_t)flag;
    }
    sink += acc;
}

static void body_comm_get(long n, struct ctx *c)
{
    uintptr_t acc = 0;
    for (long i = 0; i < n; i++) {
        void *v;
        int flag;
        MPI_Comm_get_attr(c->comm, c->key, &v, &flag);
        acc += (uintptr_t)(flag ? v : NULL) + (uintptr_t)flag;
    }
    sink += acc;
}

static void body_type_get(long n, struct ctx *c)
{
    uintptr_t acc = 0;
    for (long i = 0; i < n; i++) {
        void *v;
        int flag;
        MPI_Type_get_attr(c->type, c->key, &v, &flag);
        acc += (uintptr_t)(flag ? v : NULL) + (uintptr_t)flag;
    }
    sink += acc;
}

static void body_win_get(long n, struct ctx *c)
{
    uintptr_t acc = 0;
    for (long i = 0; i < n; i++) {
        void *v;
        int flag;
        MPI_Win_get_attr(c->win, c->key, &v, &flag);
        acc += (uintptr_t)(flag ? v : NULL) + (uintptr_t)flag;
    }
    sink += acc;
}

static void body_comm_set(long n, struct ctx *c)
{
    for (long i = 0; i < n; i++)
        MPI_Comm_set_attr(c->comm, c->key, (void *)(uintptr_t)(i + 1));
}

static void body_keyval(long n, struct ctx *c)
{
    uintptr_t acc = 0;
    (void)c;
    for (long i = 0; i < n; i++) {
        int k;
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL);
        acc += (uintptr_t)k;
        MPI_Comm_free_keyval(&k);
    }
    sink += acc;
}

static void body_dup(long n, struct ctx *c)
{
    for (long i = 0; i < n; i++) {
        MPI_Comm d;
        MPI_Comm_dup(c->comm, &d);
        MPI_Comm_free(&d);
    }
}

/* ---- MPI_THREAD_MULTIPLE ---------------------------------------------------------------- */

struct thread_arg {
    pthread_barrier_t *start;
    struct ctx c;
    long iters;
    double t_start, t_end; /* taken by the thread itself */
};

static void *thread_main(void *p)
{
    struct thread_arg *a = p;
    pthread_barrier_wait(a->start);
    a->t_start = now_ns();
    body_comm_get(a->iters, &a->c);
    a->t_end = now_ns();
    return NULL;
}

/* Wall-clock ns for `nthreads` threads each doing `iters` gets on its own communicator: from
 * the first thread's start to the last thread's end, as the threads themselves saw them (the
 * main thread may be descheduled while they run). */
static double run_threads(int nthreads, MPI_Comm *comms, int key, long iters)
{
    pthread_t th[2];
    struct thread_arg args[2];
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, (unsigned)nthreads);
    for (int t = 0; t < nthreads; t++) {
        args[t].start = &start;
        args[t].c.comm = comms[t];
        args[t].c.key = key;
        args[t].iters = iters;
        pthread_create(&th[t], NULL, thread_main, &args[t]);
    }
    double t0 = 0, t1 = 0;
    for (int t = 0; t < nthreads; t++) {
        pthread_join(th[t], NULL);
        if (t == 0 || args[t].t_start < t0)
            t0 = args[t].t_start;
        if (t == 0 || args[t].t_end > t1)
            t1 = args[t].t_end;
    }
    pthread_barrier_destroy(&start);
    return t1 - t0;
}

/* ---- memory ----------------------------------------------------------------------------- */

static long rss_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0) {
            kb = strtol(line + 6, NULL, 10);
            break;
        }
    fclose(f);
    return kb < 0 ? -1 : kb * 1024;
}

static void mem_case(void)
{
    MPI_Comm *comms = malloc(sizeof(MPI_Comm) * (size_t)mem_comms);
    int *keys = malloc(sizeof(int) * (size_t)mem_attrs);
    for (int k = 0; k < mem_attrs; k++)
        check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keys[k], NULL),
              "MPI_Comm_create_keyval");
    for (int i = 0; i < mem_comms; i++)
        check(MPI_Comm_dup(MPI_COMM_SELF, &comms[i]), "MPI_Comm_dup");
    long before = rss_bytes();
    for (int i = 0; i < mem_comms; i++)
        for (int k = 0; k < mem_attrs; k++)
            check(MPI_Comm_set_attr(comms[i], keys[k], (void *)(uintptr_t)(k + 1)), "MPI_Comm_set_attr");
    long after = rss_bytes();
    double per = (double)(after - before) / ((double)mem_comms * (double)mem_attrs);
    char name[64];
    snprintf(name, sizeof name, "mem_bytes_per_attr");
    printf("# mem: %d attributes over %d communicators, VmRSS %ld -> %ld bytes\n",
           mem_comms * mem_attrs, mem_comms, before, after);
    report(name, &per, 1, "bytes", 0);
    for (int i = 0; i < mem_comms; i++)
        check(MPI_Comm_free(&comms[i]), "MPI_Comm_free");
    for (int k = 0; k < mem_attrs; k++)
        check(MPI_Comm_free_keyval(&keys[k]), "MPI_Comm_free_keyval");
    free(comms);
    free(keys);
}

/* ---- main ------------------------------------------------------------------------------- */

static void usage(void)
{
    fprintf(stderr, "usage: attr_bench [--impl NAME] [-r RUNS] [-n ITERS] [-t MS] "
                    "[--mem-comms C] [--mem-attrs A]\n");
    exit(2);
}

static void guess_impl(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(v, &len);
    if (strstr(v, "Open MPI"))
        strcpy(impl, "openmpi");
    else if (strstr(v, "MPICH"))
        strcpy(impl, "mpich");
    else if (strstr(v, "mpicache"))
        strcpy(impl, "mpicache");
    else
        strcpy(impl, "unknown");
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc)
            usage();
        if (!strcmp(a, "--impl"))
            snprintf(impl, sizeof impl, "%s", argv[++i]);
        else if (!strcmp(a, "-r"))
            runs = atoi(argv[++i]);
        else if (!strcmp(a, "-n"))
            max_iters = atol(argv[++i]);
        else if (!strcmp(a, "-t"))
            budget_ns = atof(argv[++i]) * 1e6;
        else if (!strcmp(a, "--mem-comms"))
            mem_comms = atoi(argv[++i]);
        else if (!strcmp(a, "--mem-attrs"))
            mem_attrs = atoi(argv[++i]);
        else
            usage();
    }
    if (runs < 1 || max_iters < 1 || budget_ns <= 0 || mem_comms < 0 || mem_attrs < 0)
        usage();

    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (!impl[0])
        guess_impl();
    printf("# case,impl,median,min,max,unit,floor_ratio\n");
    printf("# runs=%d iters<=%ld budget_ms=%.3f\n", runs, max_iters, budget_ns / 1e6);

    /* Memory first, while the heap is fresh. */
    if (mem_comms > 0 && mem_attrs > 0)
        mem_case();

    struct ctx c;
    memset(&c, 0, sizeof c);

    /* The floor. */
    c.key = 3;
    floor_median = time_case("floor", body_floor, &c, 0);

    /* Keyvals for up to 4096 attributes (null copy: these communicators are never dup'ed). */
    enum { MAXA = 4096 };
    static int keys[MAXA];
    for (int k = 0; k < MAXA; k++)
        check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keys[k], NULL),
              "MPI_Comm_create_keyval");
    int miss_key;
    check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &miss_key, NULL),
          "MPI_Comm_create_keyval");

    static const int counts[] = {1, 16, 256, 4096};
    MPI_Comm comm1 = MPI_COMM_NULL;
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        int n = counts[ci];
        MPI_Comm comm;
        check(MPI_Comm_dup(MPI_COMM_WORLD, &comm), "MPI_Comm_dup");
        for (int k = 0; k < n; k++)
            check(MPI_Comm_set_attr(comm, keys[k], (void *)(uintptr_t)(k + 1)), "MPI_Comm_set_attr");
        char name[64];
        c.comm = comm;
        c.key = keys[0];
        snprintf(name, sizeof name, "comm_get_%d_first", n);
        time_case(name, body_comm_get, &c, 1);
        c.key = keys[n - 1];
        snprintf(name, sizeof name, "comm_get_%d_last", n);
        time_case(name, body_comm_get, &c, 1);
        c.key = miss_key;
        snprintf(name, sizeof name, "comm_get_%d_miss", n);
        time_case(name, body_comm_get, &c, 1);
        if (n == 1)
            comm1 = comm;
        else
            check(MPI_Comm_free(&comm), "MPI_Comm_free");
    }

    /* Set, overwriting (null delete callback), on the one-attribute communicator. */
    c.comm = comm1;
    c.key = keys[0];
    time_case("comm_set_overwrite", body_comm_set, &c, 0);
    check(MPI_Comm_free(&comm1), "MPI_Comm_free");
    for (int k = 0; k < MAXA; k++)
        check(MPI_Comm_free_keyval(&keys[k]), "MPI_Comm_free_keyval");
    check(MPI_Comm_free_keyval(&miss_key), "MPI_Comm_free_keyval");

    /* Keyval create + free. */
    time_case("keyval_create_free", body_keyval, &c, 0);

    /* Dup + free with 0, 16, 256 attributes copied by MPI_COMM_DUP_FN. */
    static const int dcounts[] = {0, 16, 256};
    int dkeys[256];
    for (int k = 0; k < 256; k++)
        check(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &dkeys[k], NULL),
              "MPI_Comm_create_keyval");
    for (size_t ci = 0; ci < sizeof dcounts / sizeof dcounts[0]; ci++) {
        int n = dcounts[ci];
        MPI_Comm comm;
        check(MPI_Comm_dup(MPI_COMM_WORLD, &comm), "MPI_Comm_dup");
        for (int k = 0; k < n; k++)
            check(MPI_Comm_set_attr(comm, dkeys[k], (void *)(uintptr_t)(k + 1)), "MPI_Comm_set_attr");
        char name[64];
        snprintf(name, sizeof name, "comm_dup_free_%d", n);
        c.comm = comm;
        time_case(name, body_dup, &c, 0);
        check(MPI_Comm_free(&comm), "MPI_Comm_free");
    }
    for (int k = 0; k < 256; k++)
        check(MPI_Comm_free_keyval(&dkeys[k]), "MPI_Comm_free_keyval");

    /* Datatype get hit. */
    {
        MPI_Datatype t;
        int tk;
        check(MPI_Type_contiguous(4, MPI_INT, &t), "MPI_Type_contiguous");
        check(MPI_Type_commit(&t), "MPI_Type_commit");
        check(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tk, NULL),
              "MPI_Type_create_keyval");
        check(MPI_Type_set_attr(t, tk, (void *)(uintptr_t)7), "MPI_Type_set_attr");
        c.type = t;
        c.key = tk;
        time_case("type_get_1", body_type_get, &c, 1);
        check(MPI_Type_free(&t), "MPI_Type_free");
        check(MPI_Type_free_keyval(&tk), "MPI_Type_free_keyval");
    }

    /* Window get hit. */
    {
        MPI_Win w;
        void *base = NULL;
        int wk;
        int rc = MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w);
        if (rc != MPI_SUCCESS) {
            printf("# win: MPI_Win_allocate failed (%d): no window case\n", rc);
        } else {
            check(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &wk, NULL),
                  "MPI_Win_create_keyval");
            check(MPI_Win_set_attr(w, wk, (void *)(uintptr_t)7), "MPI_Win_set_attr");
            c.win = w;
            c.key = wk;
            time_case("win_get_1", body_win_get, &c, 1);
            check(MPI_Win_free(&w), "MPI_Win_free");
            check(MPI_Win_free_keyval(&wk), "MPI_Win_free_keyval");
        }
    }

    /* MPI_THREAD_MULTIPLE: 1 and 2 threads, each on its own dup holding one attribute. */
    if (provided < MPI_THREAD_MULTIPLE) {
        printf("# threads: MPI_THREAD_MULTIPLE not provided (%d): no mt_ cases\n", provided);
    } else {
        MPI_Comm tc[2];
        int tk;
        check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &tk, NULL),
              "MPI_Comm_create_keyval");
        for (int t = 0; t < 2; t++) {
            check(MPI_Comm_dup(MPI_COMM_WORLD, &tc[t]), "MPI_Comm_dup");
            check(MPI_Comm_set_attr(tc[t], tk, (void *)(uintptr_t)(t + 1)), "MPI_Comm_set_attr");
        }
        c.comm = tc[0];
        c.key = tk;
        /* Longer runs than the other cases: thread start-up and wake-up skew (tens to hundreds
         * of microseconds on a shared machine) must not weigh on the two-thread wall time. */
        long it = calibrate(body_comm_get, &c) * 20;
        double *v1 = malloc(sizeof(double) * (size_t)runs);
        double *v2 = malloc(sizeof(double) * (size_t)runs);
        double *vr = malloc(sizeof(double) * (size_t)runs);
        for (int r = 0; r < runs; r++) {
            double w1 = run_threads(1, tc, tk, it);
            double w2 = run_threads(2, tc, tk, it);
            v1[r] = w1 / (double)it;
            v2[r] = w2 / (double)it;
            vr[r] = 2.0 * w1 / w2; /* (2 it / w2) / (it / w1) */
        }
        report("mt_get_1thread", v1, runs, "ns/op", 1);
        report("mt_get_2threads", v2, runs, "ns/op", 1);
        report("mt_throughput_2v1", vr, runs, "ratio", 0);
        free(v1);
        free(v2);
        free(vr);
        for (int t = 0; t < 2; t++)
            check(MPI_Comm_free(&tc[t]), "MPI_Comm_free");
        check(MPI_Comm_free_keyval(&tk), "MPI_Comm_free_keyval");
    }

    printf("# sink %lu\n", (unsigned long)sink);
    MPI_Finalize();
    return 0;
}
