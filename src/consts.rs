//! Every numeric constant of the MPI interface, in one place.
//!
//! This module is the single source of truth: cbindgen turns it into the `#define`s of
//! `include/mpi.h`, the Fortran generator turns it into `mpif.h` and the `mpi` module, and the
//! Rust code uses the same names. Every value the MPI 5.0 ABI fixes is the ABI's (MPICH 5.0's
//! `mpi_abi.h`; `tests/programs/abi_constants.rs` compares them all). Only the values are the
//! ABI's: the C types are not (handles are `int` here), so `MPI_ABI_VERSION` is not defined
//! (README, "The MPI 5.0 ABI").
#![allow(non_upper_case_globals)]

// ---- version ---------------------------------------------------------------------------------
pub const MPI_VERSION: i32 = 4;
pub const MPI_SUBVERSION: i32 = 1;

// ---- error classes (MPI 5.0 ABI) ------------------------------------------------------------
pub const MPI_SUCCESS: i32 = 0;
pub const MPI_ERR_BUFFER: i32 = 1;
pub const MPI_ERR_COUNT: i32 = 2;
pub const MPI_ERR_TYPE: i32 = 3;
pub const MPI_ERR_TAG: i32 = 4;
pub const MPI_ERR_COMM: i32 = 5;
pub const MPI_ERR_RANK: i32 = 6;
pub const MPI_ERR_REQUEST: i32 = 7;
pub const MPI_ERR_ROOT: i32 = 8;
pub const MPI_ERR_GROUP: i32 = 9;
pub const MPI_ERR_OP: i32 = 10;
pub const MPI_ERR_TOPOLOGY: i32 = 11;
pub const MPI_ERR_DIMS: i32 = 12;
pub const MPI_ERR_ARG: i32 = 13;
pub const MPI_ERR_UNKNOWN: i32 = 14;
pub const MPI_ERR_TRUNCATE: i32 = 15;
pub const MPI_ERR_OTHER: i32 = 16;
pub const MPI_ERR_INTERN: i32 = 17;
pub const MPI_ERR_PENDING: i32 = 18;
pub const MPI_ERR_IN_STATUS: i32 = 19;
pub const MPI_ERR_ACCESS: i32 = 20;
pub const MPI_ERR_AMODE: i32 = 21;
pub const MPI_ERR_ASSERT: i32 = 22;
pub const MPI_ERR_BAD_FILE: i32 = 23;
pub const MPI_ERR_BASE: i32 = 24;
pub const MPI_ERR_CONVERSION: i32 = 25;
pub const MPI_ERR_DISP: i32 = 26;
pub const MPI_ERR_DUP_DATAREP: i32 = 27;
pub const MPI_ERR_FILE_EXISTS: i32 = 28;
pub const MPI_ERR_FILE_IN_USE: i32 = 29;
pub const MPI_ERR_FILE: i32 = 30;
pub const MPI_ERR_INFO_KEY: i32 = 31;
pub const MPI_ERR_INFO_NOKEY: i32 = 32;
pub const MPI_ERR_INFO_VALUE: i32 = 33;
pub const MPI_ERR_INFO: i32 = 34;
pub const MPI_ERR_IO: i32 = 35;
pub const MPI_ERR_KEYVAL: i32 = 36;
pub const MPI_ERR_LOCKTYPE: i32 = 37;
pub const MPI_ERR_NAME: i32 = 38;
pub const MPI_ERR_NO_MEM: i32 = 39;
pub const MPI_ERR_NOT_SAME: i32 = 40;
pub const MPI_ERR_NO_SPACE: i32 = 41;
pub const MPI_ERR_NO_SUCH_FILE: i32 = 42;
pub const MPI_ERR_PORT: i32 = 43;
pub const MPI_ERR_QUOTA: i32 = 44;
pub const MPI_ERR_READ_ONLY: i32 = 45;
pub const MPI_ERR_RMA_ATTACH: i32 = 46;
pub const MPI_ERR_RMA_CONFLICT: i32 = 47;
pub const MPI_ERR_RMA_RANGE: i32 = 48;
pub const MPI_ERR_RMA_SHARED: i32 = 49;
pub const MPI_ERR_RMA_SYNC: i32 = 50;
pub const MPI_ERR_SERVICE: i32 = 51;
pub const MPI_ERR_SIZE: i32 = 52;
pub const MPI_ERR_SPAWN: i32 = 53;
pub const MPI_ERR_UNSUPPORTED_DATAREP: i32 = 54;
pub const MPI_ERR_UNSUPPORTED_OPERATION: i32 = 55;
pub const MPI_ERR_WIN: i32 = 56;
pub const MPI_ERR_RMA_FLAVOR: i32 = 57;
pub const MPI_ERR_PROC_ABORTED: i32 = 58;
pub const MPI_ERR_VALUE_TOO_LARGE: i32 = 59;
pub const MPI_ERR_SESSION: i32 = 60;
pub const MPI_ERR_ERRHANDLER: i32 = 61;
pub const MPI_ERR_ABI: i32 = 62;
/// Last predefined error code; user classes and codes from `MPI_Add_error_*` come after it.
pub const MPI_ERR_LASTCODE: i32 = 0x3fff;
/// mpicache's own error codes (of class `MPI_ERR_NO_MEM`) for its fixed limits, one per limited
/// kind (`error::Limited`), so `MPI_Error_string` names the limit: below `MPI_ERR_LASTCODE`,
/// above every class. Not in the headers: programs ask `MPI_Error_class`.
pub(crate) const MPICACHE_ERR_LIMIT_BASE: i32 = 0x3f00;

