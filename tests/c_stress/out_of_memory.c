/* Issue 15 item 6: out of memory is an error, never an abort. The program limits its own
 * address space (RLIMIT_AS, what `ulimit -v` sets) to what it uses after MPI_Init plus 64 MiB,
 * then makes objects until a call fails. Under MPI_ERRORS_RETURN the failing call must return
 * an error of class MPI_ERR_NO_MEM (MPI 4.1 §9.4), leave its output alone (or set the null
 * handle), and change nothing: what was made before still reads back. Then everything is freed
 * and objects can be made again.
 *
 *   out_of_memory info    info objects with one key each (the world's tables and strings)
 *   out_of_memory attrs   communicators with one attribute each (the attribute store too)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define CHECK(c, ...)                                                                           \
    do {                                                                                        \
        if (!(c)) {                                                                             \
            fprintf(stderr, "FAIL line %d: ", __LINE__);                                       \
            fprintf(stderr, __VA_ARGS__);                                                       \
            fprintf(stderr, "\n");                                                              \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

#define MAX_OBJECTS (4 << 20)

static long vm_size_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmSize: %ld kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib;
}

static int class_of(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

static void limit_address_space(void)
{
    long kib = vm_size_kib();
    CHECK(kib > 0, "no VmSize");
    struct rlimit r = {(rlim_t)(kib + 64 * 1024) * 1024, (rlim_t)(kib + 64 * 1024) * 1024};
    CHECK(setrlimit(RLIMIT_AS, &r) == 0, "setrlimit");
}

static int info_round(MPI_Info *infos)
{
    int n = 0;
    for (;;) {
        CHECK(n < MAX_OBJECTS, "no failure after %d info objects", n);
        MPI_Info info = (MPI_Info)0x5a5a;
        int rc = MPI_Info_create(&info);
        if (rc != MPI_SUCCESS) {
            CHECK(class_of(rc) == MPI_ERR_NO_MEM, "MPI_Info_create: class %d", class_of(rc));
            CHECK(info == (MPI_Info)0x5a5a || info == MPI_INFO_NULL, "output written");
            break;
        }
        rc = MPI_Info_set(info, "mpicache_key", "a value of some length");
        if (rc != MPI_SUCCESS) {
            int nkeys = -1;
            CHECK(class_of(rc) == MPI_ERR_NO_MEM, "MPI_Info_set: class %d", class_of(rc));
            CHECK(MPI_Info_get_nkeys(info, &nkeys) == MPI_SUCCESS && nkeys == 0,
                  "a failed MPI_Info_set left %d keys", nkeys);
            MPI_Info_free(&info);
            break;
        }
        infos[n++] = info;
    }
    /* What was made before still reads back. */
    for (int i = 0; i < n; i += n / 100 + 1) {
        char v[64];
        int flag = 0;
        CHECK(MPI_Info_get(infos[i], "mpicache_key", sizeof v - 1, v, &flag) == MPI_SUCCESS &&
                  flag && !strcmp(v, "a value of some length"),
              "info %d lost its key", i);
    }
    return n;
}

static int attr_round(MPI_Comm *comms, int keyval)
{
    int n = 0;
    for (;;) {
        CHECK(n < MAX_OBJECTS, "no failure after %d communicators", n);
        MPI_Comm c = (MPI_Comm)0x5a5a;
        int rc = MPI_Comm_dup(MPI_COMM_WORLD, &c);
        if (rc != MPI_SUCCESS) {
            CHECK(class_of(rc) == MPI_ERR_NO_MEM, "MPI_Comm_dup: class %d", class_of(rc));
            CHECK(c == (MPI_Comm)0x5a5a || c == MPI_COMM_NULL, "output written");
            break;
        }
        rc = MPI_Comm_set_attr(c, keyval, (void *)(size_t)(n + 1));
        if (rc != MPI_SUCCESS) {
            void *v;
            int flag = 1;
            CHECK(class_of(rc) == MPI_ERR_NO_MEM, "MPI_Comm_set_attr: class %d", class_of(rc));
            CHECK(MPI_Comm_get_attr(c, keyval, &v, &flag) == MPI_SUCCESS && !flag,
                  "a failed set left an attribute");
            MPI_Comm_free(&c);
            break;
        }
        comms[n++] = c;
    }
    for (int i = 0; i < n; i += n / 100 + 1) {
        void *v = NULL;
        int flag = 0;
        CHECK(MPI_Comm_get_attr(comms[i], keyval, &v, &flag) == MPI_SUCCESS && flag &&
                  v == (void *)(size_t)(i + 1),
              "communicator %d lost its attribute", i);
    }
    return n;
}

int main(int argc, char **argv)
{
    int attrs = argc > 1 && !strcmp(argv[1], "attrs");
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int keyval;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    void *handles = malloc(sizeof(int) * (size_t)MAX_OBJECTS);
    CHECK(handles, "malloc");
    memset(handles, 0, sizeof(int) * (size_t)MAX_OBJECTS);
    limit_address_space();
    int made[3];
    for (int round = 0; round < 3; round++) {
        int n = attrs ? attr_round(handles, keyval) : info_round(handles);
        CHECK(n > 1000, "round %d: only %d objects before the failure", round, n);
        made[round] = n;
        for (int i = n - 1; i >= 0; i--) {
            int rc = attrs ? MPI_Comm_free(&((MPI_Comm *)handles)[i])
                           : MPI_Info_free(&((MPI_Info *)handles)[i]);
            CHECK(rc == MPI_SUCCESS, "free %d: %d", i, rc);
        }
    }
    /* Memory came back: later rounds make about as many as the first. */
    CHECK(made[2] * 10 >= made[0] * 9, "round 3 made %d, round 1 %d", made[2], made[0]);
    printf("out_of_memory %s: %d, %d, %d objects before MPI_ERR_NO_MEM\n", attrs ? "attrs" : "info",
           made[0], made[1], made[2]);
    MPI_Comm_free_keyval(&keyval);
    free(handles);
    MPI_Finalize();
    return 0;
}
