! The generated Fortran bindings through mpi_f08 (MPI 4.1 §19.1–§19.3): TYPE(MPI_Status) and
! arrays of it, TYPE(MPI_Request) arrays, TYPE(MPI_Datatype) arrays, LOGICAL and CHARACTER
! arguments, choice buffers with MPI_IN_PLACE, OPTIONAL ierror, and error classes.
program f08_generated
  use mpi_f08
  implicit none
  integer :: ierr, nfail, cls, sbuf(4), rbuf(8), i, n, idx, ints(3)
  type(MPI_Request) :: req, reqs(3)
  type(MPI_Status) :: st, sts(3)
  type(MPI_Group) :: grp
  type(MPI_Comm) :: newcomm
  type(MPI_Datatype) :: vec, types(1)
  integer(kind=MPI_ADDRESS_KIND) :: addrs(1)
  logical :: flag

  nfail = 0
  call MPI_Init()
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  sbuf = [11, 12, 13, 14]

  ! MPI 4.1 §3.7.2, §19.3.5: TYPE(MPI_Status) fields after a generated MPI_Recv.
  call MPI_Isend(sbuf, 4, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, req)
  flag = .false.
  call MPI_Iprobe(0, 7, MPI_COMM_WORLD, flag, st, ierr)
  call check(ierr == MPI_SUCCESS .and. flag, 'MPI 4.1 §3.8.1: MPI_Iprobe LOGICAL flag')
  call MPI_Recv(rbuf, 8, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, st, ierr)
  call check(ierr == MPI_SUCCESS .and. all(rbuf(1:4) == sbuf), 'MPI 4.1 §3.2.4: MPI_Recv data')
  call check(st%MPI_SOURCE == 0 .and. st%MPI_TAG == 7, 'MPI 4.1 §19.3.5: st%MPI_SOURCE, st%MPI_TAG')
  call MPI_Get_count(st, MPI_INTEGER, n)
  call check(n == 4, 'MPI 4.1 §3.2.5: MPI_Get_count of the status')
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call check(req == MPI_REQUEST_NULL, 'MPI 4.1 §3.7.3: MPI_Wait frees the request')

  ! MPI 4.1 §3.7.5: arrays of TYPE(MPI_Request) and TYPE(MPI_Status).
  do i = 1, 3
    call MPI_Irecv(rbuf(i), 1, MPI_INTEGER, 0, 20 + i, MPI_COMM_WORLD, reqs(i))
  end do
  do i = 3, 1, -1
    call MPI_Send(sbuf(i), 1, MPI_INTEGER, 0, 20 + i, MPI_COMM_WORLD)
  end do
  call MPI_Waitall(3, reqs, sts, ierr)
  call check(ierr == MPI_SUCCESS .and. all(reqs == MPI_REQUEST_NULL), 'MPI 4.1 §3.7.5: MPI_Waitall frees the requests')
  call check(all(sts%MPI_TAG == [21, 22, 23]), 'MPI 4.1 §3.7.5: one TYPE(MPI_Status) per request')
  reqs = MPI_REQUEST_NULL
  call MPI_Irecv(rbuf, 1, MPI_INTEGER, 0, 40, MPI_COMM_WORLD, reqs(3))
  call MPI_Send(sbuf, 1, MPI_INTEGER, 0, 40, MPI_COMM_WORLD)
  call MPI_Waitany(3, reqs, idx, MPI_STATUS_IGNORE)
  call check(idx == 3, 'MPI 4.1 §3.7.5: MPI_Waitany index is 1-based')
  call MPI_Testall(3, reqs, flag, MPI_STATUSES_IGNORE)
  call check(flag, 'MPI 4.1 §3.7.5: MPI_Testall over null requests')

  ! MPI 4.1 §6.11.2, §6.7: MPI_IN_PLACE and count arrays.
  rbuf = [1, 2, 3, 4, 5, 6, 7, 8]
  call MPI_Exscan(MPI_IN_PLACE, rbuf, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §6.11.3: MPI_Exscan in place')
  rbuf = 0
  call MPI_Allgatherv(sbuf, 2, MPI_INTEGER, rbuf, [2], [4], MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS .and. all(rbuf(5:6) == sbuf(1:2)), 'MPI 4.1 §6.7: MPI_Allgatherv with DISPLS')

  ! MPI 4.1 §7.4.2: CHARACTER stringtag, TYPE(MPI_Errhandler), TYPE(MPI_Group).
  call MPI_Comm_group(MPI_COMM_WORLD, grp)
  call MPI_Comm_create_from_group(grp, 'org.mpicache.f08  ', MPI_INFO_NULL, MPI_ERRORS_RETURN, newcomm, ierr)
  call check(ierr == MPI_SUCCESS .and. newcomm /= MPI_COMM_NULL, 'MPI 4.1 §7.4.2: MPI_Comm_create_from_group')
  if (newcomm /= MPI_COMM_NULL) call MPI_Comm_free(newcomm)
  call MPI_Group_free(grp)
  call MPI_Op_commutative(MPI_SUM, flag)
  call check(flag, 'MPI 4.1 §6.9.7: MPI_Op_commutative LOGICAL out')

  ! MPI 4.1 §5.1.13: TYPE(MPI_Datatype) array output.
  call MPI_Type_vector(2, 3, 5, MPI_INTEGER, vec)
  call MPI_Type_get_contents(vec, 3, 0, 1, ints, addrs, types)
  call check(all(ints == [2, 3, 5]) .and. types(1) == MPI_INTEGER, 'MPI 4.1 §5.1.13: MPI_Type_get_contents')
  call MPI_Type_free(vec)

  ! MPI 4.1 §9.4: error classes through ierror, outputs unchanged.
  call MPI_Send(sbuf, 1, MPI_DATATYPE_NULL, 0, 1, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_TYPE, 'MPI 4.1 §3.2.2: MPI_DATATYPE_NULL is MPI_ERR_TYPE')
  call MPI_Probe(0, 1, MPI_COMM_NULL, st, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_COMM, 'MPI 4.1 §3.8.1: MPI_Probe on MPI_COMM_NULL is MPI_ERR_COMM')

  call MPI_Finalize()
  print '(A, I0, A)', 'f08_generated: ', nfail, ' failure(s)'
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
end program f08_generated
