! The conversion tables under the 8-byte INTEGER build (-fdefault-integer-8, cargo feature
! fortran-integer-8; MPI 4.1 §20.3.7, docs/DESIGN.md "What each reader gets"): the cells whose
! values differ from the 4-byte build.
! - MPI_ATTR_GET of 2**40 set by MPI_COMM_SET_ATTR reads 2**40 (the low part of the word is
!   now the whole word), and of a C pointer the whole address;
! - MPI_ATTR_PUT stores the 8-byte INTEGER: 2**40 and -(2**40+3) come back whole through
!   MPI_ATTR_GET and MPI_COMM_GET_ATTR; C gets a pointer to the internal int (its low 32 bits);
! - MPI_KEYVAL_CREATE callbacks get and return 8-byte INTEGERs (values, extra_state, handles,
!   LOGICAL flag): a copy callback returning a value > 2**31 is stored whole, sign-extension of
!   a negative 8-byte value is kept, the delete callback sees the whole value;
! - MPI_INTEGER, MPI_LOGICAL and MPI_2INTEGER are 8, 8 and 16 bytes; MPI_ALLREDUCE of 8-byte
!   INTEGERs copies them whole;
! - an 8-byte INTEGER that cannot be a handle, keyval or color is an error of the right class
!   (MPI_ERR_COMM, MPI_ERR_KEYVAL, MPI_ERR_ARG), never truncated to a valid one.
! Built with `use mpi` and, with -DUSE_MPIF_H, with include 'mpif.h'.
module ilp64_state
  implicit none
  integer :: deleted_value = 0, deleted_extra = 0, copy_in = 0, copy_extra = 0
  logical :: copy_flag_seen = .false.
end module ilp64_state

subroutine copy_int(oldcomm, keyval, extra_state, val_in, val_out, flag, ierr)
  use ilp64_state
  implicit none
  integer :: oldcomm, keyval, extra_state, val_in, val_out, ierr
  logical :: flag
  copy_in = val_in
  copy_extra = extra_state
  val_out = val_in + extra_state
  flag = .true.
  ierr = 0
  if (oldcomm < 0 .or. keyval < 0) ierr = 1
end subroutine copy_int

subroutine delete_int(comm, keyval, val, extra_state, ierr)
  use ilp64_state
  implicit none
  integer :: comm, keyval, val, extra_state, ierr
  deleted_value = val
  deleted_extra = extra_state
  ierr = 0
  if (comm < 0 .or. keyval < 0) ierr = 1
end subroutine delete_int

