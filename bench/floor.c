/* The floor of the attribute benchmark: what any attribute get costs when it goes through a C
 * call into a shared library. floor_get checks its arguments like an MPI get does (a valid
 * object, a valid key, non-NULL output pointers) and loads one word from an array.
 *
 * Built on its own into libfloor.so (cc -O2 -fPIC -shared bench/floor.c -o libfloor.so) and
 * linked into the benchmarks, so the call goes through the PLT like a call into the MPI library.
 */
#include <stddef.h>

#define FLOOR_OBJS 4
#define FLOOR_KEYS 16

static void *floor_table[FLOOR_OBJS * FLOOR_KEYS];

/* Stores a word that floor_get then loads. It exists so that the compiler cannot prove the
 * table all zero and fold floor_get's load into a constant store (which it did). */
int floor_put(int obj, int key, void *val)
{
    if ((unsigned)obj >= FLOOR_OBJS || (unsigned)key >= FLOOR_KEYS)
        return 13;
    floor_table[obj * FLOOR_KEYS + key] = val;
    return 0;
}

int floor_get(int obj, int key, void *out, int *flag)
{
    if (out == NULL || flag == NULL)
        return 13; /* like MPI_ERR_ARG */
    if ((unsigned)obj >= FLOOR_OBJS)
        return 5; /* like MPI_ERR_COMM */
    if ((unsigned)key >= FLOOR_KEYS) {
        *flag = 0;
        return 0;
    }
    *(void **)out = floor_table[obj * FLOOR_KEYS + key];
    *flag = 1;
    return 0;
}
