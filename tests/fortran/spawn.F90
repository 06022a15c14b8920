! MPI_COMM_SPAWN and MPI_COMM_SPAWN_MULTIPLE from Fortran (MPI 4.1 §11.8.2, §11.8.3), through
! `use mpi` and, with -DUSE_MPIF_H, mpif.h: CHARACTER COMMAND / ARGV, MPI_ARGV_NULL,
! MPI_ARGVS_NULL and MPI_ERRCODES_IGNORE. A single process cannot start processes: as the C
! routine, the call gives MPI_ERR_SPAWN, one MPI_ERR_SPAWN per process asked for, and
! INTERCOMM = MPI_COMM_NULL.
program spawn
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer :: ierr, nfail, cls, ic, codes(3), infos(2)
  character(len=8) :: argv(3), cmds(2), argvs(2, 2)

  nfail = 0
  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)

  ic = 12345
  codes = -1
  call MPI_COMM_SPAWN('worker', MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_SELF, ic, codes, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call check(cls == MPI_ERR_SPAWN, 'MPI 4.1 §11.8.2: MPI_COMM_SPAWN in one process is MPI_ERR_SPAWN')
  call check(all(codes(1:2) == MPI_ERR_SPAWN) .and. codes(3) == -1, 'MPI 4.1 §11.8.2: one error code per process asked for (MAXPROCS of them)')
  call check(ic == MPI_COMM_NULL, 'MPI 4.1 §11.8.2: no intercommunicator')

  argv = [character(len=8) :: '-n', 'five', ' ']
  ic = 12345
  call MPI_COMM_SPAWN('worker', argv, 3, MPI_INFO_NULL, 0, MPI_COMM_WORLD, ic, MPI_ERRCODES_IGNORE, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call check(cls == MPI_ERR_SPAWN .and. ic == MPI_COMM_NULL, 'MPI 4.1 §11.8.2: an ARGV ended by a blank entry, MPI_ERRCODES_IGNORE')

  call MPI_COMM_SPAWN('worker', MPI_ARGV_NULL, 1, 987654, 0, MPI_COMM_SELF, ic, codes, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call check(cls == MPI_ERR_INFO, 'MPI 4.1 §11.8.2: an INFO that is no info object is MPI_ERR_INFO')

  cmds = [character(len=8) :: 'a.out', 'b.out']
  infos = MPI_INFO_NULL
  codes = -1
  ic = 12345
  call MPI_COMM_SPAWN_MULTIPLE(2, cmds, MPI_ARGVS_NULL, [1, 2], infos, 0, MPI_COMM_SELF, ic, codes, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call check(cls == MPI_ERR_SPAWN, 'MPI 4.1 §11.8.3: MPI_COMM_SPAWN_MULTIPLE in one process is MPI_ERR_SPAWN')
  call check(all(codes == MPI_ERR_SPAWN) .and. ic == MPI_COMM_NULL, 'MPI 4.1 §11.8.3: the sum of MAXPROCS error codes, no intercommunicator')
  argvs = ' '
  argvs(1, 1) = '-v'
  call MPI_COMM_SPAWN_MULTIPLE(2, cmds, argvs, [1, 1], infos, 0, MPI_COMM_SELF, ic, MPI_ERRCODES_IGNORE, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call check(cls == MPI_ERR_SPAWN, 'MPI 4.1 §11.8.3: a COUNT-by-n ARRAY_OF_ARGV, MPI_ERRCODES_IGNORE')
  call MPI_COMM_SPAWN_MULTIPLE(0, cmds, MPI_ARGVS_NULL, [1], infos, 0, MPI_COMM_SELF, ic, codes, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call check(cls == MPI_ERR_ARG, 'MPI 4.1 §11.8.3: COUNT 0 is MPI_ERR_ARG')

  call MPI_FINALIZE(ierr)
  print '(A, I0, A)', 'spawn: ', nfail, ' failure(s)'
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
end program spawn
