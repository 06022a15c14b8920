/* File views (MPI 4.1 §14.3, §14.5): displacement, etype and a filetype with holes; data goes
 * through the filetype's typemap and the holes keep their bytes. Also get_view, byte offsets,
 * seek in etypes, and the data representations. */
#define _XOPEN_SOURCE 700
#include <mpi.h>
#include "check.h"
#include "io_util.h"

static int extent_fn(MPI_Datatype datatype, MPI_Aint *extent, void *extra_state)
{
    (void)extra_state;
    MPI_Aint lb;
    return MPI_Type_get_extent(datatype, &lb, extent);
}

int main(int argc, char **argv)
{
    char path[128];
    unsigned char raw[256], pre[256];
    MPI_File fh;
    MPI_Status st;
    MPI_Datatype vec, et, ft;
    int i, count;

    MPI_Init(&argc, &argv);
    io_make_dir();
    io_path(path, sizeof path, "view.dat");
    for (i = 0; i < 256; i++)
        pre[i] = 0xAA;
    io_spit(path, pre, 128);

    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    /* Filetype: 2 ints of data then a 1-int hole (vector of 1 block of 2, extent 3 ints). */
    MPI_Datatype two;
    MPI_Type_contiguous(2, MPI_INT, &two);
    MPI_Type_create_resized(two, 0, 3 * sizeof(int), &vec);
    MPI_Type_commit(&vec);
    MPI_Type_free(&two);
    CHECK_EQ(MPI_File_set_view(fh, 4, MPI_INT, vec, "native", MPI_INFO_NULL), MPI_SUCCESS,
             "MPI 4.1 §14.3: set_view with a filetype of ints with holes");
    /* The program may free its filetype: the view keeps its own. */
    MPI_Type_free(&vec);

    int w[6] = {10, 11, 12, 13, 14, 15};
    MPI_File_write(fh, w, 6, MPI_INT, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK_EQ(count, 6, "MPI 4.1 §14.4.1: the status counts the elements written");
    io_slurp(path, raw, sizeof raw);
    /* Layout from byte 4: [10 11] hole [12 13] hole [14 15]. */
    int ok = 1;
    const int at[6] = {4, 8, 16, 20, 28, 32};
    for (i = 0; i < 6; i++) {
        int v;
        memcpy(&v, raw + at[i], sizeof v);
        ok &= v == w[i];
    }
    CHECK(ok, "MPI 4.1 §14.3: data goes where the tiled filetype has data, from the displacement");
    ok = 1;
    for (i = 0; i < 4; i++)
        ok &= raw[i] == 0xAA && raw[12 + i] == 0xAA && raw[24 + i] == 0xAA && raw[36 + i] == 0xAA;
    CHECK(ok, "MPI 4.1 §14.3: the displacement and the holes keep their bytes");

    MPI_Offset pos = -1, byte = -1;
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 6, "MPI 4.1 §14.4.3: the pointer counts etypes of the view");
    MPI_File_get_byte_offset(fh, 3, &byte);
    CHECK(byte == 20, "MPI 4.1 §14.4.3: get_byte_offset maps a view offset to the file byte");

    /* Read back through the view, with a memory type with a hole (stride 2). */
    MPI_Datatype mem;
    MPI_Type_vector(3, 1, 2, MPI_INT, &mem);
    MPI_Type_commit(&mem);
    int r[6] = {-1, -1, -1, -1, -1, -1};
    MPI_File_read_at(fh, 1, r, 1, mem, &st);
    CHECK(r[0] == 11 && r[1] == -1 && r[2] == 12 && r[3] == -1 && r[4] == 13,
          "MPI 4.1 §14.4.2: a read fills the memory type's typemap from the view");
    MPI_Get_count(&st, mem, &count);
    CHECK_EQ(count, 1, "MPI 4.1 §14.4.1: the count is in elements of the memory type");
    MPI_Get_elements(&st, mem, &count);
    CHECK_EQ(count, 3, "MPI 4.1 §5.1.11: get_elements counts the basic elements");
    MPI_Type_free(&mem);

    /* MPI_SEEK_END in etypes: the file has 128 bytes; view data below it: from byte 4,
     * 124 bytes = 10 whole filetypes (12 bytes, 8 of data) + 4 bytes = 80 + 4 data bytes. */
    MPI_File_seek(fh, 0, MPI_SEEK_END);
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 21, "MPI 4.1 §14.4.3: MPI_SEEK_END counts the view's etypes in the file");

    /* get_view: derived types come back as new handles the caller frees (§14.3). */
    MPI_Offset disp = -1;
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_File_get_view(fh, &disp, &et, &ft, rep);
    CHECK(disp == 4 && et == MPI_INT && strcmp(rep, "native") == 0,
          "MPI 4.1 §14.3: get_view returns displacement, etype and datarep");
    MPI_Aint lb, ext;
    MPI_Type_get_extent(ft, &lb, &ext);
    CHECK(ext == 3 * (MPI_Aint)sizeof(int), "MPI 4.1 §14.3: get_view's filetype has the filetype's extent");
    CHECK_EQ(MPI_Type_free(&ft), MPI_SUCCESS, "MPI 4.1 §14.3: get_view's derived filetype is the caller's to free");

    /* Datareps (§14.5): "internal" is accepted; external32 is refused honestly. */
    CHECK_EQ(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "internal", MPI_INFO_NULL), MPI_SUCCESS,
             "MPI 4.1 §14.5.2: \"internal\" is a data representation");
    int rc = MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "external32", MPI_INFO_NULL);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK_EQ(cls, MPI_ERR_UNSUPPORTED_DATAREP, "MPI 4.1 §14.7: an unsupported datarep");
    rc = MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "no-such-rep", MPI_INFO_NULL);
    MPI_Error_class(rc, &cls);
    CHECK_EQ(cls, MPI_ERR_UNSUPPORTED_DATAREP, "MPI 4.1 §14.7: an unknown datarep");
    MPI_File_get_view(fh, &disp, &et, &ft, rep);
    CHECK(strcmp(rep, "internal") == 0, "MPI 4.1 §14.7: a failed set_view leaves the view unchanged");

    /* A filetype that is not made of etypes is refused. */
    MPI_Datatype three;
    MPI_Type_contiguous(3, MPI_BYTE, &three);
    MPI_Type_commit(&three);
    rc = MPI_File_set_view(fh, 0, MPI_INT, three, "native", MPI_INFO_NULL);
    MPI_Error_class(rc, &cls);
    CHECK_EQ(cls, MPI_ERR_TYPE, "MPI 4.1 §14.3: the filetype must be made of etypes");
    MPI_Type_free(&three);

    /* A data access that is not whole etypes is refused, nothing moved. */
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    rc = MPI_File_write(fh, "abc", 3, MPI_BYTE, &st);
    MPI_Error_class(rc, &cls);
    CHECK_EQ(cls, MPI_ERR_TYPE, "MPI 4.1 §14.4: the data must be whole etypes");
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 0, "no state change after the refused write");
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    MPI_File_get_view(fh, &disp, &et, &ft, rep);
    CHECK(et == MPI_INT && ft == MPI_INT, "MPI 4.1 §14.3: predefined types come back as themselves");

    /* §14.5.3: MPI_Register_datarep takes a name once. */
    CHECK_EQ(MPI_Register_datarep("mine", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL,
                                  NULL, NULL) != MPI_SUCCESS, 1,
             "MPI 4.1 §14.5.3: the extent function is required");
    CHECK_EQ(MPI_Register_datarep("mine", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL,
                                  extent_fn, NULL), MPI_SUCCESS,
             "MPI 4.1 §14.5.3: a new data representation is registered");
    rc = MPI_Register_datarep("mine", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, extent_fn, NULL);
    MPI_Error_class(rc, &cls);
    CHECK_EQ(cls, MPI_ERR_DUP_DATAREP, "MPI 4.1 §14.5.3: a name is registered once");
    rc = MPI_Register_datarep("native", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, extent_fn, NULL);
    MPI_Error_class(rc, &cls);
    CHECK_EQ(cls, MPI_ERR_DUP_DATAREP, "MPI 4.1 §14.5.3: predefined names are taken");
    MPI_File_close(&fh);

    unlink(path);
    rmdir(io_dir);
    MPI_Finalize();
    return check_summary("io_view");
}