program ilp64_attr
  use ilp64_state
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer :: nfail = 0, ierr, k, ki, v, newcomm, sz, i
  integer :: src(3), dst(3)
  integer(kind=MPI_ADDRESS_KIND) :: av, addr
  logical :: flag
  external :: copy_int, delete_int
  integer, parameter :: big = 2_8**40, neg = -(2_8**40 + 3), over = 2_8**33, extra = 2_8**36

  call MPI_INIT(ierr)
  call check(bit_size(ierr) == 64 .and. MPI_INTEGER_KIND == 8, 'INTEGER is 8 bytes, MPI_INTEGER_KIND 8', nfail)
  call check(storage_size(flag) == 64, 'LOGICAL is 8 bytes', nfail)
  call c_sizes(nfail)

  ! FortranAddress row, MPI_ATTR_GET column: 2**40 is not truncated.
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, k, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, k, 2_MPI_ADDRESS_KIND**40, ierr)
  v = 0
  flag = .false.
  call MPI_ATTR_GET(MPI_COMM_WORLD, k, v, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. v == big, 'MPI_ATTR_GET of 2**40 set by MPI_COMM_SET_ATTR reads 2**40', nfail)
  call c_read_aint(MPI_COMM_WORLD, k, 2_MPI_ADDRESS_KIND**40, nfail)

  ! CPointer row, MPI_ATTR_GET column: the whole address.
  call c_set_pointer(MPI_COMM_WORLD, k, addr, nfail)
  call MPI_ATTR_GET(MPI_COMM_WORLD, k, v, flag, ierr)
  call check(flag .and. v == addr, 'MPI_ATTR_GET of a C pointer reads the whole address', nfail)

  ! FortranInteger row: MPI_ATTR_PUT of 8-byte values.
  call MPI_KEYVAL_CREATE(copy_int, delete_int, ki, extra, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_KEYVAL_CREATE with an 8-byte extra_state', nfail)
  call MPI_ATTR_PUT(MPI_COMM_WORLD, ki, big + 5, ierr)
  call MPI_ATTR_GET(MPI_COMM_WORLD, ki, v, flag, ierr)
  call check(flag .and. v == big + 5, 'MPI_ATTR_PUT of 2**40+5 reads back whole through MPI_ATTR_GET', nfail)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, ki, av, flag, ierr)
  call check(flag .and. av == big + 5, 'MPI_ATTR_PUT of 2**40+5 reads whole through MPI_COMM_GET_ATTR', nfail)
  call c_read_int(MPI_COMM_WORLD, ki, 5_8, nfail)
  call MPI_ATTR_PUT(MPI_COMM_WORLD, ki, neg, ierr)
  call check(deleted_value == big + 5 .and. deleted_extra == extra, &
       'overwrite: the INTEGER delete callback gets the old 8-byte value and extra_state', nfail)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, ki, av, flag, ierr)
  call check(flag .and. av == neg, 'MPI_ATTR_PUT of -(2**40+3), read whole (ADDRESS_KIND)', nfail)
  call MPI_ATTR_GET(MPI_COMM_WORLD, ki, v, flag, ierr)
  call check(flag .and. v == neg, 'MPI_ATTR_PUT of -(2**40+3), read whole (INTEGER)', nfail)
  call c_read_int(MPI_COMM_WORLD, ki, -3_8, nfail)

  ! INTEGER copy callback: 8-byte value in, extra_state, value out > 2**31.
  call MPI_COMM_DUP(MPI_COMM_WORLD, newcomm, ierr)
  call check(copy_in == neg .and. copy_extra == extra, 'INTEGER copy callback gets the 8-byte value and extra_state', nfail)
  call MPI_ATTR_GET(newcomm, ki, v, flag, ierr)
  call check(flag .and. v == neg + extra, 'INTEGER copy callback result stored whole (negative)', nfail)
  call MPI_COMM_FREE(newcomm, ierr)
  call check(deleted_value == neg + extra, 'MPI_COMM_FREE: delete callback gets the copied 8-byte value', nfail)
  call MPI_ATTR_PUT(MPI_COMM_WORLD, ki, over, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, newcomm, ierr)
  call MPI_ATTR_GET(newcomm, ki, v, flag, ierr)
  call check(flag .and. v == over + extra .and. v > 2_8**31, 'INTEGER copy callback returning a value > 2**31', nfail)
  call MPI_COMM_GET_ATTR(newcomm, ki, av, flag, ierr)
  call check(flag .and. av == over + extra, 'copied INTEGER value read through MPI_COMM_GET_ATTR', nfail)
  call MPI_COMM_FREE(newcomm, ierr)
  call MPI_ATTR_DELETE(MPI_COMM_WORLD, ki, ierr)
  call check(deleted_value == over, 'MPI_ATTR_DELETE: delete callback gets 2**33', nfail)
  call MPI_KEYVAL_FREE(ki, ierr)
  call check(ki == MPI_KEYVAL_INVALID, 'MPI_KEYVAL_FREE sets MPI_KEYVAL_INVALID (8 bytes)', nfail)
  call MPI_COMM_FREE_KEYVAL(k, ierr)

  ! Predefined attributes (as if set by MPI_ATTR_PUT) through the 8-byte MPI_ATTR_GET.
  call MPI_ATTR_GET(MPI_COMM_WORLD, MPI_TAG_UB, v, flag, ierr)
  call check(flag .and. v >= 32767, 'MPI_TAG_UB through MPI_ATTR_GET', nfail)

  ! Fortran datatypes of the 8-byte build.
  call MPI_TYPE_SIZE(MPI_INTEGER, sz, ierr)
  call check(sz == 8, 'MPI_INTEGER is 8 bytes', nfail)
  call MPI_TYPE_SIZE(MPI_LOGICAL, sz, ierr)
  call check(sz == 8, 'MPI_LOGICAL is 8 bytes', nfail)
  call MPI_TYPE_SIZE(MPI_2INTEGER, sz, ierr)
  call check(sz == 16, 'MPI_2INTEGER is 16 bytes', nfail)
  call MPI_TYPE_SIZE(MPI_REAL, sz, ierr)
  call check(sz == 4, 'MPI_REAL stays 4 bytes', nfail)
  src = [big, neg, 7_8]
  dst = 0
  call MPI_ALLREDUCE(src, dst, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS .and. all(dst == src), 'MPI_ALLREDUCE of 8-byte INTEGERs', nfail)

  ! 8-byte values that cannot be handles, keyvals or colors: errors, not truncation
  ! (2**32 + MPI_COMM_WORLD would truncate to MPI_COMM_WORLD).
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SIZE(2_8**32 + MPI_COMM_WORLD, sz, ierr)
  call check(ierr == MPI_ERR_COMM, 'MPI_COMM_SIZE of 2**32+MPI_COMM_WORLD is MPI_ERR_COMM', nfail)
  call MPI_ATTR_GET(MPI_COMM_WORLD, 2_8**32 + MPI_TAG_UB, v, flag, ierr)
  call check(ierr == MPI_ERR_KEYVAL, 'MPI_ATTR_GET of keyval 2**32+MPI_TAG_UB is MPI_ERR_KEYVAL', nfail)
  call MPI_COMM_SPLIT(MPI_COMM_WORLD, 2_8**32, 0, newcomm, ierr)
  call check(ierr == MPI_ERR_ARG, 'MPI_COMM_SPLIT with color 2**32 is MPI_ERR_ARG', nfail)
  call MPI_TYPE_SIZE(2_8**32 + MPI_INTEGER, sz, ierr)
  call check(ierr == MPI_ERR_TYPE, 'MPI_TYPE_SIZE of 2**32+MPI_INTEGER is MPI_ERR_TYPE', nfail)
  call MPI_INITIALIZED(flag, ierr)
  call check(flag .and. ierr == MPI_SUCCESS, 'MPI_INITIALIZED writes an 8-byte LOGICAL', nfail)
  i = big + 9
  call MPI_COMM_RANK(MPI_COMM_WORLD, i, ierr)
  call check(i == 0, 'MPI_COMM_RANK writes the 8-byte INTEGER whole', nfail)

  call MPI_FINALIZE(ierr)
  print '(1X,I0,A)', nfail, ' failure(s)'
  if (nfail /= 0) stop 1
contains
#include "check.inc"
end program ilp64_attr
