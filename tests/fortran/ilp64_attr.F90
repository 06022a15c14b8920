! The conversion table under the 8-byte INTEGER build (-fdefault-integer-8, MPI 4.1 §20.3.7,
! DESIGN.md "What each reader gets"): the values that differ from the 4-byte build.
! MPI_ATTR_GET of 2**40 set by MPI_COMM_SET_ATTR reads 2**40 (no truncation); MPI_ATTR_PUT of
! -(2**40+3) reads back whole through MPI_COMM_GET_ATTR; an MPI_KEYVAL_CREATE copy callback
! gets and returns 8-byte INTEGERs; mpi_f08 handles hold 8-byte MPI_VAL.
subroutine copy_int(oldcomm, keyval, extra_state, val_in, val_out, flag, ierr)
  implicit none
  integer :: oldcomm, keyval, extra_state, val_in, val_out, ierr
  logical :: flag
  val_out = val_in + extra_state
  flag = .true.
  ierr = 0
  if (oldcomm < 0 .or. keyval < 0) ierr = 1
end subroutine copy_int

program ilp64_attr
  use mpi
  implicit none
  integer :: nfail = 0, ierr, k, ki, v, newcomm
  integer(kind=MPI_ADDRESS_KIND) :: av
  logical :: flag
  external :: copy_int

  call MPI_INIT(ierr)
  call check(bit_size(ierr) == 64 .and. MPI_INTEGER_KIND == 8, 'INTEGER is 8 bytes, MPI_INTEGER_KIND 8', nfail)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, k, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, k, 2_MPI_ADDRESS_KIND**40, ierr)
  call MPI_ATTR_GET(MPI_COMM_WORLD, k, v, flag, ierr)
  call check(flag .and. v == 2_8**40, 'MPI_ATTR_GET of 2**40 reads 2**40', nfail)
  call MPI_KEYVAL_CREATE(copy_int, MPI_NULL_DELETE_FN, ki, 2_8**36, ierr)
  call MPI_ATTR_PUT(MPI_COMM_WORLD, ki, -(2_8**40 + 3), ierr)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, ki, av, flag, ierr)
  call check(flag .and. av == -(2_8**40 + 3), 'MPI_ATTR_PUT of -(2**40+3), read whole', nfail)
  call MPI_COMM_DUP(MPI_COMM_WORLD, newcomm, ierr)
  call MPI_ATTR_GET(newcomm, ki, v, flag, ierr)
  call check(flag .and. v == -(2_8**40 + 3) + 2_8**36, 'INTEGER copy callback with 8-byte values', nfail)
  call MPI_COMM_FREE(newcomm, ierr)
  call MPI_FINALIZE(ierr)
  print '(1X,I0,A)', nfail, ' failure(s)'
  if (nfail /= 0) stop 1
contains
#include "check.inc"
end program ilp64_attr
