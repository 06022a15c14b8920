/* The attribute benchmark's memory and first-use cases (issue 15). Standard MPI only: the same
 * source builds with mpicache's, MPICH's and Open MPI's mpicc. Linux only: the memory figures
 * are read from /proc/self/status (VmRSS, VmSize) and /proc/self/maps.
 *
 *   mpicc -O2 bench/attr_mem.c -o attr_mem
 *   ./attr_mem --case lifecycle|far|first|cycle [--impl NAME] [-r RUNS] [-n ITERS] [-t MS]
 *              [--types N] [--comms M] [--far-comms K] [--far-gap G] [--first K]
 *
 * One case per process (ci/bench.sh runs each, per implementation and round):
 *
 * lifecycle: N datatypes (MPI_Type_dup of MPI_INT; --types, 1,000,000 by default), each given
 *   one attribute, then M communicators (MPI_Comm_dup of MPI_COMM_SELF; --comms, 100,000), each
 *   given one attribute, all alive together. Per kind: how many were made (an implementation
 *   that fails, e.g. MPICH at its ~2,000 context ids or mpicache at its object limit, stops
 *   there: the error comes back under MPI_ERRORS_RETURN, a '#' line gives its text, and the
 *   figures are over what was made), resident bytes per object (VmRSS after making and setting
 *   minus before, / made: the object itself counted, as a user pays it), address space per
 *   object (VmSize, the same way), address space / resident, and the memory mappings added
 *   (lines of /proc/self/maps). Then every object and keyval is freed and VmRSS read again,
 *   and once more after MPI_Finalize, the process's last MPI call: the MiB kept above the
 *   VmRSS before the objects were made (life_rss_baseline), and that VmRSS over the issue's
 *   limit, 1.1 x baseline + 16 MiB (at most 1: the target holds).
 * far: K communicators (--far-comms, 1,000; fewer when the implementation cannot make them),
 *   each given 10 attributes whose keyvals were created G apart (--far-gap, 100: other keyvals,
 *   kept alive, created in between, as when several libraries cache): VmRSS after setting minus
 *   before (objects and keyvals made before), / 10 K.
 * first: the first set_attr on new objects. Per run, K communicators (MPI_Comm_dup of
 *   MPI_COMM_WORLD) and K datatypes (MPI_Type_dup of MPI_INT; --first, 200) made untimed, then
 *   one timed loop setting one attribute on each: ns per set, median over RUNS runs (all the
 *   runs' objects alive at the end: RUNS x K of each kind).
 * cycle: MPI_Comm_dup of MPI_COMM_WORLD + one MPI_Comm_set_attr (null callbacks) +
 *   MPI_Comm_free, ns per cycle; RUNS runs, each a loop of at most ITERS cycles and about MS
 *   milliseconds.
 * maps: T datatypes (--maps-types, 10,000), each given one attribute, the program mapping a
 *   page of its own before each: mappings the library adds per object (see maps_case).
 *
 * Before a memory baseline is read, a few objects of the kinds measured are made, given an
 * attribute and freed: the library's code and first allocations are paged in, not counted
 * against the objects.
 *
 * Output as bench/attr_bench.c, one line per case ('#' lines are comments):
 *
 *   case,impl,median,min,max,unit,floor_ratio
 *
 * units bytes, MiB, count, ratio and ns/op; floor_ratio is always empty here. A figure measured
 * once per process has median = min = max (ci/bench.sh takes the median over rounds). For a
 * kind of object, X_asked is the number asked for and X_made the number made (the table marks
 * an implementation that made fewer). The memory kept after freeing, the address space and
 * the mappings added can be zero or negative (a library that gives back more than the objects
 * took, or maps nothing).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static char impl[64] = "";
static int runs = 7;
static long max_iters = 1000000;
static double budget_ns = 20e6;
static long n_types = 1000000;
static long n_comms = 100000;
static int far_comms = 1000;
static int far_gap = 100;
static int first_objs = 200;
static long maps_types = 10000;

enum { FAR_KEYS = 10, WARM_OBJS = 16 };

/* ---- output ------------------------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One case line over n values (sorts v). */
static void report(const char *name, double *v, int n, const char *unit)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    printf("%s,%s,%.3f,%.3f,%.3f,%s,\n", name, impl, med, v[0], v[n - 1], unit);
    fflush(stdout);
}

/* One case line for a value measured once. */
static void report1(const char *name, double x, const char *unit)
{
    report(name, &x, 1, unit);
}

