! One file passing buffers of several types, kinds and ranks to the same choice-buffer
! routines through `use mpi`: the module's interfaces take any buffer (as MPICH's and Open MPI's
! modules do), so this compiles without warnings even under -Werror.
program mixed_buffers
  use mpi
  implicit none
  integer :: ierr, failures, ibuf(4), isum(4), iscalar
  double precision :: dbuf(2, 2), dsum(2, 2)
  real :: r
  failures = 0
  call MPI_INIT(ierr)
  ibuf = 3
  dbuf = 1.5d0
  iscalar = 7
  r = 2.5
  ! MPI 4.1 §6.9: on one process a reduction leaves the send buffer's values in the receive buffer.
  call MPI_ALLREDUCE(ibuf, isum, 4, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. any(isum /= 3)) failures = failures + 1
  call MPI_ALLREDUCE(dbuf, dsum, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. any(dsum /= 1.5d0)) failures = failures + 1
  call MPI_ALLREDUCE(MPI_IN_PLACE, isum, 4, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. any(isum /= 3)) failures = failures + 1
  call MPI_BCAST(iscalar, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. iscalar /= 7) failures = failures + 1
  call MPI_BCAST(r, 1, MPI_REAL, 0, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. r /= 2.5) failures = failures + 1
  ! MPI 4.1 §6.5, §6.7: gather and allgather move the process's own part.
  isum = 0
  call MPI_GATHER(ibuf, 4, MPI_INTEGER, isum, 4, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. any(isum /= 3)) failures = failures + 1
  dsum = 0
  call MPI_ALLGATHER(dbuf, 4, MPI_DOUBLE_PRECISION, dsum, 4, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. any(dsum /= 1.5d0)) failures = failures + 1
  call MPI_FINALIZE(ierr)
  print '(I0, A, I0, A)', 7 - failures, ' passed, ', failures, ' failed'
  if (failures /= 0) stop 1
end program mixed_buffers
