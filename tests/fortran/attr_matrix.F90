! The writer x reader matrix of MPI 4.1 §20.3.7 (docs/DESIGN.md "What each reader gets") for
! communicators: C writes (pointer to 3, pointer to a struct, (void*)17), Fortran MPI_ATTR_PUT
! writes 7 and -5, Fortran MPI_COMM_SET_ATTR writes 42, -7 and 2**40; every value is read from
! C (attr_matrix_c.c), from Fortran ADDRESS_KIND (MPI_COMM_GET_ATTR) and from Fortran INTEGER
! (MPI_ATTR_GET). Built with `use mpi` and, with -DUSE_MPIF_H, with include 'mpif.h'.
program attr_matrix
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer :: ierr, nfail, i
  integer :: kc_int, kc_struct, kc_17, kp7, kpm5, ks42, ksm7, ks40
  integer(kind=MPI_ADDRESS_KIND) :: addr_int, addr_struct, aval, big, es, c17
  integer :: low_int, low_struct, ival
  logical :: flag
  integer :: comms(2), comm

  nfail = 0
  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  big = 2_MPI_ADDRESS_KIND**40
  c17 = 17
  es = 0
  ! The same matrix on MPI_COMM_WORLD and on a dup'ed communicator.
  call MPI_COMM_DUP(MPI_COMM_WORLD, comms(2), ierr)
  comms(1) = MPI_COMM_WORLD
  do i = 1, 2
    comm = comms(i)
    ! -- writers --
    call c_set_matrix(comm, kc_int, kc_struct, kc_17, addr_int, addr_struct, low_int, &
                      low_struct, nfail)
    call MPI_KEYVAL_CREATE(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, kp7, 0, ierr)
    call MPI_KEYVAL_CREATE(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, kpm5, 0, ierr)
    call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, ks42, es, ierr)
    call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, ksm7, es, ierr)
    call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, ks40, es, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_COMM_CREATE_KEYVAL succeeds', nfail)
    call MPI_ATTR_PUT(comm, kp7, 7, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_ATTR_PUT succeeds', nfail)
    call MPI_ATTR_PUT(comm, kpm5, -5, ierr)
    aval = 42
    call MPI_COMM_SET_ATTR(comm, ks42, aval, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_COMM_SET_ATTR succeeds', nfail)
    aval = -7
    call MPI_COMM_SET_ATTR(comm, ksm7, aval, ierr)
    call MPI_COMM_SET_ATTR(comm, ks40, big, ierr)

    ! -- reader C (MPI 4.1 §20.3.7: C gets the pointer, or a pointer to the internal
    ! int (MPI_ATTR_PUT) / MPI_Aint (MPI_COMM_SET_ATTR) holding the value) --
    call c_read_pointer(comm, kc_int, addr_int, nfail)
    call c_read_pointer(comm, kc_struct, addr_struct, nfail)
    call c_read_pointer(comm, kc_17, c17, nfail)
    call c_read_int(comm, kp7, 7, nfail)
    call c_read_int(comm, kpm5, -5, nfail)
    aval = 42
    call c_read_aint(comm, ks42, aval, nfail)
    aval = -7
    call c_read_aint(comm, ksm7, aval, nfail)
    call c_read_aint(comm, ks40, big, nfail)

    ! -- reader Fortran ADDRESS_KIND (MPI 4.1 §20.3.7: the address as an integer, the
    ! value, or the sign-extended INTEGER value) --
    call getaddr(comm, kc_int, addr_int, 'C pointer to set_val reads as its address')
    call getaddr(comm, kc_struct, addr_struct, 'C pointer to a struct reads as its address')
    call getaddr(comm, kc_17, c17, '(void*)17 reads as 17 (Example 16.17 D)')
    call getaddr(comm, kp7, 7_MPI_ADDRESS_KIND, 'MPI_ATTR_PUT 7 reads as 7 (Example 16.18 D)')
    call getaddr(comm, kpm5, -5_MPI_ADDRESS_KIND, 'MPI_ATTR_PUT -5 reads as -5: sign-extended')
    call getaddr(comm, ks42, 42_MPI_ADDRESS_KIND, 'MPI_COMM_SET_ATTR 42 reads as 42')
    call getaddr(comm, ksm7, -7_MPI_ADDRESS_KIND, 'MPI_COMM_SET_ATTR -7 reads as -7')
    call getaddr(comm, ks40, big, 'MPI_COMM_SET_ATTR 2**40 reads as 2**40 (Example 16.19 D)')

    ! -- reader Fortran INTEGER, MPI_ATTR_GET (MPI 4.1 §20.3.7: the least significant part
    ! of the attribute word) --
    call getint(comm, kc_int, low_int, 'C pointer reads as the low part of the address')
    call getint(comm, kc_struct, low_struct, 'C struct pointer reads as the low part')
    call getint(comm, kc_17, 17, '(void*)17 reads as 17 (Example 16.17 C)')
    call getint(comm, kp7, 7, 'MPI_ATTR_PUT 7 reads as 7 (Example 16.18 C)')
    call getint(comm, kpm5, -5, 'MPI_ATTR_PUT -5 reads as -5')
    call getint(comm, ks42, 42, 'MPI_COMM_SET_ATTR 42 reads as 42 (Example 16.19 C)')
    call getint(comm, ksm7, -7, 'MPI_COMM_SET_ATTR -7 reads as -7 (low part)')
    call getint(comm, ks40, 0, 'MPI_COMM_SET_ATTR 2**40 reads as 0: truncated (Example 16.19 C)')

    ! MPI 4.1 §7.7.2: after MPI_COMM_DELETE_ATTR the flag is false, and nothing is written
    ! to the value argument.
    call MPI_COMM_DELETE_ATTR(comm, ks42, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_COMM_DELETE_ATTR succeeds', nfail)
    aval = 12345
    flag = .true.
    call MPI_COMM_GET_ATTR(comm, ks42, aval, flag, ierr)
    call check(ierr == MPI_SUCCESS .and. .not. flag .and. aval == 12345, &
               'MPI_COMM_GET_ATTR after delete: flag false, value untouched', nfail)
    call MPI_ATTR_DELETE(comm, kp7, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_ATTR_DELETE succeeds', nfail)
    ival = 54321
    flag = .true.
    call MPI_ATTR_GET(comm, kp7, ival, flag, ierr)
    call check(ierr == MPI_SUCCESS .and. .not. flag .and. ival == 54321, &
               'MPI_ATTR_GET after delete: flag false, value untouched', nfail)
    ! Deleting an attribute that is not set is not an error (docs/DESIGN.md).
    call MPI_COMM_DELETE_ATTR(comm, ks42, ierr)
    call check(ierr == MPI_SUCCESS, 'deleting an unset attribute is not an error', nfail)

    ! MPI 4.1 §7.7.2: MPI_COMM_FREE_KEYVAL / MPI_KEYVAL_FREE set the keyval to
    ! MPI_KEYVAL_INVALID; the attributes still set stay readable.
    call MPI_COMM_FREE_KEYVAL(ks40, ierr)
    call check(ierr == MPI_SUCCESS .and. ks40 == MPI_KEYVAL_INVALID, &
               'MPI_COMM_FREE_KEYVAL writes MPI_KEYVAL_INVALID', nfail)
    call MPI_KEYVAL_FREE(kpm5, ierr)
    call check(ierr == MPI_SUCCESS .and. kpm5 == MPI_KEYVAL_INVALID, &
               'MPI_KEYVAL_FREE writes MPI_KEYVAL_INVALID', nfail)
    call MPI_COMM_FREE_KEYVAL(kc_int, ierr)
    call MPI_COMM_FREE_KEYVAL(kc_struct, ierr)
    call MPI_COMM_FREE_KEYVAL(kc_17, ierr)
    call MPI_KEYVAL_FREE(kp7, ierr)
    call MPI_COMM_FREE_KEYVAL(ks42, ierr)
    call MPI_COMM_FREE_KEYVAL(ksm7, ierr)
    call check(ierr == MPI_SUCCESS, 'freeing the keyvals succeeds', nfail)
  end do
  call MPI_COMM_FREE(comms(2), ierr)
  call check(ierr == MPI_SUCCESS .and. comms(2) == MPI_COMM_NULL, &
             'MPI_COMM_FREE sets the handle to MPI_COMM_NULL', nfail)
  call MPI_FINALIZE(ierr)
  print '(A,I0,A)', 'attr_matrix: ', nfail, ' failure(s)'
  if (nfail > 0) stop 1

contains

  subroutine getaddr(comm, keyval, expect, what)
    integer, intent(in) :: comm, keyval
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: expect
    character(len=*), intent(in) :: what
    integer(kind=MPI_ADDRESS_KIND) :: v
    logical :: f
    integer :: ierr
    character(len=200) :: msg
    v = -999
    f = .false.
    call MPI_COMM_GET_ATTR(comm, keyval, v, f, ierr)
    write (msg, '(A,A,I0,A,L1)') what, ': got ', v, ' flag ', f
    call check(ierr == MPI_SUCCESS .and. f .and. v == expect, 'MPI_COMM_GET_ATTR: '//trim(msg), nfail)
  end subroutine getaddr

  subroutine getint(comm, keyval, expect, what)
    integer, intent(in) :: comm, keyval, expect
    character(len=*), intent(in) :: what
    integer :: v, ierr
    logical :: f
    character(len=200) :: msg
    v = -999
    f = .false.
    call MPI_ATTR_GET(comm, keyval, v, f, ierr)
    write (msg, '(A,A,I0,A,L1)') what, ': got ', v, ' flag ', f
    call check(ierr == MPI_SUCCESS .and. f .and. v == expect, 'MPI_ATTR_GET: '//trim(msg), nfail)
  end subroutine getint

  include 'check.inc'
end program attr_matrix