/* The error's text on one line (MPICH's holds a stack of lines): it goes into '#' lines. */
static void error_text(int rc, char *msg)
{
    int len = 0;
    msg[0] = 0;
    if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
        snprintf(msg, MPI_MAX_ERROR_STRING, "error code %d", rc);
    for (char *p = msg; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = p[1] ? '|' : ' ';
}

/* Setup that must work (keyvals, a few objects): anything else makes the run worthless. */
static void check(int rc, const char *what)
{
    if (rc != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        error_text(rc, msg);
        fprintf(stderr, "attr_mem: %s failed: %s\n", what, msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
        exit(1);
    }
}

/* ---- memory, from /proc (Linux) ----------------------------------------------------------- */

struct mem {
    long rss, vsz; /* bytes */
    long maps;     /* lines of /proc/self/maps */
};

static struct mem mem_now(void)
{
    struct mem m = {-1, -1, -1};
    char line[256];
    FILE *f = fopen("/proc/self/status", "r");
    if (f) {
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "VmRSS:", 6) == 0)
                m.rss = strtol(line + 6, NULL, 10) * 1024; /* the kernel writes kB */
            else if (strncmp(line, "VmSize:", 7) == 0)
                m.vsz = strtol(line + 7, NULL, 10) * 1024;
        }
        fclose(f);
    }
    f = fopen("/proc/self/maps", "r");
    if (f) {
        m.maps = 0;
        int c;
        while ((c = getc(f)) != EOF)
            m.maps += c == '\n';
        fclose(f);
    }
    if (m.rss < 0 || m.vsz < 0 || m.maps < 0) {
        fprintf(stderr, "attr_mem: cannot read /proc/self/status or /proc/self/maps "
                        "(Linux only)\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
        exit(1);
    }
    return m;
}

/* A handle array, touched, so that its pages are resident before any baseline. */
static void *handles(long n, size_t size)
{
    void *p = malloc((size_t)(n > 0 ? n : 1) * size);
    if (!p) {
        fprintf(stderr, "attr_mem: no memory for %ld handles\n", n);
        exit(1);
    }
    memset(p, 0, (size_t)(n > 0 ? n : 1) * size);
    return p;
}

/* ---- making objects, stopping at the first failure ------------------------------------- */

/* Makes object i with its attribute; returns the MPI error code (on failure the object, if it
 * was made, is freed again: a count of objects made is of objects holding their attribute). */
static int make_type(MPI_Datatype *t, int key, long i)
{
    int rc = MPI_Type_dup(MPI_INT, t);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Type_set_attr(*t, key, (void *)(uintptr_t)(i + 1));
    if (rc != MPI_SUCCESS)
        MPI_Type_free(t);
    return rc;
}

static int make_comm(MPI_Comm parent, MPI_Comm *c, int key, long i)
{
    int rc = MPI_Comm_dup(parent, c);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_set_attr(*c, key, (void *)(uintptr_t)(i + 1));
    if (rc != MPI_SUCCESS)
        MPI_Comm_free(c);
    return rc;
}

/* '#' line for a kind that stopped short of what was asked. */
static void short_note(const char *what, long made, long asked, int rc)
{
    char msg[MPI_MAX_ERROR_STRING];
    error_text(rc, msg);
    printf("# %s: made %ld of %ld: the next failed: %s\n", what, made, asked, msg);
}

/* Pages in the library's code and first allocations (not counted): datatypes, and
 * communicators unless comm_key is MPI_KEYVAL_INVALID. */
static void warm_up(int type_key, int comm_key)
{
    const int comms = comm_key != MPI_KEYVAL_INVALID;
    MPI_Datatype t[WARM_OBJS];
    MPI_Comm c[WARM_OBJS];
    for (int i = 0; i < WARM_OBJS; i++) {
        check(make_type(&t[i], type_key, i), "MPI_Type_dup + MPI_Type_set_attr (warm-up)");
        if (comms)
            check(make_comm(MPI_COMM_SELF, &c[i], comm_key, i),
                  "MPI_Comm_dup + MPI_Comm_set_attr (warm-up)");
    }
    for (int i = 0; i < WARM_OBJS; i++) {
        check(MPI_Type_free(&t[i]), "MPI_Type_free (warm-up)");
        if (comms)
            check(MPI_Comm_free(&c[i]), "MPI_Comm_free (warm-up)");
    }
}