// ---- tool information interface return codes (MPI 5.0 ABI; not error classes) ---------------
pub const MPI_T_ERR_CANNOT_INIT: i32 = 1001;
pub const MPI_T_ERR_NOT_ACCESSIBLE: i32 = 1002;
pub const MPI_T_ERR_NOT_INITIALIZED: i32 = 1003;
pub const MPI_T_ERR_NOT_SUPPORTED: i32 = 1004;
pub const MPI_T_ERR_MEMORY: i32 = 1005;
pub const MPI_T_ERR_INVALID: i32 = 1006;
pub const MPI_T_ERR_INVALID_INDEX: i32 = 1007;
pub const MPI_T_ERR_INVALID_ITEM: i32 = 1008;
pub const MPI_T_ERR_INVALID_SESSION: i32 = 1009;
pub const MPI_T_ERR_INVALID_HANDLE: i32 = 1010;
pub const MPI_T_ERR_INVALID_NAME: i32 = 1011;
pub const MPI_T_ERR_OUT_OF_HANDLES: i32 = 1012;
pub const MPI_T_ERR_OUT_OF_SESSIONS: i32 = 1013;
pub const MPI_T_ERR_CVAR_SET_NOT_NOW: i32 = 1014;
pub const MPI_T_ERR_CVAR_SET_NEVER: i32 = 1015;
pub const MPI_T_ERR_PVAR_NO_WRITE: i32 = 1016;
pub const MPI_T_ERR_PVAR_NO_STARTSTOP: i32 = 1017;
pub const MPI_T_ERR_PVAR_NO_ATOMIC: i32 = 1018;

