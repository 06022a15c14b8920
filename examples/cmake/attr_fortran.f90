! Sets and reads an attribute from Fortran (INTEGER(KIND=MPI_ADDRESS_KIND) values), copies it
! with MPI_COMM_DUP_FN, and reads the predefined MPI_TAG_UB (MPI 4.1 §7.7, §9.1.2, §20.3.7).
! Prints "attr_fortran: ok" when all is as the standard says.
program attr_fortran
  use mpi
  implicit none
  integer :: ierr, keyval, dup, errors
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  logical :: flag

  errors = 0
  extra = 0
  call MPI_INIT(ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, keyval, extra, ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, keyval, 1234567_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, keyval, val, flag, ierr)
  if (.not. flag .or. val /= 1234567) then
    print '(A)', 'attr_fortran: get after set failed'
    errors = errors + 1
  end if
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
  call MPI_COMM_GET_ATTR(dup, keyval, val, flag, ierr)
  if (.not. flag .or. val /= 1234567) then
    print '(A)', 'attr_fortran: MPI_COMM_DUP_FN did not copy the value'
    errors = errors + 1
  end if
  call MPI_COMM_FREE(dup, ierr)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
  if (.not. flag .or. val < 32767) then
    print '(A)', 'attr_fortran: MPI_TAG_UB < 32767'
    errors = errors + 1
  end if
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, keyval, ierr)
  call MPI_COMM_FREE_KEYVAL(keyval, ierr)
  call MPI_FINALIZE(ierr)
  if (errors == 0) then
    print '(A,I0,A)', 'attr_fortran: ok (MPI_TAG_UB = ', val, ')'
  else
    stop 1
  end if
end program attr_fortran