/* The per-object lines of one kind: `made` objects took memory from `a` to `b`. */
static void report_kind(const char *kind, long asked, long made, struct mem a, struct mem b)
{
    char name[64];
    snprintf(name, sizeof name, "many_%s_asked", kind);
    report1(name, (double)asked, "count");
    snprintf(name, sizeof name, "many_%s_made", kind);
    report1(name, (double)made, "count");
    printf("# many_%s: VmRSS %ld -> %ld, VmSize %ld -> %ld bytes, mappings %ld -> %ld\n", kind,
           a.rss, b.rss, a.vsz, b.vsz, a.maps, b.maps);
    if (made == 0) {
        printf("# many_%s: no object made: no per-object figures\n", kind);
        return;
    }
    const double drss = (double)(b.rss - a.rss), dvsz = (double)(b.vsz - a.vsz);
    snprintf(name, sizeof name, "many_%s_rss_per_obj", kind);
    report1(name, drss / (double)made, "bytes");
    snprintf(name, sizeof name, "many_%s_vsz_per_obj", kind);
    report1(name, dvsz / (double)made, "bytes");
    snprintf(name, sizeof name, "many_%s_vsz_per_rss", kind);
    if (drss > 0)
        report1(name, dvsz / drss, "ratio");
    else
        printf("# %s: VmRSS did not grow: no ratio\n", name);
    snprintf(name, sizeof name, "many_%s_maps_added", kind);
    report1(name, (double)(b.maps - a.maps), "count");
}

/* ---- --lifecycle ------------------------------------------------------------------------- */

/* The limit on VmRSS once everything is freed: within 10% (plus 16 MiB) of before. */
static double rss_limit(long before)
{
    return 1.1 * (double)before + 16.0 * 1024 * 1024;
}

static void lifecycle(void)
{
    int type_key, comm_key; /* one attribute per object */
    check(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &type_key, NULL),
          "MPI_Type_create_keyval");
    check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &comm_key, NULL),
          "MPI_Comm_create_keyval");
    MPI_Datatype *types = handles(n_types, sizeof *types);
    MPI_Comm *comms = handles(n_comms, sizeof *comms);
    warm_up(type_key, comm_key);

    const struct mem m0 = mem_now();
    long nt = 0, nc = 0;
    int rc = MPI_SUCCESS;
    while (nt < n_types && (rc = make_type(&types[nt], type_key, nt)) == MPI_SUCCESS)
        nt++;
    if (nt < n_types)
        short_note("many_types", nt, n_types, rc);
    const struct mem m1 = mem_now();
    while (nc < n_comms && (rc = make_comm(MPI_COMM_SELF, &comms[nc], comm_key, nc)) == MPI_SUCCESS)
        nc++;
    if (nc < n_comms)
        short_note("many_comms", nc, n_comms, rc);
    const struct mem m2 = mem_now();
    report1("many_maps_baseline", (double)m0.maps, "count");
    report_kind("types", n_types, nt, m0, m1);
    report_kind("comms", n_comms, nc, m1, m2);

    for (long i = 0; i < nc; i++)
        check(MPI_Comm_free(&comms[i]), "MPI_Comm_free");
    for (long i = 0; i < nt; i++)
        check(MPI_Type_free(&types[i]), "MPI_Type_free");
    check(MPI_Type_free_keyval(&type_key), "MPI_Type_free_keyval");
    check(MPI_Comm_free_keyval(&comm_key), "MPI_Comm_free_keyval");
    const struct mem m3 = mem_now();
    MPI_Finalize(); /* the last MPI call of the process */
    const struct mem m4 = mem_now();

    printf("# life: VmRSS before %ld, with the objects %ld, after freeing them %ld, after "
           "MPI_Finalize %ld bytes; limit %.0f\n",
           m0.rss, m2.rss, m3.rss, m4.rss, rss_limit(m0.rss));
    const double mib = 1024.0 * 1024.0;
    report1("life_rss_baseline", (double)m0.rss / mib, "MiB");
    report1("life_kept_after_free", (double)(m3.rss - m0.rss) / mib, "MiB");
    report1("life_kept_after_finalize", (double)(m4.rss - m0.rss) / mib, "MiB");
    report1("life_freed_vs_limit", (double)m3.rss / rss_limit(m0.rss), "ratio");
    report1("life_finalized_vs_limit", (double)m4.rss / rss_limit(m0.rss), "ratio");
    free(types);
    free(comms);
}

/* ---- maps -------------------------------------------------------------------------------- */

