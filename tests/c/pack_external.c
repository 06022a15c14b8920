/* MPI_Pack_external / MPI_Unpack_external / MPI_Pack_external_size and their _c forms
 * (MPI 4.1 §5.2.3) in the "external32" representation (§14.5.2): big-endian, IEEE, with the
 * sizes of the standard's table. Every packed image is compared byte by byte. */
#include <mpi.h>
#include <stddef.h>
#include <string.h>
#include "check.h"

static int cls(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

static int same(const unsigned char *got, const unsigned char *want, int n)
{
    int ok = memcmp(got, want, n) == 0;
    if (!ok) {
        printf("    got ");
        for (int i = 0; i < n; i++)
            printf("%02x", got[i]);
        printf("\n    want ");
        for (int i = 0; i < n; i++)
            printf("%02x", want[i]);
        printf("\n");
    }
    return ok;
}

static MPI_Aint ext_size(int count, MPI_Datatype t)
{
    MPI_Aint n = -1;
    MPI_Pack_external_size("external32", count, t, &n);
    return n;
}

int main(int argc, char **argv)
{
    unsigned char buf[256];
    MPI_Aint pos;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* §14.5.2's table: sizes in external32, not the host's. */
    CHECK_EQ((int)ext_size(1, MPI_INT), 4, "MPI 4.1 §14.5.2: MPI_INT is 4 bytes in external32");
    CHECK_EQ((int)ext_size(1, MPI_LONG), 4, "MPI 4.1 §14.5.2: MPI_LONG is 4 bytes in external32");
    CHECK_EQ((int)ext_size(1, MPI_UNSIGNED_LONG), 4,
             "MPI 4.1 §14.5.2: MPI_UNSIGNED_LONG is 4 bytes in external32");
    CHECK_EQ((int)ext_size(1, MPI_LONG_LONG), 8, "MPI 4.1 §14.5.2: MPI_LONG_LONG is 8 bytes");
    CHECK_EQ((int)ext_size(1, MPI_WCHAR), 2, "MPI 4.1 §14.5.2: MPI_WCHAR is 2 bytes");
    CHECK_EQ((int)ext_size(1, MPI_LONG_DOUBLE), 16, "MPI 4.1 §14.5.2: MPI_LONG_DOUBLE is 16 bytes");
    CHECK_EQ((int)ext_size(1, MPI_C_BOOL), 1, "MPI 4.1 §14.5.2: MPI_C_BOOL is 1 byte");
    CHECK_EQ((int)ext_size(1, MPI_AINT), 8, "MPI 4.1 §14.5.2: MPI_AINT is 8 bytes");
    CHECK_EQ((int)ext_size(1, MPI_DOUBLE_COMPLEX), 16,
             "MPI 4.1 §14.5.2: MPI_DOUBLE_COMPLEX is 2*8 bytes");
    CHECK_EQ((int)ext_size(1, MPI_LONG_INT), 8,
             "MPI 4.1 §14.5.2: MPI_LONG_INT is a 4-byte long and a 4-byte int, no padding");
    CHECK_EQ((int)ext_size(3, MPI_SHORT), 6, "MPI 4.1 §5.2.3: the size of incount elements");
    {
        MPI_Count n = -1;
        MPI_Pack_external_size_c("external32", 3, MPI_LONG, &n);
        CHECK(n == 12, "MPI 4.1 §5.2.3: MPI_Pack_external_size_c");
    }

    /* Integers and reals big-endian. */
    {
        int v[2] = {1, -2};
        const unsigned char want[8] = {0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe};
        int back[2] = {0, 0};
        pos = 0;
        CHECK_EQ(MPI_Pack_external("external32", v, 2, MPI_INT, buf, sizeof buf, &pos),
                 MPI_SUCCESS, "MPI 4.1 §5.2.3: MPI_Pack_external");
        CHECK(pos == 8 && same(buf, want, 8), "MPI 4.1 §14.5.2: MPI_INT big-endian two's complement");
        pos = 0;
        CHECK_EQ(MPI_Unpack_external("external32", buf, 8, &pos, back, 2, MPI_INT), MPI_SUCCESS,
                 "MPI 4.1 §5.2.3: MPI_Unpack_external");
        CHECK(pos == 8 && back[0] == 1 && back[1] == -2, "MPI 4.1 §5.2.3: unpack gives the values back");
    }
    {
        double d = 1.0;
        float f = -2.5f;
        short s = 0x0102;
        char c = 'A';
        const unsigned char want[15] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0xc0, 0x20, 0, 0, 1, 2, 'A'};
        pos = 0;
        MPI_Pack_external("external32", &d, 1, MPI_DOUBLE, buf, sizeof buf, &pos);
        MPI_Pack_external("external32", &f, 1, MPI_FLOAT, buf, sizeof buf, &pos);
        MPI_Pack_external("external32", &s, 1, MPI_SHORT, buf, sizeof buf, &pos);
        MPI_Pack_external("external32", &c, 1, MPI_CHAR, buf, sizeof buf, &pos);
        CHECK(pos == 15 && same(buf, want, 15),
              "MPI 4.1 §14.5.2: IEEE double and float big-endian, short, char; appended at position");
    }
    {
        long l[2] = {-2, 7};
        long back[2] = {0, 0};
        const unsigned char want[8] = {0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 7};
        pos = 0;
        MPI_Pack_external("external32", l, 2, MPI_LONG, buf, sizeof buf, &pos);
        CHECK(pos == 8 && same(buf, want, 8), "MPI 4.1 §14.5.2: MPI_LONG as 4 big-endian bytes");
        pos = 0;
        MPI_Unpack_external("external32", buf, 8, &pos, back, 2, MPI_LONG);
        CHECK(back[0] == -2 && back[1] == 7, "MPI 4.1 §14.5.2: MPI_LONG sign-extended back");
    }
    {
        long double x = 1.0L, back = 0;
        unsigned char want[16] = {0x3f, 0xff};
        memset(want + 2, 0, 14);
        pos = 0;
        MPI_Pack_external("external32", &x, 1, MPI_LONG_DOUBLE, buf, sizeof buf, &pos);
        CHECK(pos == 16 && same(buf, want, 16),
              "MPI 4.1 §14.5.2: MPI_LONG_DOUBLE as a 16-byte IEEE quadruple (1.0 = 3fff 0...)");
        pos = 0;
        MPI_Unpack_external("external32", buf, 16, &pos, &back, 1, MPI_LONG_DOUBLE);
        CHECK(back == 1.0L, "MPI 4.1 §14.5.2: MPI_LONG_DOUBLE back");
    }
    {
        struct { long l; int i; } li = {5, 6};
        const unsigned char want[8] = {0, 0, 0, 5, 0, 0, 0, 6};
        pos = 0;
        MPI_Pack_external("external32", &li, 1, MPI_LONG_INT, buf, sizeof buf, &pos);
        CHECK(pos == 8 && same(buf, want, 8), "MPI 4.1 §14.5.2: a pair type without its padding");
    }

    /* A derived type: the typemap in order, each element converted, no padding or gaps. */
    {
        struct rec { char c; double d; int i; } r[2] = {{'x', 1.0, 7}, {'y', -2.0, 256}}, back[2];
        int bl[3] = {1, 1, 1};
        MPI_Aint ds[3] = {offsetof(struct rec, c), offsetof(struct rec, d), offsetof(struct rec, i)};
        MPI_Datatype ts[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT}, t;
        const unsigned char want[26] = {'x', 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7,
                                        'y', 0xc0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0};
        MPI_Type_create_struct(3, bl, ds, ts, &t);
        CHECK_EQ(cls(MPI_Pack_external("external32", r, 2, t, buf, sizeof buf, &pos)), MPI_ERR_TYPE,
                 "MPI 4.1 §5.2.3: the datatype must be committed");
        MPI_Type_commit(&t);
        CHECK_EQ((int)ext_size(2, t), 26, "MPI 4.1 §5.2.3: a struct's external32 size is its data");
        pos = 0;
        MPI_Pack_external("external32", r, 2, t, buf, sizeof buf, &pos);
        CHECK(pos == 26 && same(buf, want, 26), "MPI 4.1 §5.2.3: a struct packed by its typemap");
        memset(back, 0, sizeof back);
        pos = 0;
        MPI_Unpack_external("external32", buf, 26, &pos, back, 2, t);
        CHECK(pos == 26 && back[0].c == 'x' && back[0].d == 1.0 && back[0].i == 7 &&
                  back[1].c == 'y' && back[1].d == -2.0 && back[1].i == 256,
              "MPI 4.1 §5.2.3: unpacked into the struct's fields");
        MPI_Type_free(&t);
    }
    {
        int a[6] = {1, 2, 3, 4, 5, 6}, back[6] = {0, 0, 0, 0, 0, 0};
        MPI_Datatype v;
        const unsigned char want[12] = {0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 5};
        MPI_Type_vector(3, 1, 2, MPI_INT, &v);
        MPI_Type_commit(&v);
        MPI_Count cpos = 0;
        CHECK_EQ(MPI_Pack_external_c("external32", a, 1, v, buf, sizeof buf, &cpos), MPI_SUCCESS,
                 "MPI 4.1 §5.2.3: MPI_Pack_external_c");
        CHECK(cpos == 12 && same(buf, want, 12), "MPI 4.1 §5.2.3: a vector packed element by element");
        cpos = 0;
        CHECK_EQ(MPI_Unpack_external_c("external32", buf, 12, &cpos, back, 1, v), MPI_SUCCESS,
                 "MPI 4.1 §5.2.3: MPI_Unpack_external_c");
        CHECK(cpos == 12 && back[0] == 1 && back[1] == 0 && back[2] == 3 && back[3] == 0 &&
                  back[4] == 5,
              "MPI 4.1 §5.2.3: unpacking writes the typemap's places only");
        MPI_Type_free(&v);
    }

    /* Errors: no state change. */
    {
        int v = 1;
        long big = 1L << 40;
        pos = 3;
        CHECK_EQ(cls(MPI_Pack_external("native", &v, 1, MPI_INT, buf, sizeof buf, &pos)),
                 MPI_ERR_ARG, "MPI 4.1 §5.2.3: \"external32\" is the only datarep");
        CHECK_EQ(cls(MPI_Pack_external_size("big-endian", 1, MPI_INT, &pos)), MPI_ERR_ARG,
                 "MPI 4.1 §5.2.3: MPI_Pack_external_size with another datarep");
        CHECK_EQ(cls(MPI_Pack_external("external32", &v, 1, MPI_INT, buf, 6, &pos)), MPI_ERR_TRUNCATE,
                 "MPI 4.1 §5.2.3: the output buffer must hold the packed data");
        CHECK(pos == 3, "the position does not move on error");
        memset(buf, 0xee, 8);
        pos = 0;
        CHECK_EQ(cls(MPI_Pack_external("external32", &big, 1, MPI_LONG, buf, sizeof buf, &pos)),
                 MPI_ERR_CONVERSION,
                 "MPI 4.1 §14.5.2: a long beyond external32's 4 bytes cannot be converted");
        CHECK(pos == 0 && buf[0] == 0xee, "nothing is written when a value cannot be converted");
        pos = 2;
        CHECK_EQ(cls(MPI_Unpack_external("external32", buf, 4, &pos, &v, 1, MPI_INT)),
                 MPI_ERR_TRUNCATE, "MPI 4.1 §5.2.3: unpacking past the input buffer");
        CHECK_EQ(cls(MPI_Pack_external("external32", &v, -1, MPI_INT, buf, sizeof buf, &pos)),
                 MPI_ERR_COUNT, "MPI 4.1 §5.2.3: a negative count");
    }

    MPI_Finalize();
    return check_summary("pack_external");
}
