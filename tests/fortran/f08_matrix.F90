! The writer x reader matrix of MPI 4.1 §20.3.7 with mpi_f08 (typed handles, OPTIONAL ierror)
! on communicators, datatypes and windows: C writes a pointer, Fortran reads the address;
! Fortran writes 42, -5 and 2**40 with *_SET_ATTR, C reads a pointer to an MPI_Aint and
! Fortran reads the value; predefined attributes (§7.7.3, §12.2.6) through mpi_f08; errors
! come back in the optional IERROR (§9.3) and handles compare with == and /=.
program f08_matrix
  use mpi_f08
  implicit none
  integer :: nfail = 0, ierr, kind, k, i
  integer(kind=MPI_ADDRESS_KIND) :: addr, val, vals(3), size
  logical :: flag
  type(MPI_Comm) :: comm, dup
  type(MPI_Datatype) :: dtype
  type(MPI_Win) :: win
  type(MPI_Errhandler) :: eh
  integer :: buf(10)
  integer :: h
  character(len=MPI_MAX_OBJECT_NAME) :: name
  integer :: rlen

  call MPI_Init()
  call c_handles(MPI_COMM_WORLD%MPI_VAL, MPI_COMM_SELF%MPI_VAL, MPI_INTEGER%MPI_VAL, nfail)
  call check(MPI_COMM_WORLD /= MPI_COMM_SELF, 'MPI_COMM_WORLD /= MPI_COMM_SELF', nfail)
  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  call check(comm /= MPI_COMM_WORLD .and. comm /= MPI_COMM_NULL, 'MPI_Comm_dup gives a new handle', nfail)
  call MPI_Type_contiguous(2, MPI_INTEGER, dtype, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Type_contiguous', nfail)
  call MPI_Type_commit(dtype)
  call MPI_Win_create(buf, 40_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_SELF, win, ierr)
  call check(ierr == MPI_SUCCESS .and. win /= MPI_WIN_NULL, 'MPI_Win_create', nfail)
  vals = [42_MPI_ADDRESS_KIND, -5_MPI_ADDRESS_KIND, 2_MPI_ADDRESS_KIND**40]

  do kind = 0, 2
    select case (kind)
    case (0)
      h = comm%MPI_VAL
      call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, k, 0_MPI_ADDRESS_KIND, ierr)
    case (1)
      h = dtype%MPI_VAL
      call MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, k, 0_MPI_ADDRESS_KIND, ierr)
    case default
      h = win%MPI_VAL
      call MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, k, 0_MPI_ADDRESS_KIND, ierr)
    end select
    call check(ierr == MPI_SUCCESS, 'create_keyval', nfail)
    ! Writer Fortran ADDRESS_KIND: 42, -5, 2**40; readers Fortran and C.
    do i = 1, 3
      select case (kind)
      case (0)
        call MPI_Comm_set_attr(comm, k, vals(i))
        call MPI_Comm_get_attr(comm, k, val, flag)
      case (1)
        call MPI_Type_set_attr(dtype, k, vals(i))
        call MPI_Type_get_attr(dtype, k, val, flag)
      case default
        call MPI_Win_set_attr(win, k, vals(i))
        call MPI_Win_get_attr(win, k, val, flag)
      end select
      call check(flag .and. val == vals(i), 'mpi_f08 reads the value it set (ADDRESS_KIND)', nfail)
      call c_read_aint(kind, h, k, vals(i), nfail)
    end do
    ! Writer C (a pointer), reader Fortran: the address as an integer.
    call c_set_pointer(kind, h, k, addr, nfail)
    select case (kind)
    case (0)
      call MPI_Comm_get_attr(comm, k, val, flag)
    case (1)
      call MPI_Type_get_attr(dtype, k, val, flag)
    case default
      call MPI_Win_get_attr(win, k, val, flag)
    end select
    call check(flag .and. val == addr, 'mpi_f08 reads a C pointer as the address', nfail)
    call c_read_pointer(kind, h, k, addr, nfail)
    ! Delete: then the flag is false and the value untouched.
    val = 77
    select case (kind)
    case (0)
      call MPI_Comm_delete_attr(comm, k)
      call MPI_Comm_get_attr(comm, k, val, flag)
      call MPI_Comm_free_keyval(k)
    case (1)
      call MPI_Type_delete_attr(dtype, k)
      call MPI_Type_get_attr(dtype, k, val, flag)
      call MPI_Type_free_keyval(k)
    case default
      call MPI_Win_delete_attr(win, k)
      call MPI_Win_get_attr(win, k, val, flag)
      call MPI_Win_free_keyval(k)
    end select
    call check(.not. flag .and. val == 77, 'after delete: flag false, value untouched', nfail)
    call check(k == MPI_KEYVAL_INVALID, 'free_keyval sets MPI_KEYVAL_INVALID', nfail)
  end do

  ! Predefined attributes (MPI 4.1 §7.7.3, §12.2.6).
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag)
  call check(flag .and. val >= 32767, 'MPI_TAG_UB through mpi_f08', nfail)
  call MPI_Comm_get_attr(comm, MPI_TAG_UB, val, flag)
  call check(flag .and. val >= 32767, 'MPI_TAG_UB on a dup', nfail)
  call MPI_Win_get_attr(win, MPI_WIN_SIZE, size, flag)
  call check(flag .and. size == 40, 'MPI_WIN_SIZE through mpi_f08', nfail)
  call MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, val, flag)
  call check(flag .and. val == 4, 'MPI_WIN_DISP_UNIT through mpi_f08', nfail)

  ! Errors in the optional IERROR (MPI 4.1 §9.3), with MPI_ERRORS_RETURN.
  call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN)
  call MPI_Comm_get_errhandler(comm, eh)
  call check(eh == MPI_ERRORS_RETURN, 'MPI_Comm_get_errhandler gives MPI_ERRORS_RETURN', nfail)
  call MPI_Errhandler_free(eh)
  call MPI_Comm_get_attr(comm, MPI_KEYVAL_INVALID, val, flag, ierr)
  call check(ierr /= MPI_SUCCESS, 'MPI_KEYVAL_INVALID is an error in IERROR', nfail)
  call MPI_Error_class(ierr, i)
  call check(i == MPI_ERR_KEYVAL, 'of class MPI_ERR_KEYVAL', nfail)
  call MPI_Comm_delete_attr(comm, MPI_TAG_UB)   ! ierror absent: the error is returned and dropped
  call MPI_Comm_set_name(comm, 'f08 comm')
  call MPI_Comm_get_name(comm, name, rlen)
  call check(name(1:rlen) == 'f08 comm' .and. rlen == 8, 'MPI_Comm_set_name / get_name', nfail)
  call MPI_Comm_dup(comm, dup)
  call MPI_Comm_compare(comm, dup, i)
  call check(i == MPI_CONGRUENT, 'MPI_Comm_compare of a dup', nfail)
  call MPI_Comm_free(dup)
  call check(dup == MPI_COMM_NULL, 'MPI_Comm_free sets MPI_COMM_NULL', nfail)

  call MPI_Win_free(win)
  call check(win == MPI_WIN_NULL, 'MPI_Win_free sets MPI_WIN_NULL', nfail)
  call MPI_Type_free(dtype)
  call check(dtype == MPI_DATATYPE_NULL, 'MPI_Type_free sets MPI_DATATYPE_NULL', nfail)
  call MPI_Comm_free(comm)
  call MPI_Finalize(ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Finalize', nfail)
  print '(1X,I0,A)', nfail, ' failure(s)'
  if (nfail /= 0) stop 1
contains
#include "check.inc"
end program f08_matrix