/* Mappings the library adds per object when the program's own mappings lie between its
 * objects, as when a program holds a large malloc'd buffer (a mapping of its own) per object.
 * Without them the kernel merges adjacent anonymous mappings of the same protection into one
 * line of /proc/self/maps, so a library that maps memory per object can show a few lines for
 * 100,000 objects (many_*_maps_added) and still use up the kernel's limit on mappings
 * (vm.max_map_count, 65,530 by default) once a program's own mappings separate them. Before
 * each object the program maps one page of its own, the pages' protections alternating
 * (PROT_NONE, PROT_READ) so that two of them never merge either; the program's pages are
 * subtracted from the lines added. */
static void maps_case(void)
{
    int key;
    check(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &key, NULL),
          "MPI_Type_create_keyval");
    MPI_Datatype *types = handles(maps_types, sizeof *types);
    void **pages = handles(maps_types, sizeof *pages);
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    warm_up(key, MPI_KEYVAL_INVALID);

    const struct mem a = mem_now();
    long made = 0, mapped = 0;
    int rc = MPI_SUCCESS;
    while (made < maps_types) {
        pages[mapped] = mmap(NULL, page, mapped % 2 ? PROT_READ : PROT_NONE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (pages[mapped] == MAP_FAILED) {
            printf("# maps_types: made %ld of %ld: the program's own mmap failed\n", made,
                   maps_types);
            break;
        }
        mapped++;
        if ((rc = make_type(&types[made], key, made)) != MPI_SUCCESS) {
            short_note("maps_types", made, maps_types, rc);
            break;
        }
        made++;
    }
    const struct mem b = mem_now();
    const long added = b.maps - a.maps - mapped;
    printf("# maps: %ld datatypes, %ld pages of the program between them: mappings %ld -> %ld\n",
           made, mapped, a.maps, b.maps);
    report1("maps_types_asked", (double)maps_types, "count");
    report1("maps_types_made", (double)made, "count");
    if (made > 0)
        report1("maps_per_type", (double)added / (double)made, "count");

    for (long i = 0; i < made; i++)
        check(MPI_Type_free(&types[i]), "MPI_Type_free");
    for (long i = 0; i < mapped; i++)
        munmap(pages[i], page);
    check(MPI_Type_free_keyval(&key), "MPI_Type_free_keyval");
    free(types);
    free(pages);
}

/* ---- default mode ------------------------------------------------------------------------ */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Ten attributes per communicator, their keyvals created far_gap apart. */
static void far_case(void)
{
    const int nkeys = FAR_KEYS * (far_gap + 1);
    int *all = handles(nkeys, sizeof *all);
    int keys[FAR_KEYS];
    for (int k = 0; k < nkeys; k++)
        check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &all[k], NULL),
              "MPI_Comm_create_keyval");
    for (int j = 0; j < FAR_KEYS; j++)
        keys[j] = all[j * (far_gap + 1)]; /* far_gap others created between two of them */

    /* Warm-up on a communicator of its own, kept until the end: a freed one's slot could be
     * reused, memory and all, by the first communicator measured. */
    MPI_Comm warm;
    check(MPI_Comm_dup(MPI_COMM_WORLD, &warm), "MPI_Comm_dup (warm-up)");
    for (int j = 0; j < FAR_KEYS; j++)
        check(MPI_Comm_set_attr(warm, keys[j], (void *)(uintptr_t)1), "MPI_Comm_set_attr");

    MPI_Comm *comms = handles(far_comms, sizeof *comms);
    int made = 0, rc = MPI_SUCCESS;
    while (made < far_comms && (rc = MPI_Comm_dup(MPI_COMM_WORLD, &comms[made])) == MPI_SUCCESS)
        made++;
    if (made < far_comms)
        short_note("far_comms", made, far_comms, rc);

    const struct mem a = mem_now();
    for (int i = 0; i < made; i++)
        for (int j = 0; j < FAR_KEYS; j++)
            check(MPI_Comm_set_attr(comms[i], keys[j], (void *)(uintptr_t)(j + 1)),
                  "MPI_Comm_set_attr");
    const struct mem b = mem_now();
    printf("# far: %d attributes on %d communicators (keyvals %d apart), VmRSS %ld -> %ld bytes\n",
           FAR_KEYS * made, made, far_gap + 1, a.rss, b.rss);
    report1("far_comms_asked", far_comms, "count");
    report1("far_comms_made", made, "count");
    if (made > 0)
        report1("far_rss_per_attr", (double)(b.rss - a.rss) / (FAR_KEYS * (double)made), "bytes");

    for (int i = 0; i < made; i++)
        check(MPI_Comm_free(&comms[i]), "MPI_Comm_free");
    check(MPI_Comm_free(&warm), "MPI_Comm_free");
    for (int k = 0; k < nkeys; k++)
        check(MPI_Comm_free_keyval(&all[k]), "MPI_Comm_free_keyval");
    free(comms);
    free(all);
}