// ---- tool information interface enumerations and null handles (MPI 5.0 ABI) ----------------
pub const MPI_T_VERBOSITY_USER_BASIC: i32 = 0x09;
pub const MPI_T_VERBOSITY_USER_DETAIL: i32 = 0x0a;
pub const MPI_T_VERBOSITY_USER_ALL: i32 = 0x0c;
pub const MPI_T_VERBOSITY_TUNER_BASIC: i32 = 0x11;
pub const MPI_T_VERBOSITY_TUNER_DETAIL: i32 = 0x12;
pub const MPI_T_VERBOSITY_TUNER_ALL: i32 = 0x14;
pub const MPI_T_VERBOSITY_MPIDEV_BASIC: i32 = 0x21;
pub const MPI_T_VERBOSITY_MPIDEV_DETAIL: i32 = 0x22;
pub const MPI_T_VERBOSITY_MPIDEV_ALL: i32 = 0x24;
pub const MPI_T_BIND_NO_OBJECT: i32 = 1;
pub const MPI_T_BIND_MPI_COMM: i32 = 2;
pub const MPI_T_BIND_MPI_DATATYPE: i32 = 3;
pub const MPI_T_BIND_MPI_ERRHANDLER: i32 = 4;
pub const MPI_T_BIND_MPI_FILE: i32 = 5;
pub const MPI_T_BIND_MPI_GROUP: i32 = 6;
pub const MPI_T_BIND_MPI_OP: i32 = 7;
pub const MPI_T_BIND_MPI_REQUEST: i32 = 8;
pub const MPI_T_BIND_MPI_WIN: i32 = 9;
pub const MPI_T_BIND_MPI_MESSAGE: i32 = 10;
pub const MPI_T_BIND_MPI_INFO: i32 = 11;
pub const MPI_T_BIND_MPI_SESSION: i32 = 12;
pub const MPI_T_SCOPE_CONSTANT: i32 = 1;
pub const MPI_T_SCOPE_READONLY: i32 = 2;
pub const MPI_T_SCOPE_LOCAL: i32 = 3;
pub const MPI_T_SCOPE_GROUP: i32 = 4;
pub const MPI_T_SCOPE_GROUP_EQ: i32 = 5;
pub const MPI_T_SCOPE_ALL: i32 = 6;
pub const MPI_T_SCOPE_ALL_EQ: i32 = 7;
pub const MPI_T_PVAR_CLASS_STATE: i32 = 1;
pub const MPI_T_PVAR_CLASS_LEVEL: i32 = 2;
pub const MPI_T_PVAR_CLASS_SIZE: i32 = 3;
pub const MPI_T_PVAR_CLASS_PERCENTAGE: i32 = 4;
pub const MPI_T_PVAR_CLASS_HIGHWATERMARK: i32 = 5;
pub const MPI_T_PVAR_CLASS_LOWWATERMARK: i32 = 6;
pub const MPI_T_PVAR_CLASS_COUNTER: i32 = 7;
pub const MPI_T_PVAR_CLASS_AGGREGATE: i32 = 8;
pub const MPI_T_PVAR_CLASS_TIMER: i32 = 9;
pub const MPI_T_PVAR_CLASS_GENERIC: i32 = 10;
pub const MPI_T_CB_REQUIRE_NONE: i32 = 0x00;
pub const MPI_T_CB_REQUIRE_MPI_RESTRICTED: i32 = 0x03;
pub const MPI_T_CB_REQUIRE_THREAD_SAFE: i32 = 0x0F;
pub const MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE: i32 = 0x3F;
pub const MPI_T_SOURCE_ORDERED: i32 = 1;
pub const MPI_T_SOURCE_UNORDERED: i32 = 2;
/// The tool interface's handles are `int` here too; their null values are the ABI's 0, and
/// `MPI_T_PVAR_ALL_HANDLES` its 1.
pub const MPI_T_ENUM_NULL: i32 = 0;
pub const MPI_T_CVAR_HANDLE_NULL: i32 = 0;
pub const MPI_T_PVAR_SESSION_NULL: i32 = 0;
pub const MPI_T_PVAR_HANDLE_NULL: i32 = 0;
pub const MPI_T_PVAR_ALL_HANDLES: i32 = 1;

// ---- sentinels -------------------------------------------------------------------------------
pub const MPI_ANY_SOURCE: i32 = -1;
pub const MPI_ANY_TAG: i32 = -2;
pub const MPI_PROC_NULL: i32 = -3;
pub const MPI_ROOT: i32 = -4;
/// 0 in the ABI: no keyval number is 0 (user keyvals carry their kind in bits 28-29, the
/// predefined ones are 501-507 and 601-605), and the store's keyval tables hold a value no
/// number equals in slot 0, so the lock-free readers send it to the checked path.
pub const MPI_KEYVAL_INVALID: i32 = 0;
pub const MPI_UNDEFINED: i32 = -32766;

// ---- thread levels ---------------------------------------------------------------------------
pub const MPI_THREAD_SINGLE: i32 = 0;
pub const MPI_THREAD_FUNNELED: i32 = 1024;
pub const MPI_THREAD_SERIALIZED: i32 = 2048;
pub const MPI_THREAD_MULTIPLE: i32 = 4096;

// ---- comparison results ----------------------------------------------------------------------
pub const MPI_IDENT: i32 = 201;
pub const MPI_CONGRUENT: i32 = 202;
pub const MPI_SIMILAR: i32 = 203;
pub const MPI_UNEQUAL: i32 = 204;

// ---- virtual topology types ------------------------------------------------------------------
pub const MPI_CART: i32 = 211;
pub const MPI_GRAPH: i32 = 212;
pub const MPI_DIST_GRAPH: i32 = 213;

