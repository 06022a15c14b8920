! Hand-written Fortran bindings with procedure arguments, through `use mpi` and, with
! -DUSE_MPIF_H, mpif.h: MPI_OP_CREATE / MPI_OP_CREATE_C (the Fortran USER_FUNCTION run by
! MPI_REDUCE_LOCAL from Fortran and from C), MPI_FILE_CREATE_ERRHANDLER and
! MPI_SESSION_CREATE_ERRHANDLER (the Fortran handler run for errors raised from Fortran and
! from C). The callbacks record what they got in COMMON /HREC/.
program handlers
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer :: ierr, nfail, cls, op, opc, cop, a(3), b(3), r(3), n, eh, seh, fh, session, rc
  integer :: plen, inth
  logical :: flag
  character(len=64) :: pname
  integer :: reclen, recdt, recobj, reccode, ncalls
  common /hrec/ reclen, recdt, recobj, reccode, ncalls
  external :: times_ten_add, times_ten_add_c, file_eh, session_eh

  nfail = 0
  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)

  ! MPI 4.1 §6.9.5: a Fortran USER_FUNCTION gets LEN and DATATYPE as INTEGERs; MPI 4.1 §6.9.7:
  ! MPI_REDUCE_LOCAL computes INOUTBUF = INBUF op INOUTBUF (the order matters: 10*in + inout).
  call MPI_OP_CREATE(times_ten_add, .false., op, ierr)
  call check(ierr == MPI_SUCCESS .and. op /= MPI_OP_NULL, 'MPI 4.1 §6.9.5: MPI_OP_CREATE gives an operation')
  flag = .true.
  call MPI_OP_COMMUTATIVE(op, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. .not. flag, 'MPI 4.1 §6.9.6: MPI_OP_COMMUTATIVE of a non-commutative MPI_OP_CREATE op')
  a = [1, 2, 3]
  b = [4, 5, 6]
  reclen = -1; recdt = -1; ncalls = 0
  call MPI_REDUCE_LOCAL(a, b, 3, MPI_INTEGER, op, ierr)
  call check(ierr == MPI_SUCCESS .and. all(b == [14, 25, 36]), 'MPI 4.1 §6.9.7: MPI_REDUCE_LOCAL runs the Fortran function (inout = 10*in + inout)')
  call check(ncalls >= 1 .and. reclen >= 1 .and. reclen <= 3 .and. recdt == MPI_INTEGER, &
       'MPI 4.1 §6.9.5: the function gets LEN and the Fortran DATATYPE handle MPI_INTEGER')
  ! From C: MPI_Reduce_local on the converted handle runs the same Fortran function.
  b = [4, 5, 6]
  ncalls = 0
  call c_int_handle(inth)
  call c_reduce_local(op, a, b, 3, rc)
  call check(rc == MPI_SUCCESS .and. all(b == [14, 25, 36]) .and. ncalls >= 1, 'MPI 4.1 §19.3.4: C runs a Fortran user operation the Fortran way')
  call check(recdt == inth, 'MPI 4.1 §6.9.5: called from C, the Fortran function gets the datatype as its Fortran handle')
  ! MPI 4.1 §6.9.1: over one process MPI_REDUCE / MPI_ALLREDUCE give the one contribution.
  r = 0
  call MPI_ALLREDUCE(a, r, 3, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS .and. all(r == a), 'MPI 4.1 §6.9.6: MPI_ALLREDUCE with a Fortran user operation')
  r = 0
  call MPI_REDUCE(a, r, 3, MPI_INTEGER, op, 0, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS .and. all(r == a), 'MPI 4.1 §6.9.1: MPI_REDUCE with a Fortran user operation')
  call MPI_OP_FREE(op, ierr)
  call check(ierr == MPI_SUCCESS .and. op == MPI_OP_NULL, 'MPI 4.1 §6.9.5: MPI_OP_FREE sets MPI_OP_NULL')

  ! MPI 4.1 §6.9.5: MPI_OP_CREATE_C: LEN is INTEGER(KIND=MPI_COUNT_KIND).
  call MPI_OP_CREATE_C(times_ten_add_c, .true., opc, ierr)
  flag = .false.
  call MPI_OP_COMMUTATIVE(opc, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag, 'MPI 4.1 §6.9.6: MPI_OP_CREATE_C keeps COMMUTE')
  b = [4, 5, 6]
  reclen = -1
  call MPI_REDUCE_LOCAL(a, b, 3, MPI_INTEGER, opc, ierr)
  call check(ierr == MPI_SUCCESS .and. all(b == [14, 25, 36]) .and. reclen >= 1 .and. reclen <= 3, &
       'MPI 4.1 §6.9.5: MPI_REDUCE_LOCAL runs the MPI_OP_CREATE_C function with its count-kind LEN')
  call MPI_OP_FREE(opc, ierr)

  ! A C operation run from Fortran.
  call c_op_create(cop, rc)
  b = [0, 5, 1]
  call MPI_REDUCE_LOCAL(a, b, 3, MPI_INTEGER, cop, ierr)
  call check(ierr == MPI_SUCCESS .and. all(b == [1, 5, 3]), 'MPI 4.1 §6.9.7: Fortran runs a C user operation')
  call MPI_OP_FREE(cop, ierr)

  ! MPI 4.1 §9.3.4: a Fortran file error handler runs for errors on the file, raised from
  ! Fortran and from C, with the file's handle and the error code.
  call MPI_FILE_CREATE_ERRHANDLER(file_eh, eh, ierr)
  call check(ierr == MPI_SUCCESS .and. eh /= MPI_ERRHANDLER_NULL, 'MPI 4.1 §9.3.4: MPI_FILE_CREATE_ERRHANDLER')
  call MPI_FILE_OPEN(MPI_COMM_SELF, 'handlers_f.tmp', MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE, &
       MPI_INFO_NULL, fh, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §14.2.1: MPI_FILE_OPEN of a scratch file')
  call MPI_FILE_SET_ERRHANDLER(fh, eh, ierr)
  ncalls = 0; recobj = -1; reccode = -1
  call MPI_FILE_CALL_ERRHANDLER(fh, MPI_ERR_OTHER, ierr)
  call check(ncalls == 1 .and. recobj == fh .and. reccode == MPI_ERR_OTHER, 'MPI 4.1 §9.5: MPI_FILE_CALL_ERRHANDLER runs the Fortran handler with FILE and the code')
  ncalls = 0; reccode = -1
  call MPI_FILE_SEEK(fh, -1_MPI_OFFSET_KIND, MPI_SEEK_SET, ierr)
  call check(ierr /= MPI_SUCCESS .and. ncalls == 1 .and. reccode == ierr .and. recobj == fh, &
       'MPI 4.1 §9.3: an error of MPI_FILE_SEEK (Fortran) runs the Fortran handler')
  ncalls = 0; reccode = -1
  call c_file_seek_bad(fh, rc)
  call check(rc /= MPI_SUCCESS .and. ncalls == 1 .and. reccode == rc .and. recobj == fh, &
       'MPI 4.1 §9.3: an error of MPI_File_seek (C) runs the Fortran handler')
  call MPI_FILE_CLOSE(fh, ierr)
  call MPI_ERRHANDLER_FREE(eh, ierr)
  call MPI_COMM_CREATE_ERRHANDLER(file_eh, eh, ierr)
  call MPI_FILE_OPEN(MPI_COMM_SELF, 'handlers_f.tmp', MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE, &
       MPI_INFO_NULL, fh, ierr)
  call MPI_FILE_SET_ERRHANDLER(fh, eh, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call check(cls == MPI_ERR_ARG .or. cls == MPI_ERR_ERRHANDLER, 'MPI 4.1 §9.3: a communicator error handler is not a file one')
  call MPI_FILE_CLOSE(fh, ierr)
  call MPI_ERRHANDLER_FREE(eh, ierr)

  ! MPI 4.1 §9.3.5: a Fortran session error handler, given to MPI_SESSION_INIT.
  call MPI_SESSION_CREATE_ERRHANDLER(session_eh, seh, ierr)
  call check(ierr == MPI_SUCCESS .and. seh /= MPI_ERRHANDLER_NULL, 'MPI 4.1 §9.3.5: MPI_SESSION_CREATE_ERRHANDLER')
  call MPI_SESSION_INIT(MPI_INFO_NULL, seh, session, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §11.3.1: MPI_SESSION_INIT with the Fortran handler')
  ncalls = 0; recobj = -1; reccode = -1
  call MPI_SESSION_CALL_ERRHANDLER(session, MPI_ERR_OTHER, ierr)
  call check(ncalls == 1 .and. recobj == session .and. reccode == MPI_ERR_OTHER, 'MPI 4.1 §9.5: MPI_SESSION_CALL_ERRHANDLER runs the Fortran handler')
  ncalls = 0; reccode = -1
  plen = len(pname)
  call MPI_SESSION_GET_NTH_PSET(session, MPI_INFO_NULL, 100000, plen, pname, ierr)
  call check(ierr /= MPI_SUCCESS .and. ncalls == 1 .and. reccode == ierr, 'MPI 4.1 §9.3: an error on the session (Fortran) runs the Fortran handler')
  ncalls = 0; reccode = -1
  call c_session_bad(session, rc)
  call check(rc /= MPI_SUCCESS .and. ncalls == 1 .and. reccode == rc .and. recobj == session, &
       'MPI 4.1 §9.3: an error on the session (C) runs the Fortran handler')
  call MPI_SESSION_FINALIZE(session, ierr)
  call MPI_ERRHANDLER_FREE(seh, ierr)

  call MPI_FINALIZE(ierr)
  print '(A, I0, A)', 'handlers: ', nfail, ' failure(s)'
  if (nfail /= 0) stop 1
contains
  subroutine check(ok, rule)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: rule
    if (.not. ok) then
      print '(A, A)', 'FAIL: ', rule
      nfail = nfail + 1
    end if
  end subroutine check
end program handlers

! USER_FUNCTION(INVEC, INOUTVEC, LEN, DATATYPE) of MPI 4.1 §6.9.5.
subroutine times_ten_add(invec, inoutvec, n, datatype)
  implicit none
  integer :: n, datatype
  integer :: invec(n), inoutvec(n)
  integer :: reclen, recdt, recobj, reccode, ncalls
  common /hrec/ reclen, recdt, recobj, reccode, ncalls
  inoutvec = 10 * invec + inoutvec
  reclen = n
  recdt = datatype
  ncalls = ncalls + 1
end subroutine times_ten_add

subroutine times_ten_add_c(invec, inoutvec, n, datatype)
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer(kind=MPI_COUNT_KIND) :: n
  integer :: datatype
  integer :: invec(n), inoutvec(n)
  integer :: reclen, recdt, recobj, reccode, ncalls
  common /hrec/ reclen, recdt, recobj, reccode, ncalls
  inoutvec = 10 * invec + inoutvec
  reclen = int(n)
  recdt = datatype
  ncalls = ncalls + 1
end subroutine times_ten_add_c

! HANDLER(FILE, ERROR_CODE) of MPI 4.1 §9.3.4.
subroutine file_eh(file, code)
  implicit none
  integer :: file, code
  integer :: reclen, recdt, recobj, reccode, ncalls
  common /hrec/ reclen, recdt, recobj, reccode, ncalls
  recobj = file
  reccode = code
  ncalls = ncalls + 1
end subroutine file_eh

subroutine session_eh(session, code)
  implicit none
  integer :: session, code
  integer :: reclen, recdt, recobj, reccode, ncalls
  common /hrec/ reclen, recdt, recobj, reccode, ncalls
  recobj = session
  reccode = code
  ncalls = ncalls + 1
end subroutine session_eh
