/* The attribute (caching) benchmark, C half. Standard MPI only: the same source builds with
 * mpicache's, MPICH's and Open MPI's mpicc, plus the floor library (bench/floor.c):
 *
 *   cc -O2 -fPIC -shared bench/floor.c -o DIR/libfloor.so
 *   mpicc -O2 -pthread bench/attr_bench.c -o attr_bench -Wl,--no-as-needed -LDIR -lfloor \
 *         -Wl,-rpath,DIR
 *   ./attr_bench [--impl NAME] [-r RUNS] [-n ITERS] [-t MS] [--warm MS] [--mem-comms C]
 *              [--mem-attrs A]
 *
 * Every case runs RUNS times; each run times a loop of at most ITERS operations, fewer when
 * the loop would last longer than MS milliseconds (so slow cases of slow implementations stay
 * bounded). The floor, the first case timed, follows WARM milliseconds of the floor loop run
 * untimed (--warm WARM; 500 by default). Output, one line per case (lines starting with '#' are
 * comments):
 *
 *   case,impl,median,min,max,unit,floor_ratio
 *
 * unit is ns/op (per operation, and per thread for the mt_ cases), ratio, or bytes;
 * floor_ratio is, for the get cases, median / floor, where floor is the median of runs of the
 * floor loop timed alternately with the case's own runs (case `floor` is the same loop timed
 * on its own, first); empty otherwise; for mt_get_1thread and mt_get_2threads the floor is
 * mt_floor_1thread and mt_floor_2threads.
 *
 * The mt_ cases (MPI_THREAD_MULTIPLE) time 1 and 2 threads each calling MPI_Comm_get_attr on its
 * own communicator (mt_get_*; mt_throughput_2v1 = 2-thread throughput / 1-thread throughput)
 * and, as a control, the same measurement calling the floor instead (mt_floor_1thread,
 * mt_floor_2threads, mt_floor_2v1): the 2-thread scaling the machine itself gives a trivial call
 * that shares nothing. See "MPI_THREAD_MULTIPLE" below for how they are measured; with
 * ATTR_BENCH_MT_TRACE set in the environment, every mt_ run also prints a '#' line.
 */
#define _GNU_SOURCE /* pthread_attr_setaffinity_np, sched_getaffinity (Linux; optional) */
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

int floor_get(int obj, int key, void *out, int *flag);

/* ---- options and output ----------------------------------------------------------------- */

static int runs = 7;
static long max_iters = 1000000;
static double budget_ns = 20e6;
static double warm_ns = 500e6; /* busy time before the first timed case */
static int mem_comms = 1000;
static int mem_attrs = 1000; /* per communicator */
static char impl[64] = "";

static volatile uintptr_t sink; /* every loop's result ends here */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* CPU time of the calling thread: how much of a wall interval it really ran. */
static double thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* How many times the calling thread was preempted (switched out while runnable: another task
 * wanted its CPU); 0 where the count is not available. Blocking (a futex wait in a lock) is a
 * voluntary switch and not counted. */
static long thread_preemptions(void)
{
#ifdef RUSAGE_THREAD
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) == 0)
        return ru.ru_nivcsw;
