/* MPI-IO errors (MPI 4.1 §14.7): the classes of Table 14.4 for bad modes and what the file
 * system says, with no state change; files start with MPI_ERRORS_RETURN whatever
 * MPI_COMM_WORLD has; errors of open go to MPI_FILE_NULL's handler; file error handlers. */
#define _XOPEN_SOURCE 700
#include <mpi.h>
#include "check.h"
#include "io_util.h"

static int class_of(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

static int handler_calls = 0;
static MPI_File handler_file = MPI_FILE_NULL;
static int handler_code = 0;

static void on_error(MPI_File *fh, int *code, ...)
{
    handler_calls++;
    handler_file = *fh;
    handler_code = *code;
}

int main(int argc, char **argv)
{
    char path[128], missing[128], dirpath[128];
    MPI_File fh = MPI_FILE_NULL, fh2 = MPI_FILE_NULL;
    MPI_Status st;
    MPI_Offset pos;
    int rc;

    MPI_Init(&argc, &argv);
    /* MPI_COMM_WORLD keeps MPI_ERRORS_ARE_FATAL: file errors must still return (§14.7). */
    io_make_dir();
    io_path(path, sizeof path, "err.dat");
    io_path(missing, sizeof missing, "missing/none.dat");

    MPI_Errhandler eh;
    MPI_File_get_errhandler(MPI_FILE_NULL, &eh);
    CHECK(eh == MPI_ERRORS_RETURN, "MPI 4.1 §14.7: the default file error handler is MPI_ERRORS_RETURN");
    MPI_Errhandler_free(&eh);

    /* Access modes (§14.2.1). */
    rc = MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    CHECK_EQ(class_of(rc), MPI_ERR_AMODE, "MPI 4.1 §14.2.1: RDONLY with CREATE is erroneous");
    CHECK(fh == MPI_FILE_NULL, "a failed open gives MPI_FILE_NULL");
    CHECK(!io_exists(path), "a failed open creates nothing");
    rc = MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDWR | MPI_MODE_WRONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    CHECK_EQ(class_of(rc), MPI_ERR_AMODE, "MPI 4.1 §14.2.1: exactly one of RDONLY, RDWR, WRONLY");
    rc = MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    CHECK_EQ(class_of(rc), MPI_ERR_AMODE, "MPI 4.1 §14.2.1: one access mode is required");
    rc = MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    CHECK_EQ(class_of(rc), MPI_ERR_AMODE, "MPI 4.1 §14.2.1: RDWR with SEQUENTIAL is erroneous");

    /* What the file system says. */
    rc = MPI_File_open(MPI_COMM_SELF, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK_EQ(class_of(rc), MPI_ERR_NO_SUCH_FILE, "MPI 4.1 §14.7: a file that does not exist");
    rc = MPI_File_delete(missing, MPI_INFO_NULL);
    CHECK_EQ(class_of(rc), MPI_ERR_NO_SUCH_FILE, "MPI 4.1 §14.2.3: deleting a file that does not exist");
    rc = MPI_File_open(MPI_COMM_SELF, "", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK_EQ(class_of(rc), MPI_ERR_BAD_FILE, "MPI 4.1 §14.7: an invalid file name");
    rc = MPI_File_open(MPI_COMM_SELF, io_dir, MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    CHECK_EQ(class_of(rc), MPI_ERR_BAD_FILE, "MPI 4.1 §14.7: a directory is not a file to open read-write");

    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    rc = MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh2);
    CHECK_EQ(class_of(rc), MPI_ERR_FILE_EXISTS, "MPI 4.1 §14.2.1: MPI_MODE_EXCL on an existing file");
    rc = MPI_File_delete(path, MPI_INFO_NULL);
    CHECK_EQ(class_of(rc), MPI_ERR_FILE_IN_USE, "MPI 4.1 §14.2.3: deleting an open file");
    CHECK(io_exists(path), "the open file is not deleted");

    /* Reading a write-only file, writing a read-only one. */
    char buf[8] = {0};
    MPI_File_write(fh, "data", 4, MPI_CHAR, &st);
    rc = MPI_File_read_at(fh, 0, buf, 4, MPI_CHAR, &st);
    CHECK_EQ(class_of(rc), MPI_ERR_ACCESS, "MPI 4.1 §14.7: reading a file opened MPI_MODE_WRONLY");
    MPI_File_close(&fh);
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    rc = MPI_File_write(fh, "more", 4, MPI_CHAR, &st);
    CHECK_EQ(class_of(rc), MPI_ERR_READ_ONLY, "MPI 4.1 §14.7: writing a file opened MPI_MODE_RDONLY");
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 0, "no state change: the pointer did not move");
    rc = MPI_File_set_size(fh, 0);
    CHECK_EQ(class_of(rc), MPI_ERR_READ_ONLY, "MPI 4.1 §14.7: resizing a read-only file");
    MPI_Offset size = 0;
    MPI_File_get_size(fh, &size);
    CHECK(size == 4, "no state change: the size is kept");

    /* Bad arguments. */
    rc = MPI_File_seek(fh, 0, 12345);
    CHECK_EQ(class_of(rc), MPI_ERR_ARG, "MPI 4.1 §14.4.3: an unknown whence");
    rc = MPI_File_seek(fh, -1, MPI_SEEK_SET);
    CHECK_EQ(class_of(rc), MPI_ERR_ARG, "MPI 4.1 §14.4.3: a negative position");
    rc = MPI_File_read_at(fh, -4, buf, 1, MPI_CHAR, &st);
    CHECK_EQ(class_of(rc), MPI_ERR_ARG, "MPI 4.1 §14.4.2: a negative offset");
    rc = MPI_File_read(fh, buf, -1, MPI_CHAR, &st);
    CHECK_EQ(class_of(rc), MPI_ERR_COUNT, "MPI 4.1 §14.4: a negative count");
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_CHAR, &uncommitted);
    rc = MPI_File_read(fh, buf, 1, uncommitted, &st);
    CHECK_EQ(class_of(rc), MPI_ERR_TYPE, "MPI 4.1 §14.4: an uncommitted datatype");
    rc = MPI_File_set_view(fh, 0, MPI_CHAR, uncommitted, "native", MPI_INFO_NULL);
    CHECK_EQ(class_of(rc), MPI_ERR_TYPE, "MPI 4.1 §14.3: an uncommitted filetype");
    MPI_Type_free(&uncommitted);
    rc = MPI_File_set_view(fh, -8, MPI_CHAR, MPI_CHAR, "native", MPI_INFO_NULL);
    CHECK_EQ(class_of(rc), MPI_ERR_ARG, "MPI 4.1 §14.3: a negative displacement");

    /* Split collectives: one at a time, ends match begins (§14.4.5). */
    MPI_File_read_all_begin(fh, buf, 2, MPI_CHAR);
    rc = MPI_File_read_at_all_begin(fh, 0, buf, 2, MPI_CHAR);
    CHECK(rc != MPI_SUCCESS, "MPI 4.1 §14.4.5: one split collective at a time per file");
    rc = MPI_File_read_at_all_end(fh, buf, &st);
    CHECK(rc != MPI_SUCCESS, "MPI 4.1 §14.4.5: an _end matches its _begin");
    CHECK_EQ(MPI_File_read_all_end(fh, buf, &st), MPI_SUCCESS, "MPI 4.1 §14.4.5: the matching _end");
    rc = MPI_File_read_all_end(fh, buf, &st);
    CHECK(rc != MPI_SUCCESS, "MPI 4.1 §14.4.5: an _end with no _begin");

    /* File error handlers (§14.7). */
    MPI_Errhandler mine;
    MPI_File_create_errhandler(on_error, &mine);
    /* (All file checks above ran with MPI_COMM_SELF's MPI_ERRORS_ARE_FATAL.) */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    rc = MPI_Comm_set_errhandler(MPI_COMM_SELF, mine);
    CHECK(rc != MPI_SUCCESS, "MPI 4.1 §9.3: a file error handler is not a communicator's");
    MPI_File_set_errhandler(fh, mine);
    rc = MPI_File_write(fh, "x", 1, MPI_CHAR, &st);
    CHECK(handler_calls == 1 && handler_file == fh && class_of(handler_code) == MPI_ERR_READ_ONLY,
          "MPI 4.1 §14.7: the file's handler is called with the file and the code");
    CHECK_EQ(class_of(rc), MPI_ERR_READ_ONLY, "the call returns the code after the handler");
    MPI_File_call_errhandler(fh, MPI_ERR_IO);
    CHECK(handler_calls == 2 && handler_code == MPI_ERR_IO, "MPI 4.1 §9.3.4: MPI_File_call_errhandler");
    MPI_Errhandler got_eh;
    MPI_File_get_errhandler(fh, &got_eh);
    CHECK(got_eh == mine, "MPI 4.1 §9.3.4: get_errhandler returns the file's handler");
    MPI_Errhandler_free(&got_eh);

    /* MPI_FILE_NULL's handler handles open's errors, and new files start with it. */
    MPI_File_set_errhandler(MPI_FILE_NULL, mine);
    rc = MPI_File_open(MPI_COMM_SELF, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh2);
    CHECK(handler_calls == 3 && handler_file == MPI_FILE_NULL,
          "MPI 4.1 §14.7: errors of open go to MPI_FILE_NULL's handler");
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh2);
    MPI_File_get_errhandler(fh2, &got_eh);
    CHECK(got_eh == mine, "MPI 4.1 §14.7: a new file starts with MPI_FILE_NULL's handler");
    MPI_Errhandler_free(&got_eh);
    MPI_File_close(&fh2);
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&mine);

    MPI_File_close(&fh);
    rc = MPI_File_close(&fh);
    CHECK_EQ(class_of(rc), MPI_ERR_FILE, "MPI 4.1 §14.7: closing MPI_FILE_NULL");
    MPI_File stale = fh;
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &stale);
    MPI_File keep = stale;
    MPI_File_close(&stale);
    rc = MPI_File_get_size(keep, &size);
    CHECK_EQ(class_of(rc), MPI_ERR_FILE, "MPI 4.1 §14.7: a closed file's handle is invalid");

    io_path(dirpath, sizeof dirpath, "err.dat");
    unlink(dirpath);
    rmdir(io_dir);
    MPI_Finalize();
    return check_summary("io_errors");
}