/* Makes n objects of a kind (untimed), then times one loop setting one attribute on each (its
 * first): ns per set, or -1 when the n objects could not be made (a '#' line says why). */
static double first_sets_comm(MPI_Comm *c, int n, int key)
{
    int made = 0, rc = MPI_SUCCESS, bad = MPI_SUCCESS;
    while (made < n && (rc = MPI_Comm_dup(MPI_COMM_WORLD, &c[made])) == MPI_SUCCESS)
        made++;
    if (made < n) {
        short_note("first_set_comm: this run's communicators", made, n, rc);
        while (made > 0)
            check(MPI_Comm_free(&c[--made]), "MPI_Comm_free");
        return -1;
    }
    double t0 = now_ns();
    for (int i = 0; i < n; i++)
        if ((rc = MPI_Comm_set_attr(c[i], key, (void *)(uintptr_t)(i + 1))) && !bad)
            bad = rc; /* the first failure's code; MPI_SUCCESS is 0 */
    double t = now_ns() - t0;
    check(bad, "MPI_Comm_set_attr (first set)");
    return t / n;
}

static double first_sets_type(MPI_Datatype *t, int n, int key)
{
    int made = 0, rc = MPI_SUCCESS, bad = MPI_SUCCESS;
    while (made < n && (rc = MPI_Type_dup(MPI_INT, &t[made])) == MPI_SUCCESS)
        made++;
    if (made < n) {
        short_note("first_set_type: this run's datatypes", made, n, rc);
        while (made > 0)
            check(MPI_Type_free(&t[--made]), "MPI_Type_free");
        return -1;
    }
    double t0 = now_ns();
    for (int i = 0; i < n; i++)
        if ((rc = MPI_Type_set_attr(t[i], key, (void *)(uintptr_t)(i + 1))) && !bad)
            bad = rc;
    double dt = now_ns() - t0;
    check(bad, "MPI_Type_set_attr (first set)");
    return dt / n;
}

/* The first set_attr on new communicators and datatypes. Every run's objects stay alive until
 * the end, so that each run's are new to the library, not the slots (and memory) of freed
 * ones: a program that keeps its objects pays that cost, and recycling would hide it. Runs
 * stop early, with a '#' line, when the implementation cannot make more (MPICH's context ids:
 * about 2,000 communicators). */
static void first_set_cases(void)
{
    int ck, tk;
    check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ck, NULL),
          "MPI_Comm_create_keyval");
    check(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tk, NULL),
          "MPI_Type_create_keyval");
    const long total = (long)runs * first_objs;
    MPI_Comm *comms = handles(total, sizeof *comms);
    MPI_Datatype *types = handles(total, sizeof *types);
    double *vc = handles(runs, sizeof *vc), *vt = handles(runs, sizeof *vt);
    int nc = 0, nt = 0; /* runs done */
    for (int r = 0; r < runs; r++) {
        const long at = (long)r * first_objs;
        if (nc == r && (vc[nc] = first_sets_comm(comms + at, first_objs, ck)) >= 0)
            nc++;
        if (nt == r && (vt[nt] = first_sets_type(types + at, first_objs, tk)) >= 0)
            nt++;
    }
    if (nc > 0)
        report("first_set_comm", vc, nc, "ns/op");
    if (nt > 0)
        report("first_set_type", vt, nt, "ns/op");
    for (long i = 0; i < (long)nc * first_objs; i++)
        check(MPI_Comm_free(&comms[i]), "MPI_Comm_free");
    for (long i = 0; i < (long)nt * first_objs; i++)
        check(MPI_Type_free(&types[i]), "MPI_Type_free");
    check(MPI_Comm_free_keyval(&ck), "MPI_Comm_free_keyval");
    check(MPI_Type_free_keyval(&tk), "MPI_Type_free_keyval");
    free(comms);
    free(types);
    free(vc);
    free(vt);
}

static int cycle_key;