#endif
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v; returns the median. */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One output line (sorts v); floor_ratio = median / floor when floor > 0, empty otherwise. */
static double report_vs(const char *name, double *v, int n, const char *unit, double floor)
{
    double med = median(v, n);
    printf("%s,%s,%.3f,%.3f,%.3f,%s,", name, impl, med, v[0], v[n - 1], unit);
    if (floor > 0)
        printf("%.3f", med / floor);
    printf("\n");
    fflush(stdout);
    return med;
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

static void body_floor(long n, struct ctx *c);

/* Median (and min, max) ns per operation of `body` over `runs` runs. A get case's runs alternate
 * with runs of the floor loop, and its ratio is to the median of those: whatever the machine
 * does meanwhile (its clock, another tenant on the core's other thread) weighs on both alike.
 * Measured on a shared machine, the floor call took 1.2 ns for seconds, then 1.7 ns for
 * seconds, with the same code. */
static double time_case(const char *name, body_fn body, struct ctx *c, int is_get)
{
    long it = calibrate(body, c);
    struct ctx fc = *c;
    fc.key = 3; /* a key the floor holds */
    long fit = is_get ? calibrate(body_floor, &fc) : 0;
    double *v = malloc(sizeof(double) * (size_t)runs);
    double *f = malloc(sizeof(double) * (size_t)runs);
    for (int r = 0; r < runs; r++) {
        if (is_get) {
            double t0 = now_ns();
            body_floor(fit, &fc);
            f[r] = (now_ns() - t0) / (double)fit;
        }
        double t0 = now_ns();
        body(it, c);
        v[r] = (now_ns() - t0) / (double)it;
    }
    double med = report_vs(name, v, runs, "ns/op", is_get ? median(f, runs) : 0.0);
    free(v);
    free(f);
    return med;
}

/* ---- bodies ----------------------------------------------------------------------------- */

#define CACHE_LINE 64

/* The get loops (and the floor's) read their arguments from locals and write their results to
 * a cache line of their own, so that the loop reads no memory the call's stores might seem to
 * alias: measured on an AMD EPYC (Zen 5), the floor loop reloading c->key with the results next
 * to the return address ran 0.5 to 0.7 ns slower (1.9 against 1.2 ns), a stall that hid most
 * of a get's own cost (gets came out faster than the floor). */
struct result {
    _Alignas(CACHE_LINE) void *v;
    int flag;
};

static void body_floor(long n, struct ctx *c)
{
    const int key = c->key;
    uintptr_t acc = 0;
    for (long i = 0; i < n; i++) {
        struct result r;
        floor_get(1, key, &r.v, &r.flag);
        acc += (uintptr_t)(r.flag ? r.v : NULL) + (uintptr_t)r.flag; /* as the get loops */
    }
    sink += acc;
}

static void body_comm_get(long n, struct ctx *c)
{
    const MPI_Comm obj = c->comm;
    const int key = c->key;
    uintptr_t acc = 0;
    for (long i = 0; i < n; i++) {
        struct result r;
        MPI_Comm_get_attr(obj, key, &r.v, &r.flag);
        acc += (uintptr_t)(r.flag ? r.v : NULL) + (uintptr_t)r.flag;
    }
    sink += acc;
}

static void body_type_get(long n, struct ctx *c)
{
    const MPI_Datatype obj = c->type;
    const int key = c->key;
    uintptr_t acc = 0;
    for (long i = 0; i < n; i++) {
        struct result r;
        MPI_Type_get_attr(obj, key, &r.v, &r.flag);
        acc += (uintptr_t)(r.flag ? r.v : NULL) + (uintptr_t)r.flag;
    }
    sink += acc;
}

static void body_win_get(long n, struct ctx *c)
{
    const MPI_Win obj = c->win;
    const int key = c->key;
    uintptr_t acc = 0;
    for (long i = 0; i < n; i++) {
        struct result r;
        MPI_Win_get_attr(obj, key, &r.v, &r.flag);
        acc += (uintptr_t)(r.flag ? r.v : NULL) + (uintptr_t)r.flag;
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
/*
 * How the mt_ cases are measured (the same code, hence the same treatment, for every
 * implementation and for the floor control):
 *
 * - Pinning. When the process may run on >= 2 CPUs (its affinity mask before MPI_Init_thread,
 *   so an MPI library binding the main thread changes nothing), each worker thread is created
 *   pinned to its own CPU: thread t on CPU t of the first two of the mask; the 1-thread runs
 *   alternate between those two CPUs. Otherwise (one CPU, not Linux, or pinning fails) the
 *   threads are not pinned, silently apart from a '#' line.
 * - Warm-up. Each thread first runs its loop untimed for a quarter of the timed length on its
 *   CPU (caches, predictors, lazy binding, clock frequency), then waits at the start gate: a
 *   spin gate when pinned (the threads leave it within a cache-line transfer of each other), a
 *   pthread barrier otherwise (spinning two threads on one CPU would be absurd).
 * - Fixed time, common stop. Each thread runs chunks of about 10 us of operations and reads the
 *   clock between chunks; the first thread whose own clock passes the run length raises a shared
 *   stop flag, which every thread polls between chunks, so all stop within a chunk of each
 *   other. (The former harness gave each thread a fixed number of operations and timed until
 *   the last finished: when one of the two CPUs was slow for a while, e.g. another guest on the
 *   host, the fast thread finished and idled while the slow one ran on alone, so the run's
 *   throughput was that of the slow CPU twice over: 2v1 fell towards 1 for a library that
 *   scales perfectly.)
 * - Metric. The throughput of a run is all the operations the threads did divided by the wall
 *   time from the first thread's start to the last thread's stop, both read by the threads
 *   themselves. Every operation counted happened inside that interval and all of the interval
 *   is counted, so it cannot overstate. The alternative, the sum of each thread's own ops/ns,
 *   overstates whenever the threads did not really run at the same time (two threads taking
 *   turns on one CPU each see full speed and their sum says 2x). The start skew and the stop
 *   latency (at most a chunk) count against the 2-thread figure, by well under 1% of a run. The
 *   per-thread sum is computed anyway and its ratio to this one printed in a '#' line (1.000:
 *   the threads overlapped fully).
 * - Repetitions and medians. A repetition times floor and get with 1 and 2 threads back to back
 *   (in an order rotated every repetition), so a noisy moment hits the control and the
 *   measurement alike; mt_*_2v1 is the median over repetitions of the 2-thread / 1-thread
 *   throughput ratio within a repetition. 2*RUNS+1 repetitions, or up to three times as many
 *   until that many are undisturbed: a repetition is disturbed when in one of its runs a thread
 *   was preempted (involuntarily switched out, RUSAGE_THREAD; blocking in a lock is voluntary
 *   and does not count) and lost more than 3% of the run's wall time off its CPU, i.e. another
 *   process wanted the CPUs. The medians are over the undisturbed repetitions when there are at
 *   least 3; otherwise over all, and a '#' line says the machine was busy.
 *
 * False sharing: the per-thread data (struct mt_thread) and the shared gate each fill whole
 * 64-byte lines, the loops keep their accumulator and arguments in locals and store them once
 * at the end, and the threads' get results land on their own stacks. The only shared line read
 * in the loop is the stop flag, written once per run.
 */

enum { MT_FLOOR, MT_GET, MT_KINDS };
static const char *const mt_kind_name[MT_KINDS] = {"floor", "get"};

static int mt_pinned;  /* 1: threads pinned to mt_cpu[0], mt_cpu[1] */
static int mt_cpu[2];
static int mt_mask_cpus; /* CPUs in the affinity mask before MPI_Init_thread */

static struct {
    _Alignas(CACHE_LINE) atomic_int arrived; /* spin gate */
    atomic_int stop;
    pthread_barrier_t barrier; /* the gate when not pinned */
} mt_gate; /* aligned, so padded to whole lines: nothing else shares them */

struct mt_thread {
    _Alignas(CACHE_LINE) int kind; /* MT_FLOOR or MT_GET */
    MPI_Comm comm;
    int key;
    int nthreads;
    int cpu; /* -1: not pinned */
    long chunk;
    double warm_ns, run_ns;
    /* results, written once by the thread at its end */
    long ops;
    double t0, t1;
    double cpu_ns; /* the thread's CPU time between t0 and t1 */
    long preempted; /* times it was preempted between t0 and t1 */
    uintptr_t acc;
}; /* the alignment pads it to whole lines: two threads never share one */

static struct mt_thread mt_args[2];

/* n operations of `kind`; the inputs are locals of the caller, so the loop reads no memory that
 * another thread writes. */
static inline uintptr_t mt_loop(int kind, MPI_Comm comm, int key, long n)
{
    uintptr_t acc = 0;
    if (kind == MT_FLOOR) {
        for (long i = 0; i < n; i++) {
            struct result r;
            floor_get(1, key, &r.v, &r.flag);
            acc += (uintptr_t)(r.flag ? r.v : NULL) + (uintptr_t)r.flag; /* as the get loop */
        }
    } else {
        for (long i = 0; i < n; i++) {
            struct result r;
            MPI_Comm_get_attr(comm, key, &r.v, &r.flag);
            acc += (uintptr_t)(r.flag ? r.v : NULL) + (uintptr_t)r.flag;
        }
    }
    return acc;
}

static void mt_gate_wait(int nthreads)
{
    if (nthreads < 2)
        return;
    if (mt_pinned) {
        atomic_fetch_add(&mt_gate.arrived, 1);
        while (atomic_load_explicit(&mt_gate.arrived, memory_order_acquire) < nthreads)
            ;
    } else {
        pthread_barrier_wait(&mt_gate.barrier);
    }
}

static void *mt_thread_main(void *p)
{
    struct mt_thread *a = p;
    const int kind = a->kind, key = a->key;
    const MPI_Comm comm = a->comm;
    const long chunk = a->chunk;
    uintptr_t acc = 0;

    double end = now_ns() + a->warm_ns;
    do
        acc += mt_loop(kind, comm, key, chunk);
    while (now_ns() < end);

    mt_gate_wait(a->nthreads);
    long ops = 0;
    const long p0 = thread_preemptions();
    const double c0 = thread_cpu_ns();
    double t0 = now_ns(), t1;
    const double deadline = t0 + a->run_ns;
    for (;;) {
        acc += mt_loop(kind, comm, key, chunk);
        ops += chunk;
        t1 = now_ns();
        if (t1 >= deadline) {
            atomic_store_explicit(&mt_gate.stop, 1, memory_order_relaxed);
            break;
        }
        if (atomic_load_explicit(&mt_gate.stop, memory_order_relaxed))
            break;
    }
    a->cpu_ns = thread_cpu_ns() - c0;
    a->preempted = thread_preemptions() - p0;
    a->ops = ops;
    a->t0 = t0;
    a->t1 = t1;
    a->acc = acc;
    return NULL;
}

/* Creates a thread, pinned to `cpu` when cpu >= 0; returns pthread_create's result. */
static int mt_spawn(pthread_t *th, int cpu, void *(*fn)(void *), void *arg)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    int rc = 0;
#ifdef __linux__
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        rc = pthread_attr_setaffinity_np(&attr, sizeof set, &set);
    }
#else
    (void)cpu;
#endif
    if (rc == 0)
        rc = pthread_create(th, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    return rc;
}

#ifdef __linux__
/* Probe thread: returns non-NULL when it runs where it was pinned (*p). */
static void *mt_where(void *p)
{
    return sched_getcpu() == *(int *)p ? p : NULL;
}
#endif

/* Before MPI_Init_thread: the first two CPUs of the process's mask, and whether a thread can be
 * created pinned to each. */
static void mt_find_cpus(void)
{
#ifdef __linux__
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return;
    mt_mask_cpus = CPU_COUNT(&set);
    int n = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && n < 2; cpu++)
        if (CPU_ISSET(cpu, &set))
            mt_cpu[n++] = cpu;
    if (n < 2)
        return;
    for (int t = 0; t < 2; t++) {
        pthread_t th;
        void *ok = NULL;
        if (mt_spawn(&th, mt_cpu[t], mt_where, &mt_cpu[t]) != 0)
            return;
        pthread_join(th, &ok);
        if (!ok)
            return;
    }
    mt_pinned = 1;
#endif
}

struct mt_result {
    double wall;     /* first start to last stop, ns */
    long ops;        /* all threads */
    double sum_rate; /* sum of each thread's own ops/ns */
    double skew;     /* start skew + stop skew, ns */
    double share;    /* the least CPU time / wall time of a thread: below 1, it was descheduled */
    long preempted;  /* preemptions of all threads */
    int disturbed;   /* another task took a thread's CPU for more than 3% of the run */
};

/* One timed run: `nthreads` threads doing `kind` on comms[t]; cpu0 is the CPU of thread 0. */
static struct mt_result mt_run(int kind, int nthreads, const MPI_Comm *comms, int key, long chunk,
                               double run_ns, int cpu0)
{
    pthread_t th[2];
    atomic_store(&mt_gate.arrived, 0);
    atomic_store(&mt_gate.stop, 0);
    if (!mt_pinned)
        pthread_barrier_init(&mt_gate.barrier, NULL, (unsigned)nthreads);
    for (int t = 0; t < nthreads; t++) {
        struct mt_thread *a = &mt_args[t];
        a->kind = kind;
        a->comm = comms[t];
        a->key = key;
        a->nthreads = nthreads;
        a->cpu = mt_pinned ? mt_cpu[(cpu0 + t) % 2] : -1;
        a->chunk = chunk;
        a->run_ns = run_ns;
        a->warm_ns = run_ns / 4;
        if (mt_spawn(&th[t], a->cpu, mt_thread_main, a) != 0) {
            fprintf(stderr, "attr_bench: pthread_create failed\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
            exit(1);
        }
    }
    struct mt_result r = {0, 0, 0, 0, 1, 0, 0};
    double t0 = 0, t1 = 0, t0max = 0, t1min = 0;
    for (int t = 0; t < nthreads; t++) {
        pthread_join(th[t], NULL);
        const struct mt_thread *a = &mt_args[t];
        if (t == 0 || a->t0 < t0)
            t0 = a->t0;
        if (t == 0 || a->t0 > t0max)
            t0max = a->t0;
        if (t == 0 || a->t1 > t1)
            t1 = a->t1;
        if (t == 0 || a->t1 < t1min)
            t1min = a->t1;
        r.ops += a->ops;
        r.preempted += a->preempted;
        r.sum_rate += (double)a->ops / (a->t1 - a->t0);
        double share = a->cpu_ns / (a->t1 - a->t0);
        if (share < r.share)
            r.share = share;
        /* Preempted (not just blocked in a lock: that is a voluntary switch) and off its CPU for
         * more than 3% of the run. A few preemptions of a few microseconds by kernel threads
         * happen in most runs on an idle machine. */
        if (a->preempted > 0 && share < 0.97)
            r.disturbed = 1;
        sink += a->acc;
    }
    if (!mt_pinned)
        pthread_barrier_destroy(&mt_gate.barrier);
    r.wall = t1 - t0;
    r.skew = (t0max - t0) + (t1 - t1min);
    return r;
}

/* ns per operation of `kind` on one thread, roughly (for the chunk size). */
static double mt_estimate(int kind, MPI_Comm comm, int key)
{
    for (long n = 64;; n *= 2) {
        double t0 = now_ns();
        sink += mt_loop(kind, comm, key, n);
        double t = now_ns() - t0;
        if (t >= 1e6 || n >= (1L << 30))
            return t / (double)n;
    }
}

/* The mt_ cases. comms: two communicators holding `key`; have_get: MPI_THREAD_MULTIPLE was
 * provided (otherwise the floor control only). */
static void mt_cases(const MPI_Comm *comms, int key, int have_get)
{
    const int reps = 2 * runs + 1;
    /* Fixed-length runs: 4x the per-case budget (12 ms with --quick, 80 ms by default), so the
     * start skew and stop latency stay well under 1% of a run. */
    const double run_ns = 4 * budget_ns;
    const int floor_key = 3; /* as in case `floor` */
    const int nkinds = have_get ? MT_KINDS : 1;
    long chunk[MT_KINDS] = {0, 0};
    for (int k = 0; k < nkinds; k++) {
        double ns = mt_estimate(k, comms[0], k == MT_FLOOR ? floor_key : key);
        double c = 10e3 / (ns > 0.01 ? ns : 0.01); /* about 10 us per chunk */
        chunk[k] = c < 16 ? 16 : c > (1 << 20) ? (1 << 20) : (long)c;
    }
    if (mt_pinned)
        printf("# mt: threads pinned to CPUs %d and %d (%d in the mask)\n", mt_cpu[0], mt_cpu[1],
               mt_mask_cpus);
    else
        printf("# mt: threads not pinned (%d CPUs in the mask)\n", mt_mask_cpus);
    printf("# mt: %d repetitions of %.1f ms runs (+%.1f ms warm-up); chunks: floor %ld, get %ld\n",
           reps, run_ns / 1e6, run_ns / 4e6, chunk[MT_FLOOR], chunk[MT_GET]);

    /* Per kind and repetition: 1-thread ns/op, 2-thread ns/op per thread, 2v1 throughput ratio,
     * and the diagnostics of the 2-thread run (per-thread sum / wall throughput, skew in us, the
     * least CPU share of a thread in the 1- and the 2-thread run). */
    enum { NS1, NS2, RATIO, SUM, SKEW, SHARE1, SHARE2, NV };
    const int max_reps = 3 * reps;
    double *v[MT_KINDS][NV];
    int *clean[MT_KINDS], nclean[MT_KINDS] = {0, 0};
    for (int k = 0; k < MT_KINDS; k++) {
        for (int x = 0; x < NV; x++)
            v[k][x] = malloc(sizeof(double) * (size_t)max_reps);
        clean[k] = malloc(sizeof(int) * (size_t)max_reps);
    }
    const int trace = getenv("ATTR_BENCH_MT_TRACE") != NULL; /* '#' line per run */
    const int nsteps = 2 * nkinds; /* (kind, threads) pairs, rotated every repetition */
    int done = 0;
    while (done < reps || (done < max_reps && (nclean[MT_FLOOR] < reps ||
                                               (have_get && nclean[MT_GET] < reps)))) {
        const int r = done++;
        double thr[MT_KINDS][3]; /* ops/ns, by kind and number of threads */
        for (int k = 0; k < nkinds; k++)
            clean[k][r] = 1;
        for (int s = 0; s < nsteps; s++) {
            int step = (s + r) % nsteps;
            int k = step / 2, n = step % 2 + 1;
            struct mt_result res = mt_run(k, n, comms, k == MT_FLOOR ? floor_key : key, chunk[k],
                                          run_ns, r % 2);
            thr[k][n] = (double)res.ops / res.wall;
            if (trace)
                printf("# mt trace: rep %d %s %d thread(s) from CPU %d: %.3f ns/op per thread, "
                       "CPU share %.3f, preempted %ld%s, skew %.1f us\n",
                       r, mt_kind_name[k], n, mt_pinned ? mt_cpu[r % 2] : -1, n / thr[k][n],
                       res.share, res.preempted, res.disturbed ? " (disturbed)" : "",
                       res.skew / 1e3);
            v[k][n == 1 ? SHARE1 : SHARE2][r] = res.share;
            if (res.disturbed)
                clean[k][r] = 0;
            if (n == 2) {
                v[k][SUM][r] = res.sum_rate / thr[k][2];
                v[k][SKEW][r] = res.skew / 1e3;
            }
        }
        for (int k = 0; k < nkinds; k++) {
            v[k][NS1][r] = 1.0 / thr[k][1];
            v[k][NS2][r] = 2.0 / thr[k][2]; /* per thread */
            v[k][RATIO][r] = thr[k][2] / thr[k][1];
            nclean[k] += clean[k][r];
        }
    }
    /* The medians are over the clean repetitions when there are at least 3 (or all of them):
     * another process taking a CPU from one of two threads says nothing about the library, and
     * the same rule holds for every implementation and for the floor. Otherwise, on a machine
     * busy throughout, over all of them, and a '#' line says so. */
    int used[MT_KINDS] = {0, 0};
    for (int k = 0; k < nkinds; k++) {
        const int enough = nclean[k] >= (reps < 3 ? reps : 3);
        printf("# mt_%s: %d of %d repetitions undisturbed%s\n", mt_kind_name[k], nclean[k], done,
               enough ? "; medians over those" : "; too few: medians over all, machine busy");
        used[k] = done;
        if (enough) {
            int m = 0;
            for (int r = 0; r < done; r++)
                if (clean[k][r]) {
                    for (int x = 0; x < NV; x++)
                        v[k][x][m] = v[k][x][r];
                    m++;
                }
            used[k] = m;
        }
        printf("# mt_%s: CPU share 1 thread %.3f, 2 threads %.3f; 2 threads: per-thread sum / "
               "wall throughput %.3f, skew (start + stop) %.1f us (medians)\n",
               mt_kind_name[k], median(v[k][SHARE1], used[k]), median(v[k][SHARE2], used[k]),
               median(v[k][SUM], used[k]), median(v[k][SKEW], used[k]));
    }
    /* The floor's medians first (report_vs sorts): they are the mt_get lines' floors. */
    const int uf = used[MT_FLOOR];
    double f1 = report_vs("mt_floor_1thread", v[MT_FLOOR][NS1], uf, "ns/op", 0);
    double f2 = report_vs("mt_floor_2threads", v[MT_FLOOR][NS2], uf, "ns/op", 0);
    report_vs("mt_floor_2v1", v[MT_FLOOR][RATIO], uf, "ratio", 0);
    if (have_get) {
        const int ug = used[MT_GET];
        report_vs("mt_get_1thread", v[MT_GET][NS1], ug, "ns/op", f1);
        report_vs("mt_get_2threads", v[MT_GET][NS2], ug, "ns/op", f2);
        report_vs("mt_throughput_2v1", v[MT_GET][RATIO], ug, "ratio", 0);
    }
    for (int k = 0; k < MT_KINDS; k++) {
        for (int x = 0; x < NV; x++)
            free(v[k][x]);
        free(clean[k]);
    }
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
    report_vs(name, &per, 1, "bytes", 0.0);
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
    fprintf(stderr, "usage: attr_bench [--impl NAME] [-r RUNS] [-n ITERS] [-t MS] [--warm MS] "
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
        else if (!strcmp(a, "--warm"))
            warm_ns = atof(argv[++i]) * 1e6;
        else if (!strcmp(a, "--mem-comms"))
            mem_comms = atoi(argv[++i]);
        else if (!strcmp(a, "--mem-attrs"))
            mem_attrs = atoi(argv[++i]);
        else
            usage();
    }
    if (runs < 1 || max_iters < 1 || budget_ns <= 0 || warm_ns < 0 || mem_comms < 0 || mem_attrs < 0)
        usage();

    mt_find_cpus(); /* before MPI_Init_thread, which may bind the main thread */
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

    /* The floor, after a warm-up: measured here, the first ~0.2 s of a busy loop after start-up
     * and the memory case ran the floor call 40% slower than later (the CPU's clock and
     * predictors settling), which made every get's ratio to the floor look better than it is. */
    c.key = 3;
    for (double end = now_ns() + warm_ns; now_ns() < end;)
        body_floor(1000, &c);
    time_case("floor", body_floor, &c, 0);

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

    /* MPI_THREAD_MULTIPLE: 1 and 2 threads, each on its own dup holding one attribute, and the
     * floor control (which runs even without MPI_THREAD_MULTIPLE). */
    {
        MPI_Comm tc[2];
        int tk;
        check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &tk, NULL),
              "MPI_Comm_create_keyval");
        for (int t = 0; t < 2; t++) {
            check(MPI_Comm_dup(MPI_COMM_WORLD, &tc[t]), "MPI_Comm_dup");
            check(MPI_Comm_set_attr(tc[t], tk, (void *)(uintptr_t)(t + 1)), "MPI_Comm_set_attr");
        }
        if (provided < MPI_THREAD_MULTIPLE)
            printf("# threads: MPI_THREAD_MULTIPLE not provided (%d): no mt_get cases\n",
                   provided);
        mt_cases(tc, tk, provided >= MPI_THREAD_MULTIPLE);
        for (int t = 0; t < 2; t++)
            check(MPI_Comm_free(&tc[t]), "MPI_Comm_free");
        check(MPI_Comm_free_keyval(&tk), "MPI_Comm_free_keyval");
    }

    printf("# sink %lu\n", (unsigned long)sink);
    MPI_Finalize();
    return 0;
}
