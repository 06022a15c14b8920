/* Tiny self-check helper for the C test programs of mpicache (standard C and MPI only).
 *
 *   CHECK(cond, "MPI 4.1 §7.7.2: what the rule says");
 *   CHECK_RC(MPI_Comm_set_attr(...), MPI_SUCCESS, "rule");   -- compares return codes
 *   return check_summary("program name");                     -- at the end of main
 *
 * A failing check prints the file, line, condition and rule on stdout and the program goes on;
 * check_summary() prints "N passed, M failed" and returns the exit status (0 only if none
 * failed). Works with any MPI (mpicache, MPICH, Open MPI). */
#ifndef MPICACHE_TEST_CHECK_H
#define MPICACHE_TEST_CHECK_H

#include <stdio.h>

static int check_passed_count = 0;
static int check_failed_count = 0;

static void check_record(int ok, const char *file, int line, const char *what, const char *rule)
{
    if (ok) {
        check_passed_count++;
    } else {
        check_failed_count++;
        printf("FAILED %s:%d: %s\n    rule: %s\n", file, line, what, rule);
        fflush(stdout);
    }
}

#define CHECK(cond, rule) check_record((cond) ? 1 : 0, __FILE__, __LINE__, #cond, (rule))

/* Compares two int results (error codes, counts) and prints both when they differ. */
#define CHECK_EQ(got, want, rule)                                                         \
    do {                                                                                  \
        int check_got_ = (got), check_want_ = (want);                                     \
        check_record(check_got_ == check_want_, __FILE__, __LINE__, #got " == " #want,    \
                     (rule));                                                             \
        if (check_got_ != check_want_)                                                    \
            printf("    got %d, expected %d\n", check_got_, check_want_);                 \
    } while (0)

static int check_summary(const char *program)
{
    printf("%s: %d passed, %d failed\n", program, check_passed_count, check_failed_count);
    fflush(stdout);
    return check_failed_count == 0 ? 0 : 1;
}

#endif
