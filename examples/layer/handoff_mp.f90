! The C/Fortran hand-off on many processes (ci/demo.sh, issue 17): every rank sets its own value
! from Fortran under a keyval with MPI_COMM_DUP_FN and a Fortran delete callback, dups the
! communicator, frees the original, and reads the copy from C (MPI 4.1 §20.3.7: a pointer to an
! MPI_Aint holding the value); then frees the dup from C, which runs the Fortran delete callback
! with the dup's handle. Rank 0 gathers and prints one line per rank.
module handoff_mp_cb
  use mpi
  implicit none
  integer :: seen_handle = -1
contains
  subroutine on_delete(comm, keyval, val, extra_state, ierr)
    integer :: comm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: val, extra_state
    seen_handle = comm
    ierr = MPI_SUCCESS
  end subroutine on_delete
end module handoff_mp_cb

program handoff_mp
  use mpi
  use handoff_mp_cb
  implicit none
  integer :: ierr, rank, nproc, k, orig, dup, i, row(4)
  integer, allocatable :: rows(:, :)
  integer(kind=MPI_ADDRESS_KIND) :: val
  integer :: c_read_from_dup, c_free
  external :: c_read_from_dup, c_free
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nproc, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, on_delete, k, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, orig, ierr)
  val = 1000 + rank
  call MPI_COMM_SET_ATTR(orig, k, val, ierr)
  call MPI_COMM_DUP(orig, dup, ierr)
  call MPI_COMM_DELETE_ATTR(orig, k, ierr)
  call MPI_COMM_FREE(orig, ierr)
  row(1) = int(val)
  row(2) = c_read_from_dup(dup, k)
  row(3) = dup
  ierr = c_free(dup)
  row(4) = seen_handle
  allocate(rows(4, nproc))
  call MPI_GATHER(row, 4, MPI_INTEGER, rows, 4, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    print '(A)', 'rank  Fortran sets  C reads the dup (original freed)  dup handle  Fortran delete callback got'
    do i = 1, nproc
      print '(I4,I14,I32,I22,I22,A)', i - 1, rows(1, i), rows(2, i), rows(3, i), rows(4, i), &
        merge('  ok   ', '  WRONG', rows(1, i) == rows(2, i) .and. rows(3, i) == rows(4, i))
    end do
  end if
  call MPI_COMM_FREE_KEYVAL(k, ierr)
  call MPI_FINALIZE(ierr)
end program handoff_mp
