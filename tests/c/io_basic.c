/* MPI-IO basics (MPI 4.1 §14.2, §14.4): open, close, delete, sizes, mode, group, info,
 * explicit offsets, the individual file pointer, nonblocking and split collective forms, the
 * _c forms, and statuses that count elements. File contents are checked byte by byte with
 * stdio. */
#define _XOPEN_SOURCE 700
#include <mpi.h>
#include "check.h"
#include "io_util.h"

int main(int argc, char **argv)
{
    char path[128], path2[128];
    unsigned char raw[256];
    MPI_File fh;
    MPI_Status st;
    int count, i;

    MPI_Init(&argc, &argv);
    io_make_dir();
    io_path(path, sizeof path, "basic.dat");

    /* §14.2.1: MPI_MODE_CREATE makes the file; it starts empty. */
    CHECK_EQ(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                           &fh), MPI_SUCCESS, "MPI 4.1 §14.2.1: open with MPI_MODE_CREATE");
    CHECK(fh != MPI_FILE_NULL, "MPI 4.1 §14.2.1: open returns a file handle");
    CHECK(io_exists(path), "MPI 4.1 §14.2.1: MPI_MODE_CREATE creates the file");
    MPI_Offset size = -1;
    MPI_File_get_size(fh, &size);
    CHECK(size == 0, "MPI 4.1 §14.2.6: a new file has size 0");

    int amode = 0;
    MPI_File_get_amode(fh, &amode);
    CHECK_EQ(amode, MPI_MODE_CREATE | MPI_MODE_RDWR, "MPI 4.1 §14.2.7: get_amode returns the open mode");

    MPI_Group g, wg;
    int cmp;
    MPI_File_get_group(fh, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    CHECK_EQ(cmp, MPI_IDENT, "MPI 4.1 §14.2.7: the file's group is the communicator's");
    MPI_Group_free(&g);
    MPI_Group_free(&wg);

    /* §14.4.2: explicit offsets, in etypes of the default view (bytes). */
    int w[4] = {0x01020304, 0x05060708, 0x090a0b0c, 0x0d0e0f10};
    CHECK_EQ(MPI_File_write_at(fh, 8, w, 4, MPI_INT, &st), MPI_SUCCESS, "MPI 4.1 §14.4.2: write_at");
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK_EQ(count, 4, "MPI 4.1 §14.4.1: the status counts the elements written");
    MPI_File_sync(fh);
    long got = io_slurp(path, raw, sizeof raw);
    CHECK(got == 24, "MPI 4.1 §14.4.2: the file grows to offset + data");
    int zeros = 1;
    for (i = 0; i < 8; i++)
        zeros &= raw[i] == 0;
    CHECK(zeros, "the bytes before the offset read as zeros (a hole)");
    CHECK(memcmp(raw + 8, w, sizeof w) == 0, "MPI 4.1 §14.4.2: the data lands at byte 8, byte for byte");

    int r[4] = {0};
    MPI_File_read_at(fh, 12, r, 2, MPI_INT, &st);
    CHECK(r[0] == w[1] && r[1] == w[2], "MPI 4.1 §14.4.2: read_at reads what is at the offset");

    /* Reading past the end: fewer elements, as many as there were. */
    memset(r, 0, sizeof r);
    MPI_File_read_at(fh, 16, r, 4, MPI_INT, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK_EQ(count, 2, "MPI 4.1 §14.4.1: a read at the end of file counts what it read");
    CHECK(r[0] == w[2] && r[1] == w[3] && r[2] == 0, "MPI 4.1 §14.4.1: only existing data is read");
    MPI_File_read_at(fh, 100, r, 4, MPI_INT, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK_EQ(count, 0, "MPI 4.1 §14.4.1: a read beyond the end reads nothing");

    /* §14.4.3: the individual file pointer moves by what was accessed. */
    MPI_Offset pos = -1;
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 0, "MPI 4.1 §14.4.3: explicit-offset routines leave the pointer alone");
    char text[] = "hello, file";
    MPI_File_write(fh, text, 5, MPI_CHAR, &st);
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 5, "MPI 4.1 §14.4.3: the pointer moves past what was written");
    MPI_File_seek(fh, 0, MPI_SEEK_SET);
    char back[16] = {0};
    MPI_File_read(fh, back, 5, MPI_CHAR, &st);
    CHECK(memcmp(back, "hello", 5) == 0, "MPI 4.1 §14.4.3: read at the individual pointer");
    MPI_File_seek(fh, -2, MPI_SEEK_CUR);
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 3, "MPI 4.1 §14.4.3: MPI_SEEK_CUR moves relative to the pointer");
    MPI_File_seek(fh, -4, MPI_SEEK_END);
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 20, "MPI 4.1 §14.4.3: MPI_SEEK_END moves relative to the end of file");
    MPI_Offset byte = -1;
    MPI_File_get_byte_offset(fh, 7, &byte);
    CHECK(byte == 7, "MPI 4.1 §14.4.3: with the default view a byte offset is the offset");

    /* Collective forms: with one process they do what the independent ones do. */
    MPI_File_seek(fh, 0, MPI_SEEK_SET);
    MPI_File_write_all(fh, text, 3, MPI_CHAR, &st);
    MPI_File_write_at_all(fh, 3, "XY", 2, MPI_CHAR, &st);
    got = io_slurp(path, raw, sizeof raw);
    CHECK(memcmp(raw, "helXY", 5) == 0, "MPI 4.1 §14.4.2, §14.4.3: collective writes");

    /* Nonblocking forms (§14.4.2): complete through MPI_Wait with the count. */
    MPI_Request req;
    int nb[2] = {41, 42}, nr[2] = {0, 0};
    MPI_File_iwrite_at(fh, 40, nb, 2, MPI_INT, &req);
    MPI_Wait(&req, &st);
    CHECK(req == MPI_REQUEST_NULL, "MPI 4.1 §3.7.3: the completed request is freed");
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK_EQ(count, 2, "MPI 4.1 §14.4.2: the nonblocking write's status counts its elements");
    MPI_File_iread_at(fh, 40, nr, 2, MPI_INT, &req);
    MPI_Wait(&req, &st);
    CHECK(nr[0] == 41 && nr[1] == 42, "MPI 4.1 §14.4.2: iread_at reads the data");
    MPI_File_seek(fh, 40, MPI_SEEK_SET);
    nr[0] = nr[1] = 0;
    MPI_File_iread(fh, nr, 2, MPI_INT, &req);
    int flag = 0;
    MPI_Test(&req, &flag, &st);
    CHECK(flag && nr[1] == 42, "MPI 4.1 §14.4.3: iread at the individual pointer completes");
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 48, "MPI 4.1 §14.4.3: a nonblocking access moves the pointer when it starts");

    /* Split collectives (§14.4.5). */
    nr[0] = nr[1] = 0;
    MPI_File_read_at_all_begin(fh, 40, nr, 2, MPI_INT);
    CHECK_EQ(MPI_File_read_at_all_end(fh, nr, &st), MPI_SUCCESS, "MPI 4.1 §14.4.5: _end of a _begin");
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 2 && nr[0] == 41, "MPI 4.1 §14.4.5: the _end's status counts the _begin's data");
    MPI_File_seek(fh, 0, MPI_SEEK_SET);
    MPI_File_write_all_begin(fh, "ab", 2, MPI_CHAR);
    MPI_File_write_all_end(fh, "ab", &st);
    got = io_slurp(path, raw, sizeof raw);
    CHECK(raw[0] == 'a' && raw[1] == 'b', "MPI 4.1 §14.4.5: split collective write");

    /* _c forms take MPI_Count. */
    MPI_Count cc = 0;
    MPI_File_write_at_c(fh, 60, w, (MPI_Count)4, MPI_INT, &st);
    MPI_Get_count_c(&st, MPI_INT, &cc);
    CHECK(cc == 4, "MPI 4.1 §14.4.2: the _c form writes MPI_Count elements");
    MPI_Aint ext = 0;
    MPI_File_get_type_extent(fh, MPI_DOUBLE, &ext);
    CHECK(ext == sizeof(double), "MPI 4.1 §14.5.1: a native type's file extent is its extent");

    /* §14.2.4, §14.2.5: set_size truncates or extends, preallocate never shrinks. */
    MPI_File_set_size(fh, 10);
    MPI_File_get_size(fh, &size);
    CHECK(size == 10, "MPI 4.1 §14.2.4: set_size truncates");
    CHECK(io_slurp(path, raw, sizeof raw) == 10, "MPI 4.1 §14.2.4: the file on disk is truncated");
    MPI_File_preallocate(fh, 4);
    MPI_File_get_size(fh, &size);
    CHECK(size == 10, "MPI 4.1 §14.2.5: preallocate does not shrink");
    MPI_File_preallocate(fh, 100);
    MPI_File_get_size(fh, &size);
    CHECK(size == 100, "MPI 4.1 §14.2.5: preallocate extends to the size");
    got = io_slurp(path, raw, sizeof raw);
    CHECK(raw[0] == 'a' && raw[1] == 'b' && raw[99] == 0, "MPI 4.1 §14.2.5: data is kept, new bytes are zero");

    /* §14.2.8: hints given are reported back. */
    MPI_Info info, used;
    MPI_Info_create(&info);
    MPI_Info_set(info, "access_style", "read_mostly");
    MPI_File_set_info(fh, info);
    MPI_File_get_info(fh, &used);
    char val[MPI_MAX_INFO_VAL];
    int vflag = 0, vlen = MPI_MAX_INFO_VAL;
    MPI_Info_get_string(used, "access_style", &vlen, val, &vflag);
    CHECK(vflag && strcmp(val, "read_mostly") == 0, "MPI 4.1 §14.2.8: get_info returns the hints in use");
    MPI_Info_free(&info);
    MPI_Info_free(&used);

    /* §14.6.1: atomicity is kept as set. */
    int atom = -1;
    MPI_File_get_atomicity(fh, &atom);
    CHECK(atom == 0, "MPI 4.1 §14.6.1: files open in nonatomic mode");
    MPI_File_set_atomicity(fh, 1);
    MPI_File_get_atomicity(fh, &atom);
    CHECK(atom == 1, "MPI 4.1 §14.6.1: set_atomicity sets the mode");

    /* §17.2.4: Fortran handle conversion. */
    MPI_Fint ff = MPI_File_c2f(fh);
    CHECK(MPI_File_f2c(ff) == fh, "MPI 4.1 §19.3.4: f2c(c2f(fh)) is fh");

    CHECK_EQ(MPI_File_close(&fh), MPI_SUCCESS, "MPI 4.1 §14.2.2: close");
    CHECK(fh == MPI_FILE_NULL, "MPI 4.1 §14.2.2: close sets the handle to MPI_FILE_NULL");
    CHECK(MPI_File_f2c(ff) == MPI_FILE_NULL, "a closed file's Fortran handle converts to MPI_FILE_NULL");

    /* §14.2.1: MPI_MODE_APPEND puts the pointers at the end. */
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_WRONLY | MPI_MODE_APPEND, MPI_INFO_NULL, &fh);
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 100, "MPI 4.1 §14.2.1: MPI_MODE_APPEND sets the initial pointer to the end");
    MPI_File_write(fh, "Z", 1, MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    got = io_slurp(path, raw, sizeof raw);
    CHECK(got == 101 && raw[100] == 'Z', "MPI 4.1 §14.2.1: appended data lands at the end");

    /* §14.2.3: delete. */
    CHECK_EQ(MPI_File_delete(path, MPI_INFO_NULL), MPI_SUCCESS, "MPI 4.1 §14.2.3: delete");
    CHECK(!io_exists(path), "MPI 4.1 §14.2.3: the file is gone");

    /* §14.2.1: MPI_MODE_DELETE_ON_CLOSE. */
    io_path(path2, sizeof path2, "doc.dat");
    MPI_File_open(MPI_COMM_SELF, path2, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE,
                  MPI_INFO_NULL, &fh);
    MPI_File_write(fh, "x", 1, MPI_CHAR, MPI_STATUS_IGNORE);
    CHECK(io_exists(path2), "the file exists while open");
    MPI_File_close(&fh);
    CHECK(!io_exists(path2), "MPI 4.1 §14.2.1: MPI_MODE_DELETE_ON_CLOSE deletes on close");

    rmdir(io_dir);
    MPI_Finalize();
    return check_summary("io_basic");
}
