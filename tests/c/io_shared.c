/* The shared file pointer (MPI 4.1 §14.4.4) and MPI_MODE_SEQUENTIAL (§14.2.1): with one
 * process the shared pointer is moved by this process alone, separately from the individual
 * pointer; ordered accesses go in rank order (one rank). */
#define _XOPEN_SOURCE 700
#include <mpi.h>
#include "check.h"
#include "io_util.h"

int main(int argc, char **argv)
{
    char path[128];
    unsigned char raw[64];
    MPI_File fh;
    MPI_Status st;
    MPI_Offset pos;
    MPI_Request req;
    int count, cls, rc;

    MPI_Init(&argc, &argv);
    io_make_dir();
    io_path(path, sizeof path, "shared.dat");

    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_File_write_shared(fh, "abcd", 4, MPI_CHAR, &st);
    MPI_File_get_position_shared(fh, &pos);
    CHECK(pos == 4, "MPI 4.1 §14.4.4: the shared pointer moves past what was written");
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 0, "MPI 4.1 §14.4.4: the individual pointer is separate from the shared one");
    MPI_File_write_ordered(fh, "efgh", 4, MPI_CHAR, &st);
    MPI_Get_count(&st, MPI_CHAR, &count);
    CHECK_EQ(count, 4, "MPI 4.1 §14.4.4: write_ordered's status counts the elements");
    MPI_File_iwrite_shared(fh, "ij", 2, MPI_CHAR, &req);
    MPI_Wait(&req, &st);
    MPI_File_write_ordered_begin(fh, "kl", 2, MPI_CHAR);
    MPI_File_write_ordered_end(fh, "kl", &st);
    long got = io_slurp(path, raw, sizeof raw);
    CHECK(got == 12 && memcmp(raw, "abcdefghijkl", 12) == 0,
          "MPI 4.1 §14.4.4: shared-pointer writes follow each other in the file");

    MPI_File_seek_shared(fh, 2, MPI_SEEK_SET);
    char r[8] = {0};
    MPI_File_read_shared(fh, r, 3, MPI_CHAR, &st);
    CHECK(memcmp(r, "cde", 3) == 0, "MPI 4.1 §14.4.4: seek_shared then read_shared");
    MPI_File_read_ordered(fh, r, 2, MPI_CHAR, &st);
    CHECK(memcmp(r, "fg", 2) == 0, "MPI 4.1 §14.4.4: read_ordered continues at the shared pointer");
    MPI_File_iread_shared(fh, r, 2, MPI_CHAR, &req);
    MPI_Wait(&req, &st);
    CHECK(memcmp(r, "hi", 2) == 0, "MPI 4.1 §14.4.4: iread_shared");
    MPI_File_read_ordered_begin(fh, r, 2, MPI_CHAR);
    MPI_File_read_ordered_end(fh, r, &st);
    CHECK(memcmp(r, "jk", 2) == 0, "MPI 4.1 §14.4.5: split ordered read");
    MPI_File_seek_shared(fh, -1, MPI_SEEK_END);
    MPI_File_get_position_shared(fh, &pos);
    CHECK(pos == 11, "MPI 4.1 §14.4.4: seek_shared from the end");
    MPI_File_close(&fh);

    /* §14.2.1: MPI_MODE_SEQUENTIAL files are accessed through the shared pointer only. */
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL | MPI_MODE_APPEND,
                  MPI_INFO_NULL, &fh);
    rc = MPI_File_write_at(fh, 0, "z", 1, MPI_CHAR, &st);
    MPI_Error_class(rc, &cls);
    CHECK_EQ(cls, MPI_ERR_UNSUPPORTED_OPERATION,
             "MPI 4.1 §14.2.1: no explicit offsets on a sequential file");
    rc = MPI_File_write(fh, "z", 1, MPI_CHAR, &st);
    MPI_Error_class(rc, &cls);
    CHECK_EQ(cls, MPI_ERR_UNSUPPORTED_OPERATION,
             "MPI 4.1 §14.2.1: no individual pointer on a sequential file");
    CHECK_EQ(MPI_File_write_shared(fh, "z", 1, MPI_CHAR, &st), MPI_SUCCESS,
             "MPI 4.1 §14.2.1: the shared pointer works on a sequential file");
    /* MPI_DISPLACEMENT_CURRENT: the view starts at the shared pointer (§14.3). */
    CHECK_EQ(MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_BYTE, MPI_BYTE, "native",
                               MPI_INFO_NULL), MPI_SUCCESS,
             "MPI 4.1 §14.3: MPI_DISPLACEMENT_CURRENT on a sequential file");
    MPI_File_write_shared(fh, "!", 1, MPI_CHAR, &st);
    MPI_File_close(&fh);
    got = io_slurp(path, raw, sizeof raw);
    CHECK(got == 14 && raw[12] == 'z' && raw[13] == '!',
          "MPI 4.1 §14.3: the view from the current position appends after the data");

    unlink(path);
    rmdir(io_dir);
    MPI_Finalize();
    return check_summary("io_shared");
}