// ---- array orders, windows -------------------------------------------------------------------
pub const MPI_ORDER_C: i32 = 12;
pub const MPI_ORDER_FORTRAN: i32 = 15;
pub const MPI_DISTRIBUTE_NONE: i32 = 16;
pub const MPI_DISTRIBUTE_BLOCK: i32 = 17;
pub const MPI_DISTRIBUTE_CYCLIC: i32 = 18;
pub const MPI_DISTRIBUTE_DFLT_DARG: i32 = 19;
pub const MPI_WIN_UNIFIED: i32 = 321;
pub const MPI_WIN_SEPARATE: i32 = 322;
pub const MPI_WIN_FLAVOR_CREATE: i32 = 311;
pub const MPI_WIN_FLAVOR_ALLOCATE: i32 = 312;
pub const MPI_WIN_FLAVOR_DYNAMIC: i32 = 313;
pub const MPI_WIN_FLAVOR_SHARED: i32 = 314;
pub const MPI_LOCK_EXCLUSIVE: i32 = 301;
pub const MPI_LOCK_SHARED: i32 = 302;

// ---- mode constants (powers of two, to be OR-ed) ---------------------------------------------
pub const MPI_MODE_APPEND: i32 = 1;
pub const MPI_MODE_CREATE: i32 = 2;
pub const MPI_MODE_DELETE_ON_CLOSE: i32 = 4;
pub const MPI_MODE_EXCL: i32 = 8;
pub const MPI_MODE_RDONLY: i32 = 16;
pub const MPI_MODE_RDWR: i32 = 32;
pub const MPI_MODE_SEQUENTIAL: i32 = 64;
pub const MPI_MODE_UNIQUE_OPEN: i32 = 128;
pub const MPI_MODE_WRONLY: i32 = 256;
pub const MPI_MODE_NOCHECK: i32 = 1024;
pub const MPI_MODE_NOPRECEDE: i32 = 2048;
pub const MPI_MODE_NOPUT: i32 = 4096;
pub const MPI_MODE_NOSTORE: i32 = 8192;
pub const MPI_MODE_NOSUCCEED: i32 = 16384;

// ---- file positioning ------------------------------------------------------------------------
pub const MPI_SEEK_CUR: i32 = 401;
pub const MPI_SEEK_END: i32 = 402;
pub const MPI_SEEK_SET: i32 = 403;
/// An `MPI_Offset` (C only: Fortran's is `INTEGER(KIND=MPI_OFFSET_KIND)`).
pub const MPI_DISPLACEMENT_CURRENT: i64 = -1;

// ---- communicator split types ---------------------------------------------------------------
pub const MPI_COMM_TYPE_SHARED: i32 = 221;
pub const MPI_COMM_TYPE_HW_UNGUIDED: i32 = 222;
pub const MPI_COMM_TYPE_HW_GUIDED: i32 = 223;
pub const MPI_COMM_TYPE_RESOURCE_GUIDED: i32 = 224;

// ---- predefined attribute keyvals ------------------------------------------------------------
pub const MPI_TAG_UB: i32 = 501;
pub const MPI_IO: i32 = 502;
pub const MPI_HOST: i32 = 503;
pub const MPI_WTIME_IS_GLOBAL: i32 = 504;
pub const MPI_APPNUM: i32 = 505;
pub const MPI_LASTUSEDCODE: i32 = 506;
pub const MPI_UNIVERSE_SIZE: i32 = 507;
pub const MPI_WIN_BASE: i32 = 601;
pub const MPI_WIN_DISP_UNIT: i32 = 602;
pub const MPI_WIN_SIZE: i32 = 603;
pub const MPI_WIN_CREATE_FLAVOR: i32 = 604;
pub const MPI_WIN_MODEL: i32 = 605;

/// The value `MPI_TAG_UB` reports: the largest tag this library accepts.
pub const TAG_UB_VALUE: i32 = 0x7fff_ffff;

// ---- string lengths --------------------------------------------------------------------------
pub const MPI_MAX_PROCESSOR_NAME: i32 = 256;
pub const MPI_MAX_ERROR_STRING: i32 = 512;
pub const MPI_MAX_OBJECT_NAME: i32 = 128;
pub const MPI_MAX_LIBRARY_VERSION_STRING: i32 = 8192;
pub const MPI_MAX_INFO_KEY: i32 = 256;
pub const MPI_MAX_INFO_VAL: i32 = 1024;
pub const MPI_MAX_PORT_NAME: i32 = 1024;
pub const MPI_MAX_DATAREP_STRING: i32 = 128;
pub const MPI_MAX_STRINGTAG_LEN: i32 = 1024;
pub const MPI_MAX_PSET_NAME_LEN: i32 = 1024;
/// The bytes `MPI_Buffer_attach` users add per buffered message.
pub const MPI_BSEND_OVERHEAD: i32 = 512;

