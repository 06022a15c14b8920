! The Fortran sentinels (MPI 4.1 §2.5.4, §19.1.3): MPI_IN_PLACE with MPI_ALLREDUCE and
! MPI_REDUCE, MPI_STATUS_IGNORE with MPI_WAIT / MPI_TEST after MPI_COMM_IDUP, MPI_BOTTOM as
! address 0; plus the Fortran collectives, MPI_ALLOC_MEM / MPI_FREE_MEM, MPI_COMM_SPLIT_TYPE
! and the datatype constructors and queries. Choice arguments are passed with one type and rank
! per argument position throughout the file, as gfortran requires of calls without an explicit
! interface. Built with `use mpi` and, with -DUSE_MPIF_H, with include 'mpif.h'.
program sentinels
  use, intrinsic :: iso_c_binding, only: c_f_pointer, c_null_ptr
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer :: ierr, nfail, newcomm, req, status(MPI_STATUS_SIZE), saved(MPI_STATUS_SIZE)
  integer :: a(3), b(3), t, t2, sz, blens(2), idisps(2), types(2), sizes(2), subs(2), starts(2)
  integer :: sharedc, cmp
  integer(kind=MPI_ADDRESS_KIND) :: addr, lb, ext, adisps(2), mem
  integer(kind=MPI_COUNT_KIND) :: csz, clb, cext
  integer, pointer :: p(:)
  logical :: flag

  nfail = 0
  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)

  ! -- MPI_IN_PLACE (MPI 4.1 §6.9.6): the input is taken from the receive buffer, which with
  ! one process already holds the result. --
  b = (/ 1, 2, 3 /)
  call MPI_ALLREDUCE(MPI_IN_PLACE, b, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS .and. all(b == (/ 1, 2, 3 /)), &
             'MPI_ALLREDUCE(MPI_IN_PLACE, ...) keeps the receive buffer (§6.9.6)', nfail)
  b = (/ 4, 5, 6 /)
  call MPI_REDUCE(MPI_IN_PLACE, b, 3, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS .and. all(b == (/ 4, 5, 6 /)), &
             'MPI_REDUCE(MPI_IN_PLACE, ...) at the root keeps the receive buffer (§6.9.1)', nfail)
  ! Without MPI_IN_PLACE the send buffer is copied to the receive buffer.
  a = (/ 7, 8, 9 /)
  b = 0
  call MPI_ALLREDUCE(a(1), b, 3, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS .and. all(b == (/ 7, 8, 9 /)), &
             'MPI_ALLREDUCE of one process is a copy (§6.9.6)', nfail)
  a = (/ 1, 1, 1 /)
  b = 0
  call MPI_REDUCE(a(1), b, 3, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS .and. all(b == 1), 'MPI_REDUCE of one process is a copy', nfail)
  call MPI_BCAST(a, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS .and. all(a == 1), 'MPI_BCAST at the root keeps the buffer', nfail)
  call MPI_BCAST(a, 3, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_ERR_ROOT, 'MPI_BCAST with root 1 of 1 is MPI_ERR_ROOT', nfail)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_BARRIER succeeds', nfail)
  call MPI_BARRIER(MPI_COMM_NULL, ierr)
  call check(ierr == MPI_ERR_COMM, 'MPI_BARRIER(MPI_COMM_NULL) is MPI_ERR_COMM', nfail)

  ! -- MPI_STATUS_IGNORE (MPI 4.1 §3.2.6): nothing is written to it. --
  saved = MPI_STATUS_IGNORE
  call MPI_COMM_IDUP(MPI_COMM_WORLD, newcomm, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS .and. req == MPI_REQUEST_NULL, &
             'MPI_WAIT(MPI_STATUS_IGNORE) completes the MPI_COMM_IDUP request', nfail)
  call check(all(MPI_STATUS_IGNORE == saved), 'MPI_WAIT writes nothing to MPI_STATUS_IGNORE', nfail)
  call MPI_COMM_COMPARE(MPI_COMM_WORLD, newcomm, cmp, ierr)
  call check(cmp == MPI_CONGRUENT, 'the MPI_COMM_IDUP result is congruent', nfail)
  call MPI_COMM_FREE(newcomm, ierr)
  call MPI_COMM_IDUP(MPI_COMM_WORLD, newcomm, req, ierr)
  flag = .false.
  call MPI_TEST(req, flag, MPI_STATUS_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. all(MPI_STATUS_IGNORE == saved), &
             'MPI_TEST writes nothing to MPI_STATUS_IGNORE', nfail)
  call MPI_COMM_FREE(newcomm, ierr)
  ! A real status gets the empty status (MPI 4.1 §3.7.3).
  call MPI_COMM_IDUP(MPI_COMM_WORLD, newcomm, req, ierr)
  status = 12345
  call MPI_WAIT(req, status, ierr)
  call check(status(MPI_SOURCE) == MPI_ANY_SOURCE .and. status(MPI_TAG) == MPI_ANY_TAG .and. &
             status(MPI_ERROR) == MPI_SUCCESS, 'MPI_WAIT with a status writes the empty status', nfail)
  call MPI_COMM_FREE(newcomm, ierr)

  ! -- MPI_BOTTOM (MPI 4.1 §5.1.5): address 0, the origin of MPI_GET_ADDRESS. --
  call MPI_GET_ADDRESS(MPI_BOTTOM, addr, ierr)
  call check(ierr == MPI_SUCCESS .and. addr == 0, 'MPI_GET_ADDRESS(MPI_BOTTOM) is 0', nfail)
  call MPI_GET_ADDRESS(a(1), adisps(1), ierr)
  call MPI_GET_ADDRESS(a(3), adisps(2), ierr)
  call check(adisps(1) /= 0 .and. adisps(2) - adisps(1) == 8, &
             'MPI_GET_ADDRESS of a(3) is 8 bytes after a(1)', nfail)

  ! -- Datatype constructors and queries (MPI 4.1 §5.1). --
  call MPI_TYPE_VECTOR(2, 1, 3, MPI_INTEGER, t, ierr)
  call MPI_TYPE_SIZE(t, sz, ierr)
  call MPI_TYPE_GET_EXTENT(t, lb, ext, ierr)
  call check(ierr == MPI_SUCCESS .and. sz == 8 .and. lb == 0 .and. ext == 16, &
             'MPI_TYPE_VECTOR(2,1,3,INTEGER): size 8, extent 16', nfail)
  call MPI_TYPE_SIZE_X(t, csz, ierr)
  call MPI_TYPE_GET_EXTENT_X(t, clb, cext, ierr)
  call check(csz == 8 .and. clb == 0 .and. cext == 16, 'MPI_TYPE_SIZE_X / GET_EXTENT_X agree', nfail)
  call MPI_TYPE_FREE(t, ierr)
  call MPI_TYPE_CREATE_HVECTOR(2, 1, 12_MPI_ADDRESS_KIND, MPI_INTEGER, t, ierr)
  call MPI_TYPE_GET_EXTENT(t, lb, ext, ierr)
  call check(ierr == MPI_SUCCESS .and. ext == 16, 'MPI_TYPE_CREATE_HVECTOR stride 12: extent 16', nfail)
  call MPI_TYPE_FREE(t, ierr)
  blens = (/ 1, 2 /)
  idisps = (/ 0, 3 /)
  call MPI_TYPE_INDEXED(2, blens, idisps, MPI_INTEGER, t, ierr)
  call MPI_TYPE_SIZE(t, sz, ierr)
  call MPI_TYPE_GET_EXTENT(t, lb, ext, ierr)
  call check(ierr == MPI_SUCCESS .and. sz == 12 .and. ext == 20, 'MPI_TYPE_INDEXED: size 12, extent 20', nfail)
  call MPI_TYPE_FREE(t, ierr)
  adisps = (/ 0_MPI_ADDRESS_KIND, 12_MPI_ADDRESS_KIND /)
  call MPI_TYPE_CREATE_HINDEXED(2, blens, adisps, MPI_INTEGER, t, ierr)
  call MPI_TYPE_SIZE(t, sz, ierr)
  call check(ierr == MPI_SUCCESS .and. sz == 12, 'MPI_TYPE_CREATE_HINDEXED: size 12', nfail)
  call MPI_TYPE_FREE(t, ierr)
  call MPI_TYPE_CREATE_INDEXED_BLOCK(2, 2, idisps, MPI_INTEGER, t, ierr)
  call MPI_TYPE_SIZE(t, sz, ierr)
  call check(ierr == MPI_SUCCESS .and. sz == 16, 'MPI_TYPE_CREATE_INDEXED_BLOCK: size 16', nfail)
  call MPI_TYPE_FREE(t, ierr)
  call MPI_TYPE_CREATE_HINDEXED_BLOCK(2, 2, adisps, MPI_INTEGER, t, ierr)
  call MPI_TYPE_SIZE(t, sz, ierr)
  call check(ierr == MPI_SUCCESS .and. sz == 16, 'MPI_TYPE_CREATE_HINDEXED_BLOCK: size 16', nfail)
  call MPI_TYPE_FREE(t, ierr)
  types = (/ MPI_INTEGER, MPI_DOUBLE_PRECISION /)
  adisps = (/ 0_MPI_ADDRESS_KIND, 8_MPI_ADDRESS_KIND /)
  blens = (/ 1, 1 /)
  call MPI_TYPE_CREATE_STRUCT(2, blens, adisps, types, t, ierr)
  call MPI_TYPE_SIZE(t, sz, ierr)
  call MPI_TYPE_GET_TRUE_EXTENT(t, lb, ext, ierr)
  call check(ierr == MPI_SUCCESS .and. sz == 12 .and. lb == 0 .and. ext == 16, &
             'MPI_TYPE_CREATE_STRUCT(INTEGER, DOUBLE PRECISION at 8): size 12, true extent 16', nfail)
  call MPI_TYPE_CREATE_RESIZED(t, 0_MPI_ADDRESS_KIND, 32_MPI_ADDRESS_KIND, t2, ierr)
  call MPI_TYPE_GET_EXTENT(t2, lb, ext, ierr)
  call MPI_TYPE_GET_TRUE_EXTENT_X(t2, clb, cext, ierr)
  call check(ierr == MPI_SUCCESS .and. ext == 32 .and. cext == 16, &
             'MPI_TYPE_CREATE_RESIZED: extent 32, true extent still 16', nfail)
  call MPI_TYPE_FREE(t2, ierr)
  call MPI_TYPE_FREE(t, ierr)
  sizes = (/ 4, 5 /)
  subs = (/ 2, 3 /)
  starts = (/ 1, 1 /)
  call MPI_TYPE_CREATE_SUBARRAY(2, sizes, subs, starts, MPI_ORDER_FORTRAN, MPI_INTEGER, t, ierr)
  call MPI_TYPE_SIZE(t, sz, ierr)
  call MPI_TYPE_GET_EXTENT(t, lb, ext, ierr)
  call check(ierr == MPI_SUCCESS .and. sz == 24 .and. ext == 80, &
             'MPI_TYPE_CREATE_SUBARRAY 2x3 of 4x5: size 24, extent 80 (§5.1.3)', nfail)
  call MPI_TYPE_DUP(t, t2, ierr)
  call MPI_TYPE_COMMIT(t2, ierr)
  call MPI_TYPE_SIZE(t2, sz, ierr)
  call check(ierr == MPI_SUCCESS .and. sz == 24, 'MPI_TYPE_DUP keeps the type map', nfail)
  call MPI_TYPE_FREE(t2, ierr)
  call MPI_TYPE_FREE(t, ierr)
  call MPI_TYPE_CONTIGUOUS(-1, MPI_INTEGER, t, ierr)
  call check(ierr == MPI_ERR_COUNT, 'MPI_TYPE_CONTIGUOUS(-1) is MPI_ERR_COUNT (§2.6.4)', nfail)
  call MPI_TYPE_FREE(t, ierr)
  call check(ierr == MPI_ERR_TYPE, 'MPI_TYPE_FREE of a freed handle is MPI_ERR_TYPE', nfail)

  ! -- MPI_ALLOC_MEM / MPI_FREE_MEM (MPI 4.1 §9.2): BASEPTR is the address. --
  call MPI_ALLOC_MEM(40_MPI_ADDRESS_KIND, MPI_INFO_NULL, mem, ierr)
  call check(ierr == MPI_SUCCESS .and. mem /= 0, 'MPI_ALLOC_MEM returns an address', nfail)
  call c_f_pointer(transfer(mem, c_null_ptr), p, (/ 10 /))
  p = 3
  call check(sum(p) == 30, 'MPI_ALLOC_MEM memory is usable from Fortran', nfail)
  call MPI_FREE_MEM(p, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_FREE_MEM of that memory succeeds', nfail)

  ! -- MPI_COMM_SPLIT_TYPE (MPI 4.1 §7.4.2): one shared-memory domain holds the process. --
  call MPI_COMM_SPLIT_TYPE(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, sharedc, ierr)
  call MPI_COMM_COMPARE(MPI_COMM_WORLD, sharedc, cmp, ierr)
  call check(ierr == MPI_SUCCESS .and. cmp == MPI_CONGRUENT, &
             'MPI_COMM_SPLIT_TYPE holds the process', nfail)
  call MPI_COMM_FREE(sharedc, ierr)
  call MPI_COMM_SPLIT_TYPE(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, sharedc, ierr)
  call check(ierr == MPI_SUCCESS .and. sharedc == MPI_COMM_NULL, &
             'MPI_COMM_SPLIT_TYPE(MPI_UNDEFINED) gives MPI_COMM_NULL', nfail)

  call MPI_FINALIZE(ierr)
  print '(A,I0,A)', 'sentinels: ', nfail, ' failure(s)'
  if (nfail > 0) stop 1

contains

  include 'check.inc'
end program sentinels
