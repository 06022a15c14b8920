! Mixed modules in one program (MPI 4.1 §19.1.1, §19.3.4, §20.3.7): a unit with mpi_f08, a
! unit with the mpi module, a unit with mpif.h and C, side by side, see one set of keyvals
! and attributes; a handle converts between them (comm%MPI_VAL, MPI_Comm_f2c in C).

! The mpif.h units: an MPI-1 keyval (MPI_KEYVAL_CREATE) and MPI_ATTR_PUT; reads of the others.
subroutine legacy_put(comm, ki, ival, nfail)
  implicit none
  include 'mpif.h'
  integer :: comm, ki, ival, nfail, ierr
  call MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, ki, 0, ierr)
  call MPI_ATTR_PUT(comm, ki, ival, ierr)
  if (ierr /= MPI_SUCCESS) call fail_line('mpif.h MPI_ATTR_PUT', nfail)
end subroutine legacy_put

subroutine legacy_unit(comm, ka, aval, kc, nfail)
  implicit none
  include 'mpif.h'
  integer :: comm, ka, kc, nfail, ierr, v
  integer(kind=MPI_ADDRESS_KIND) :: aval, av
  logical :: flag
  call MPI_ATTR_GET(comm, ka, v, flag, ierr)
  if (.not. flag .or. v /= int(aval)) call fail_line('mpif.h MPI_ATTR_GET of the mpi_f08 value', nfail)
  call MPI_COMM_GET_ATTR(comm, kc, av, flag, ierr)
  if (.not. flag .or. av /= 4242) call fail_line('mpif.h reads the C pointer 4242', nfail)
end subroutine legacy_unit

! The mpi unit: a keyval with the mpi module's MPI_COMM_DUP_FN, and reads of the others.
subroutine mpi_unit(comm, ka, aval, ki, ival, km, nfail)
  use mpi
  implicit none
  integer :: comm, ka, ki, ival, km, nfail, ierr, newcomm
  integer(kind=MPI_ADDRESS_KIND) :: aval, av
  logical :: flag
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, km, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_SET_ATTR(comm, km, 31_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_GET_ATTR(comm, ka, av, flag, ierr)
  if (.not. flag .or. av /= aval) call fail_line('mpi module reads the mpi_f08 value', nfail)
  call MPI_COMM_GET_ATTR(comm, ki, av, flag, ierr)
  if (.not. flag .or. av /= ival) call fail_line('mpi module reads the mpif.h value (sign-extended)', nfail)
  call MPI_COMM_DUP(comm, newcomm, ierr)
  call MPI_COMM_GET_ATTR(newcomm, ka, av, flag, ierr)
  if (.not. flag .or. av /= aval) call fail_line('mpi module dup: MPI_COMM_DUP_FN of mpi_f08 ran', nfail)
  call MPI_COMM_FREE(newcomm, ierr)
end subroutine mpi_unit

subroutine fail_line(what, nfail)
  implicit none
  character(len=*) :: what
  integer :: nfail
  print '(A,A)', 'FAIL: ', what
  nfail = nfail + 1
end subroutine fail_line

program f08_mixed
  use mpi_f08
  implicit none
  integer :: nfail = 0, ka, kc, ki, km, ival
  integer(kind=MPI_ADDRESS_KIND) :: aval, v
  logical :: flag
  type(MPI_Comm) :: comm, dup
  external :: legacy_put, legacy_unit, mpi_unit, c_mixed

  call MPI_Init()
  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  aval = 2_MPI_ADDRESS_KIND**33 + 17
  ival = -12
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, ka, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kc, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(comm, ka, aval)
  ! C sets kc after the mpif.h unit made ki; the mpif.h unit reads kc afterwards.
  call legacy_put(comm%MPI_VAL, ki, ival, nfail)
  call c_mixed(comm%MPI_VAL, ka, aval, ki, ival, kc, nfail)
  call legacy_unit(comm%MPI_VAL, ka, aval, kc, nfail)
  call mpi_unit(comm%MPI_VAL, ka, aval, ki, ival, km, nfail)
  ! mpi_f08 reads what the others set.
  call MPI_Comm_get_attr(comm, ki, v, flag)
  call check(flag .and. v == ival, 'mpi_f08 reads the mpif.h MPI_ATTR_PUT value sign-extended', nfail)
  call MPI_Comm_get_attr(comm, kc, v, flag)
  call check(flag .and. v == 4242, 'mpi_f08 reads the C pointer as 4242', nfail)
  call MPI_Comm_get_attr(comm, km, v, flag)
  call check(flag .and. v == 31, 'mpi_f08 reads the mpi module value', nfail)
  ! One dup copies all of them with their provenance (the MPI-1 DUP_FN of mpif.h too).
  call MPI_Comm_dup(comm, dup)
  call MPI_Comm_get_attr(dup, ki, v, flag)
  call check(flag .and. v == ival, 'MPI_DUP_FN (mpif.h keyval) on an mpi_f08 dup', nfail)
  call MPI_Comm_get_attr(dup, km, v, flag)
  call check(flag .and. v == 31, 'mpi module keyval on an mpi_f08 dup', nfail)
  call MPI_Comm_get_attr(dup, kc, v, flag)
  call check(flag .and. v == 4242, 'C value on an mpi_f08 dup', nfail)
  call c_mixed(dup%MPI_VAL, ka, aval, ki, ival, kc, nfail)
  call MPI_Comm_free(dup)
  call MPI_Comm_free(comm)
  call MPI_Finalize()
  print '(1X,I0,A)', nfail, ' failure(s)'
  if (nfail /= 0) stop 1
contains
#include "check.inc"
end program f08_mixed