// ---- Fortran kinds and status layout ---------------------------------------------------------
pub const MPI_ADDRESS_KIND: i32 = 8;
pub const MPI_OFFSET_KIND: i32 = 8;
pub const MPI_COUNT_KIND: i32 = 8;
pub const MPI_INTEGER_KIND: i32 = 4;
pub const MPI_F_STATUS_SIZE: i32 = 8;
pub const MPI_F_SOURCE: i32 = 0;
pub const MPI_F_TAG: i32 = 1;
pub const MPI_F_ERROR: i32 = 2;
pub const MPI_STATUS_SIZE: i32 = 8;

// ---- predefined handles (MPI 5.0 ABI values) -------------------------------------------------
pub const MPI_OP_NULL: i32 = 0x20;
pub const MPI_SUM: i32 = 0x21;
pub const MPI_MIN: i32 = 0x22;
pub const MPI_MAX: i32 = 0x23;
pub const MPI_PROD: i32 = 0x24;
pub const MPI_BAND: i32 = 0x28;
pub const MPI_BOR: i32 = 0x29;
pub const MPI_BXOR: i32 = 0x2a;
pub const MPI_LAND: i32 = 0x30;
pub const MPI_LOR: i32 = 0x31;
pub const MPI_LXOR: i32 = 0x32;
pub const MPI_MINLOC: i32 = 0x38;
pub const MPI_MAXLOC: i32 = 0x39;
pub const MPI_REPLACE: i32 = 0x3c;
pub const MPI_NO_OP: i32 = 0x3d;

pub const MPI_COMM_NULL: i32 = 0x100;
pub const MPI_COMM_WORLD: i32 = 0x101;
pub const MPI_COMM_SELF: i32 = 0x102;
pub const MPI_GROUP_NULL: i32 = 0x108;
pub const MPI_GROUP_EMPTY: i32 = 0x109;
pub const MPI_WIN_NULL: i32 = 0x110;
// Null handles of kinds this library has no objects of (files, sessions, messages); for
// programs that name them.
pub const MPI_FILE_NULL: i32 = 0x118;
pub const MPI_SESSION_NULL: i32 = 0x120;
pub const MPI_MESSAGE_NULL: i32 = 0x128;
pub const MPI_MESSAGE_NO_PROC: i32 = 0x129;
pub const MPI_INFO_NULL: i32 = 0x130;
pub const MPI_INFO_ENV: i32 = 0x131;
pub const MPI_ERRHANDLER_NULL: i32 = 0x140;
pub const MPI_ERRORS_ARE_FATAL: i32 = 0x141;
pub const MPI_ERRORS_ABORT: i32 = 0x142;
pub const MPI_ERRORS_RETURN: i32 = 0x143;
pub const MPI_REQUEST_NULL: i32 = 0x180;

