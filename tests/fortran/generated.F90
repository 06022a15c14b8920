! The generated Fortran bindings (build/fortran_bind.rs) as a user meets them, through `use mpi`
! and, with -DUSE_MPIF_H, include 'mpif.h': statuses and their IGNORE sentinels, LOGICAL
! outputs and inputs, CHARACTER input, arrays of requests / statuses / 1-based indices, choice
! buffers with MPI_IN_PLACE, INOUT positions, and error classes through IERROR.
program generated
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer :: ierr, nfail, cls, req, reqs(3), st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 3)
  integer :: sbuf(4), rbuf(8), i, n, idx, outcount, indices(3), grp, res, vec
  integer :: ni, na, nd, comb, ints(3), types(1), pos, newcomm, tst
  integer(kind=MPI_ADDRESS_KIND) :: addrs(1), a1, a2
  integer :: inf, ses
  character(len=64) :: packbuf
  logical :: flag

  nfail = 0
  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  sbuf = [11, 12, 13, 14]

  ! MPI 4.1 §3.7.2, §3.2.5: a message to oneself; the status is INTEGER(MPI_STATUS_SIZE).
  call MPI_ISEND(sbuf, 4, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, req, ierr)
  call check(ierr == MPI_SUCCESS .and. req /= MPI_REQUEST_NULL, 'MPI 4.1 §3.7.2: MPI_ISEND gives a request')
  ! MPI 4.1 §3.8.1: MPI_IPROBE sets the LOGICAL FLAG to .TRUE. for a pending message.
  flag = .false.
  call MPI_IPROBE(0, 7, MPI_COMM_WORLD, flag, st, ierr)
  call check(ierr == MPI_SUCCESS .and. flag, 'MPI 4.1 §3.8.1: MPI_IPROBE flag is .TRUE.')
  call check(st(MPI_TAG) == 7 .and. st(MPI_SOURCE) == 0, 'MPI 4.1 §3.2.5: probe status source/tag')
  rbuf = 0
  call MPI_RECV(rbuf, 8, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, st, ierr)
  call check(ierr == MPI_SUCCESS .and. all(rbuf(1:4) == sbuf), 'MPI 4.1 §3.2.4: MPI_RECV receives the data')
  call check(st(MPI_SOURCE) == 0 .and. st(MPI_TAG) == 7, 'MPI 4.1 §3.2.5: STATUS(MPI_SOURCE), STATUS(MPI_TAG)')
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call check(n == 4, 'MPI 4.1 §3.2.5: MPI_GET_COUNT of the generated MPI_RECV status')
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call check(req == MPI_REQUEST_NULL, 'MPI 4.1 §3.7.3: MPI_WAIT frees the send request')

  ! MPI 4.1 §3.7.5: arrays of requests and statuses; MPI_STATUSES_IGNORE.
  do i = 1, 3
    call MPI_IRECV(rbuf(i), 1, MPI_INTEGER, 0, 20 + i, MPI_COMM_WORLD, reqs(i), ierr)
  end do
  do i = 3, 1, -1
    call MPI_SEND(sbuf(i), 1, MPI_INTEGER, 0, 20 + i, MPI_COMM_WORLD, ierr)
  end do
  sts = -1
  call MPI_WAITALL(3, reqs, sts, ierr)
  call check(ierr == MPI_SUCCESS .and. all(reqs == MPI_REQUEST_NULL), 'MPI 4.1 §3.7.5: MPI_WAITALL frees every request')
  call check(all(sts(MPI_TAG, :) == [21, 22, 23]), 'MPI 4.1 §3.7.5: one status per request, in order')
  call check(all(rbuf(1:3) == sbuf(1:3)), 'MPI 4.1 §3.7.5: MPI_WAITALL completes the receives')
  call MPI_IRECV(rbuf, 1, MPI_INTEGER, 0, 30, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_SEND(sbuf, 1, MPI_INTEGER, 0, 30, MPI_COMM_WORLD, ierr)
  call MPI_WAITALL(1, reqs, MPI_STATUSES_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS .and. reqs(1) == MPI_REQUEST_NULL, 'MPI 4.1 §3.7.5: MPI_WAITALL with MPI_STATUSES_IGNORE')

  ! MPI 4.1 §3.7.5: indices are 1-based in Fortran.
  reqs = MPI_REQUEST_NULL
  call MPI_IRECV(rbuf, 1, MPI_INTEGER, 0, 40, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_SEND(sbuf, 1, MPI_INTEGER, 0, 40, MPI_COMM_WORLD, ierr)
  idx = -5
  call MPI_WAITANY(3, reqs, idx, st, ierr)
  call check(ierr == MPI_SUCCESS .and. idx == 2, 'MPI 4.1 §3.7.5: MPI_WAITANY INDEX is 1-based')
  call check(st(MPI_TAG) == 40, 'MPI 4.1 §3.7.5: MPI_WAITANY status')
  call MPI_WAITANY(3, reqs, idx, st, ierr)
  call check(idx == MPI_UNDEFINED, 'MPI 4.1 §3.7.5: no active request gives MPI_UNDEFINED')
  call MPI_IRECV(rbuf, 1, MPI_INTEGER, 0, 50, MPI_COMM_WORLD, reqs(3), ierr)
  call MPI_SEND(sbuf, 1, MPI_INTEGER, 0, 50, MPI_COMM_WORLD, ierr)
  indices = 0
  call MPI_WAITSOME(3, reqs, outcount, indices, sts, ierr)
  call check(ierr == MPI_SUCCESS .and. outcount == 1 .and. indices(1) == 3, 'MPI 4.1 §3.7.5: MPI_WAITSOME indices are 1-based')
  call check(sts(MPI_TAG, 1) == 50, 'MPI 4.1 §3.7.5: MPI_WAITSOME statuses')
  flag = .false.
  call MPI_TESTALL(3, reqs, flag, MPI_STATUSES_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS .and. flag, 'MPI 4.1 §3.7.5: MPI_TESTALL over null requests: FLAG .TRUE.')

  ! MPI 4.1 §6.11.2, §6.5.7: choice buffers with MPI_IN_PLACE; per-process count arrays.
  rbuf = [1, 2, 3, 4, 5, 6, 7, 8]
  call MPI_SCAN(MPI_IN_PLACE, rbuf, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS .and. all(rbuf(1:3) == [1, 2, 3]), 'MPI 4.1 §6.11.2: MPI_SCAN in place on one process')
  rbuf = 0
  call MPI_ALLGATHERV(sbuf, 3, MPI_INTEGER, rbuf, [3], [2], MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS .and. all(rbuf(3:5) == sbuf(1:3)) .and. rbuf(2) == 0, &
      'MPI 4.1 §6.7: MPI_ALLGATHERV places the block at DISPLS(1)')

  ! MPI 4.1 §7.4.1: LOGICAL output.
  flag = .false.
  call MPI_OP_COMMUTATIVE(MPI_SUM, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag, 'MPI 4.1 §6.9.7: MPI_SUM is commutative (LOGICAL out)')
  call MPI_COMM_GROUP(MPI_COMM_WORLD, grp, ierr)
  res = -1
  call MPI_GROUP_COMPARE(grp, grp, res, ierr)
  call check(res == MPI_IDENT, 'MPI 4.1 §7.3.1: a group compared with itself is MPI_IDENT')
  ! MPI 4.1 §7.3.2 (CHARACTER input, trailing blanks not significant): a communicator from a group.
  call MPI_COMM_CREATE_FROM_GROUP(grp, 'org.mpicache.generated   ', MPI_INFO_NULL, MPI_ERRORS_RETURN, newcomm, ierr)
  call check(ierr == MPI_SUCCESS .and. newcomm /= MPI_COMM_NULL, 'MPI 4.1 §7.4.2: MPI_COMM_CREATE_FROM_GROUP')
  if (newcomm /= MPI_COMM_NULL) then
    call MPI_COMM_SIZE(newcomm, n, ierr)
    call check(n == 1, 'MPI 4.1 §7.4.2: the new communicator has the group''s size')
    call MPI_COMM_FREE(newcomm, ierr)
  end if
  call MPI_GROUP_FREE(grp, ierr)
  call MPI_TOPO_TEST(MPI_COMM_WORLD, tst, ierr)
  call check(tst == MPI_UNDEFINED, 'MPI 4.1 §8.5.5: no topology is MPI_UNDEFINED')

  ! MPI 4.1 §5.1.13: envelope and contents (arrays of integers, addresses, datatypes).
  call MPI_TYPE_VECTOR(2, 3, 5, MPI_INTEGER, vec, ierr)
  call MPI_TYPE_GET_ENVELOPE(vec, ni, na, nd, comb, ierr)
  call check(comb == MPI_COMBINER_VECTOR .and. ni == 3 .and. na == 0 .and. nd == 1, &
      'MPI 4.1 §5.1.13: MPI_TYPE_GET_ENVELOPE of a vector')
  ints = 0
  types = MPI_DATATYPE_NULL
  call MPI_TYPE_GET_CONTENTS(vec, 3, 0, 1, ints, addrs, types, ierr)
  call check(ierr == MPI_SUCCESS .and. all(ints == [2, 3, 5]) .and. types(1) == MPI_INTEGER, &
      'MPI 4.1 §5.1.13: MPI_TYPE_GET_CONTENTS of a vector')
  call MPI_TYPE_FREE(vec, ierr)

  ! MPI 4.1 §5.2.1: POSITION is INOUT.
  pos = 0
  call MPI_PACK(sbuf, 2, MPI_INTEGER, packbuf, 64, pos, MPI_COMM_WORLD, ierr)
  call MPI_PACK(sbuf(3), 1, MPI_INTEGER, packbuf, 64, pos, MPI_COMM_WORLD, ierr)
  call MPI_PACK_SIZE(3, MPI_INTEGER, MPI_COMM_WORLD, n, ierr)
  call check(ierr == MPI_SUCCESS .and. pos > 0 .and. pos <= n, 'MPI 4.1 §5.2.1: MPI_PACK advances POSITION')
  rbuf = 0
  pos = 0
  call MPI_UNPACK(packbuf, 64, pos, rbuf, 3, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS .and. all(rbuf(1:3) == sbuf(1:3)), 'MPI 4.1 §5.2.1: MPI_UNPACK restores the data')

  ! MPI 4.1 §3.2.5: statuses set and read through the status routines.
  st = 0
  call MPI_STATUS_SET_TAG(st, 99, ierr)
  call check(st(MPI_TAG) == 99, 'MPI 4.1 §3.2.5: MPI_STATUS_SET_TAG writes STATUS(MPI_TAG)')
  call MPI_STATUS_GET_TAG(st, n, ierr)
  call check(n == 99, 'MPI 4.1 §3.2.5: MPI_STATUS_GET_TAG')

  ! MPI 4.1 §9.4: errors come back as IERROR under MPI_ERRORS_RETURN, outputs unchanged.
  call MPI_SEND(sbuf, 1, MPI_DATATYPE_NULL, 0, 1, MPI_COMM_WORLD, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call check(cls == MPI_ERR_TYPE, 'MPI 4.1 §3.2.2: MPI_SEND with MPI_DATATYPE_NULL is MPI_ERR_TYPE')
  req = 12345
  call MPI_IRECV(rbuf, -1, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, req, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call check(cls == MPI_ERR_COUNT .and. req == 12345, 'MPI 4.1 §3.2.2: a negative count is MPI_ERR_COUNT, REQUEST untouched')
  ! MPI 4.1 §5.1.5: the address functions (hand-written: function results).
  a1 = 1000
  a2 = MPI_AINT_ADD(a1, 24_MPI_ADDRESS_KIND)
  call check(a2 == 1024 .and. MPI_AINT_DIFF(a2, a1) == 24, 'MPI 4.1 §5.1.5: MPI_AINT_ADD / MPI_AINT_DIFF')
  ! MPI 4.1 §15.2.4: MPI_PCONTROL has no IERROR; §11.4.4: MPI_INFO_CREATE_ENV without argv.
  call MPI_PCONTROL(1)
  call MPI_INFO_CREATE_ENV(inf, ierr)
  call check(ierr == MPI_SUCCESS .and. inf /= MPI_INFO_NULL, 'MPI 4.1 §11.4.4: MPI_INFO_CREATE_ENV')
  if (inf /= MPI_INFO_NULL) call MPI_INFO_FREE(inf, ierr)

  ! MPI 4.1 §10.3: MPI_INFO_GET_STRING: BUFLEN in is the room, out the value's length; a
  ! shorter room truncates, BUFLEN = 0 leaves VALUE unchanged, an absent key gives .FALSE.
  call MPI_INFO_CREATE(inf, ierr)
  call MPI_INFO_SET(inf, 'colour', 'ultramarine', ierr)
  packbuf = 'x'
  n = len(packbuf)
  call MPI_INFO_GET_STRING(inf, 'colour', n, packbuf, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. n == 11 .and. packbuf == 'ultramarine', &
       'MPI 4.1 §10.3: MPI_INFO_GET_STRING value and length')
  n = 5
  call MPI_INFO_GET_STRING(inf, 'colour', n, packbuf, flag, ierr)
  call check(flag .and. n == 11 .and. packbuf == 'ultra', 'MPI 4.1 §10.3: MPI_INFO_GET_STRING truncates to BUFLEN')
  n = 0
  packbuf = 'kept'
  call MPI_INFO_GET_STRING(inf, 'colour', n, packbuf, flag, ierr)
  call check(flag .and. n == 11 .and. packbuf == 'kept', 'MPI 4.1 §10.3: BUFLEN = 0 leaves VALUE unchanged')
  call MPI_INFO_GET_STRING(inf, 'absent', n, packbuf, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. .not. flag, 'MPI 4.1 §10.3: MPI_INFO_GET_STRING of an absent key')
  call MPI_INFO_FREE(inf, ierr)

  ! MPI 4.1 §11.3.2: MPI_SESSION_GET_NTH_PSET: N counts from 0, PSET_LEN in is the room, out
  ! the name's length; this process has mpi://WORLD and mpi://SELF.
  call MPI_SESSION_INIT(MPI_INFO_NULL, MPI_ERRORS_RETURN, ses, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §11.3.1: MPI_SESSION_INIT')
  call MPI_SESSION_GET_NUM_PSETS(ses, MPI_INFO_NULL, n, ierr)
  call check(ierr == MPI_SUCCESS .and. n == 2, 'MPI 4.1 §11.3.2: MPI_SESSION_GET_NUM_PSETS')
  packbuf = ' '
  n = len(packbuf)
  call MPI_SESSION_GET_NTH_PSET(ses, MPI_INFO_NULL, 0, n, packbuf, ierr)
  call check(ierr == MPI_SUCCESS .and. n == 11 .and. packbuf == 'mpi://WORLD', &
       'MPI 4.1 §11.3.2: MPI_SESSION_GET_NTH_PSET(0) is mpi://WORLD')
  n = 0
  call MPI_SESSION_GET_NTH_PSET(ses, MPI_INFO_NULL, 1, n, packbuf, ierr)
  call check(ierr == MPI_SUCCESS .and. n == 10 .and. packbuf == 'mpi://WORLD', &
       'MPI 4.1 §11.3.2: PSET_LEN = 0 gives the length, leaves PSET_NAME unchanged')
  n = len(packbuf)
  call MPI_SESSION_GET_NTH_PSET(ses, MPI_INFO_NULL, 2, n, packbuf, ierr)
  call check(ierr /= MPI_SUCCESS, 'MPI 4.1 §11.3.2: N beyond the number of process sets is an error')
  call MPI_SESSION_FINALIZE(ses, ierr)
  call check(ierr == MPI_SUCCESS .and. ses == MPI_SESSION_NULL, 'MPI 4.1 §11.3.1: MPI_SESSION_FINALIZE')

#ifdef ILP64
  ! MPI 4.1 §19.1.6 (8-byte INTEGER build): a count the C int cannot hold is an error, never
  ! a truncation (2**40 would truncate to 0).
  req = 12345
  call MPI_IRECV(rbuf, int(2, kind(req))**40, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, req, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call check(cls == MPI_ERR_COUNT .and. req == 12345, 'MPI 4.1 §19.1.6: an 8-byte count over 2**31 is MPI_ERR_COUNT')
  reqs = MPI_REQUEST_NULL
  reqs(2) = int(2, kind(req))**33
  call MPI_WAITALL(3, reqs, MPI_STATUSES_IGNORE, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call check(cls == MPI_ERR_REQUEST, 'MPI 4.1 §19.1.6: an 8-byte request handle in an array that does not fit is MPI_ERR_REQUEST')
#endif
  call MPI_INTERCOMM_MERGE(MPI_COMM_WORLD, .true., newcomm, ierr)
  call check(ierr /= MPI_SUCCESS, 'MPI 4.1 §7.6.2: MPI_INTERCOMM_MERGE of an intracommunicator fails')

  ! The hand-written group set operations (fortran/comm.rs) beside the generated routines.
  call MPI_COMM_GROUP(MPI_COMM_WORLD, grp, ierr)
  call MPI_GROUP_UNION(grp, MPI_GROUP_EMPTY, res, ierr)
  call MPI_GROUP_SIZE(res, n, ierr)
  call check(ierr == MPI_SUCCESS .and. n == 1, 'MPI 4.1 §7.3.2: the union with the empty group is the group')
  call MPI_GROUP_FREE(res, ierr)
  call MPI_GROUP_INTERSECTION(grp, MPI_GROUP_EMPTY, res, ierr)
  call check(ierr == MPI_SUCCESS .and. res == MPI_GROUP_EMPTY, &
             'MPI 4.1 §7.3.2: an empty intersection is MPI_GROUP_EMPTY')
  call MPI_GROUP_DIFFERENCE(grp, grp, res, ierr)
  call check(ierr == MPI_SUCCESS .and. res == MPI_GROUP_EMPTY, &
             'MPI 4.1 §7.3.2: a group less itself is MPI_GROUP_EMPTY')
  res = 12345
  call MPI_GROUP_UNION(grp, MPI_GROUP_NULL, res, ierr)
  call check(ierr /= MPI_SUCCESS .and. res == 12345, &
             'MPI 4.1 §7.3.2: MPI_GROUP_NULL is an invalid group and NEWGROUP is left unchanged')
  call MPI_GROUP_FREE(grp, ierr)

  call MPI_FINALIZE(ierr)
  print '(A, I0, A)', 'generated: ', nfail, ' failure(s)'
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
end program generated
