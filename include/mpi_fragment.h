/* Hand-written part of mpi.h: what cbindgen cannot express. */
#define MPICACHE 1
#define MPICACHE_VERSION "0.1.0"

typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Win;
typedef int MPI_Group;
typedef int MPI_Info;
typedef int MPI_Errhandler;
typedef int MPI_Request;
typedef int MPI_Op;
/* Kinds this library has no objects of: only their null handles exist (MPI_FILE_NULL, ...). */
typedef int MPI_File;
typedef int MPI_Session;
typedef int MPI_Message;
typedef int MPI_Fint;
typedef intptr_t MPI_Aint;
typedef int64_t MPI_Count;
typedef int64_t MPI_Offset;

/* The standard's function types (MPI 4.1 §7.7.2, §9.3). */
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval, void *attribute_val,
                                          void *extra_state);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval,
                                          void *attribute_val, void *extra_state);
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval, void *extra_state,
                                       void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval, void *attribute_val,
                                         void *extra_state);
typedef int MPI_Copy_function(MPI_Comm oldcomm, int keyval, void *extra_state,
                              void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Delete_function(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state);
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *error_code, ...);
typedef void MPI_Win_errhandler_function(MPI_Win *win, int *error_code, ...);
typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);
typedef void MPI_User_function_c(void *invec, void *inoutvec, MPI_Count *len,
                                 MPI_Datatype *datatype);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;

/* Buffer and ignore sentinels (MPI 5.0 ABI values). */
#define MPI_BOTTOM ((void *)0)
#define MPI_IN_PLACE ((void *)1)
#define MPI_BUFFER_AUTOMATIC ((void *)2)
#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)
#define MPI_ERRCODES_IGNORE ((int *)0)
#define MPI_ARGV_NULL ((char **)0)
#define MPI_ARGVS_NULL ((char ***)0)
#define MPI_UNWEIGHTED ((int *)10)
#define MPI_WEIGHTS_EMPTY ((int *)11)

/* MPI_Pcontrol is variadic (MPI 4.1 §15.2.4), which cbindgen cannot write. */
#ifdef __cplusplus
extern "C" {
#endif
int MPI_Pcontrol(const int level, ...);
int PMPI_Pcontrol(const int level, ...);
#ifdef __cplusplus
}
#endif