pub const MPI_DATATYPE_NULL: i32 = 0x200;
pub const MPI_AINT: i32 = 0x201;
pub const MPI_COUNT: i32 = 0x202;
pub const MPI_OFFSET: i32 = 0x203;
pub const MPI_PACKED: i32 = 0x207;
pub const MPI_SHORT: i32 = 0x208;
pub const MPI_INT: i32 = 0x209;
pub const MPI_LONG: i32 = 0x20a;
pub const MPI_LONG_LONG: i32 = 0x20b;
pub const MPI_LONG_LONG_INT: i32 = 0x20b;
pub const MPI_UNSIGNED_SHORT: i32 = 0x20c;
pub const MPI_UNSIGNED: i32 = 0x20d;
pub const MPI_UNSIGNED_LONG: i32 = 0x20e;
pub const MPI_UNSIGNED_LONG_LONG: i32 = 0x20f;
pub const MPI_FLOAT: i32 = 0x210;
pub const MPI_C_FLOAT_COMPLEX: i32 = 0x212;
pub const MPI_C_COMPLEX: i32 = 0x212;
pub const MPI_CXX_FLOAT_COMPLEX: i32 = 0x213;
pub const MPI_DOUBLE: i32 = 0x214;
pub const MPI_C_DOUBLE_COMPLEX: i32 = 0x216;
pub const MPI_CXX_DOUBLE_COMPLEX: i32 = 0x217;
pub const MPI_LOGICAL: i32 = 0x218;
pub const MPI_INTEGER: i32 = 0x219;
pub const MPI_REAL: i32 = 0x21a;
pub const MPI_COMPLEX: i32 = 0x21b;
pub const MPI_DOUBLE_PRECISION: i32 = 0x21c;
pub const MPI_DOUBLE_COMPLEX: i32 = 0x21d;
pub const MPI_CHARACTER: i32 = 0x21e;
pub const MPI_LONG_DOUBLE: i32 = 0x220;
pub const MPI_C_LONG_DOUBLE_COMPLEX: i32 = 0x224;
pub const MPI_CXX_LONG_DOUBLE_COMPLEX: i32 = 0x225;
pub const MPI_FLOAT_INT: i32 = 0x228;
pub const MPI_DOUBLE_INT: i32 = 0x229;
pub const MPI_LONG_INT: i32 = 0x22a;
pub const MPI_2INT: i32 = 0x22b;
pub const MPI_SHORT_INT: i32 = 0x22c;
pub const MPI_LONG_DOUBLE_INT: i32 = 0x22d;
pub const MPI_2REAL: i32 = 0x230;
pub const MPI_2DOUBLE_PRECISION: i32 = 0x231;
pub const MPI_2INTEGER: i32 = 0x232;
pub const MPI_C_BOOL: i32 = 0x238;
pub const MPI_CXX_BOOL: i32 = 0x239;
pub const MPI_WCHAR: i32 = 0x23c;
pub const MPI_INT8_T: i32 = 0x240;
pub const MPI_UINT8_T: i32 = 0x241;
pub const MPI_CHAR: i32 = 0x243;
pub const MPI_SIGNED_CHAR: i32 = 0x244;
pub const MPI_UNSIGNED_CHAR: i32 = 0x245;
pub const MPI_BYTE: i32 = 0x247;
pub const MPI_INT16_T: i32 = 0x248;
pub const MPI_UINT16_T: i32 = 0x249;
pub const MPI_INT32_T: i32 = 0x250;
pub const MPI_UINT32_T: i32 = 0x251;
pub const MPI_INT64_T: i32 = 0x258;
pub const MPI_UINT64_T: i32 = 0x259;
pub const MPI_LOGICAL1: i32 = 0x2c0;
pub const MPI_INTEGER1: i32 = 0x2c1;
pub const MPI_LOGICAL2: i32 = 0x2c8;
pub const MPI_INTEGER2: i32 = 0x2c9;
pub const MPI_REAL2: i32 = 0x2ca;
pub const MPI_LOGICAL4: i32 = 0x2d0;
pub const MPI_INTEGER4: i32 = 0x2d1;
pub const MPI_REAL4: i32 = 0x2d2;
pub const MPI_COMPLEX4: i32 = 0x2d3;
pub const MPI_LOGICAL8: i32 = 0x2d8;
pub const MPI_INTEGER8: i32 = 0x2d9;
pub const MPI_REAL8: i32 = 0x2da;
pub const MPI_COMPLEX8: i32 = 0x2db;
pub const MPI_LOGICAL16: i32 = 0x2e0;
pub const MPI_INTEGER16: i32 = 0x2e1;
pub const MPI_REAL16: i32 = 0x2e2;
pub const MPI_COMPLEX16: i32 = 0x2e3;
pub const MPI_COMPLEX32: i32 = 0x2eb;

// ---- datatype combiners ----------------------------------------------------------------------
pub const MPI_COMBINER_NAMED: i32 = 101;
pub const MPI_COMBINER_DUP: i32 = 102;
pub const MPI_COMBINER_CONTIGUOUS: i32 = 103;
pub const MPI_COMBINER_VECTOR: i32 = 104;
pub const MPI_COMBINER_HVECTOR: i32 = 105;
pub const MPI_COMBINER_INDEXED: i32 = 106;
pub const MPI_COMBINER_HINDEXED: i32 = 107;
pub const MPI_COMBINER_INDEXED_BLOCK: i32 = 108;
pub const MPI_COMBINER_HINDEXED_BLOCK: i32 = 109;
pub const MPI_COMBINER_STRUCT: i32 = 110;
pub const MPI_COMBINER_SUBARRAY: i32 = 111;
pub const MPI_COMBINER_DARRAY: i32 = 112;
pub const MPI_COMBINER_F90_REAL: i32 = 113;
pub const MPI_COMBINER_F90_COMPLEX: i32 = 114;
pub const MPI_COMBINER_F90_INTEGER: i32 = 115;
pub const MPI_COMBINER_RESIZED: i32 = 116;
pub const MPI_COMBINER_VALUE_INDEX: i32 = 117;

// ---- Fortran datatype matching (MPI_Type_match_size) -----------------------------------------
pub const MPI_TYPECLASS_INTEGER: i32 = 192;
pub const MPI_TYPECLASS_REAL: i32 = 193;
pub const MPI_TYPECLASS_COMPLEX: i32 = 194;
