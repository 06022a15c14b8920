/* Helpers of the MPI-IO test programs: a private temporary directory, and the bytes of a file
 * read with plain stdio, so contents are checked independently of MPI. Include after
 * defining _XOPEN_SOURCE 700. */
#ifndef MPICACHE_TEST_IO_UTIL_H
#define MPICACHE_TEST_IO_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char io_dir[64];

/* Makes the directory (mkdtemp) or exits. */
static inline void io_make_dir(void)
{
    strcpy(io_dir, "/tmp/mpicache-io-XXXXXX");
    if (!mkdtemp(io_dir)) {
        perror("mkdtemp");
        exit(2);
    }
}

/* A path in the directory. */
static inline const char *io_path(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", io_dir, name);
    return buf;
}

/* Reads up to n bytes of the file into buf; returns how many (-1 if it cannot be opened). */
static inline long io_slurp(const char *path, unsigned char *buf, long n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    long got = (long)fread(buf, 1, (size_t)n, f);
    fclose(f);
    return got;
}

/* Writes n bytes as the whole file. */
static inline void io_spit(const char *path, const unsigned char *buf, long n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, (size_t)n, f) != (size_t)n) {
        perror(path);
        exit(2);
    }
    fclose(f);
}

static inline int io_exists(const char *path)
{
    return access(path, F_OK) == 0;
}

#endif