/* n cycles; aborts after the loop when one failed (MPI_SUCCESS is 0: a failure is nonzero). */
static void cycles(long n)
{
    int bad = MPI_SUCCESS;
    for (long i = 0; i < n; i++) {
        MPI_Comm d;
        int rc = MPI_Comm_dup(MPI_COMM_WORLD, &d);
        if (rc == MPI_SUCCESS) {
            rc = MPI_Comm_set_attr(d, cycle_key, (void *)(uintptr_t)(i + 1));
            int rf = MPI_Comm_free(&d);
            rc = rc ? rc : rf;
        }
        if (rc && !bad)
            bad = rc;
    }
    check(bad, "MPI_Comm_dup + MPI_Comm_set_attr + MPI_Comm_free");
}

/* dup + set + free: iterations per run grown until a run lasts a quarter of the budget. */
static void cycle_case(void)
{
    check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &cycle_key, NULL),
          "MPI_Comm_create_keyval");
    long it = 1;
    for (;;) {
        double t0 = now_ns();
        cycles(it);
        double t = now_ns() - t0;
        if (it >= max_iters)
            break;
        if (t >= budget_ns / 4) {
            double want = (double)it * budget_ns / t;
            it = want < 1 ? 1 : want > (double)max_iters ? max_iters : (long)want;
            break;
        }
        it = it * 4 > max_iters ? max_iters : it * 4;
    }
    double *v = handles(runs, sizeof *v);
    for (int r = 0; r < runs; r++) {
        double t0 = now_ns();
        cycles(it);
        v[r] = (now_ns() - t0) / (double)it;
    }
    report("comm_dup_set_free", v, runs, "ns/op");
    free(v);
    check(MPI_Comm_free_keyval(&cycle_key), "MPI_Comm_free_keyval");
}

/* ---- main -------------------------------------------------------------------------------- */

static void usage(void)
{
    fprintf(stderr, "usage: attr_mem --case lifecycle|far|first|cycle|maps [--impl NAME] [-r RUNS] "
                    "[-n ITERS] [-t MS] [--types N] [--comms M] [--far-comms K] [--far-gap G] "
                    "[--first K] [--maps-types T]\n");
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

/* One case per process: each memory figure starts from a fresh heap (memory freed by an earlier
 * case would be reused without showing in VmRSS), and lifecycle ends with MPI_Finalize. */
static const struct {
    const char *name;
    void (*run)(void);
    int finalizes; /* calls MPI_Finalize itself */
} cases[] = {{"lifecycle", lifecycle, 1},
             {"far", far_case, 0},
             {"first", first_set_cases, 0},
             {"cycle", cycle_case, 0},
             {"maps", maps_case, 0}};

int main(int argc, char **argv)
{
    int which = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc)
            usage();
        if (!strcmp(a, "--case")) {
            const char *c = argv[++i];
            for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
                if (!strcmp(c, cases[k].name))
                    which = (int)k;
        } else if (!strcmp(a, "--impl"))
            snprintf(impl, sizeof impl, "%s", argv[++i]);
        else if (!strcmp(a, "-r"))
            runs = atoi(argv[++i]);
        else if (!strcmp(a, "-n"))
            max_iters = atol(argv[++i]);
        else if (!strcmp(a, "-t"))
            budget_ns = atof(argv[++i]) * 1e6;
        else if (!strcmp(a, "--types"))
            n_types = atol(argv[++i]);
        else if (!strcmp(a, "--comms"))
            n_comms = atol(argv[++i]);
        else if (!strcmp(a, "--far-comms"))
            far_comms = atoi(argv[++i]);
        else if (!strcmp(a, "--far-gap"))
            far_gap = atoi(argv[++i]);
        else if (!strcmp(a, "--first"))
            first_objs = atoi(argv[++i]);
        else if (!strcmp(a, "--maps-types"))
            maps_types = atol(argv[++i]);
        else
            usage();
    }
    if (which < 0 || runs < 1 || max_iters < 1 || budget_ns <= 0 || n_types < 1 || n_comms < 1 ||
        far_comms < 1 || far_gap < 0 || first_objs < 1 || maps_types < 1)
        usage();

    MPI_Init(&argc, &argv);
    /* Failures to make objects are results, not the end: they come back as error codes (errors
     * of datatype calls go to MPI_COMM_SELF's handler since MPI 4.0, to MPI_COMM_WORLD's
     * before). */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (!impl[0])
        guess_impl();
    printf("# case,impl,median,min,max,unit,floor_ratio\n");
    cases[which].run();
    if (!cases[which].finalizes)
        MPI_Finalize();
    return 0;
}
