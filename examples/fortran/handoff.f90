! Fortran half of the handoff demo: attributes handed between C and Fortran both ways, and
! through callbacks; prints the writer x reader table as observed.
program handoff
  use mpi
  implicit none
  integer :: ierr, kc, kput, kset, kcb, newc, ival
  integer(kind=MPI_ADDRESS_KIND) :: aval, es
  logical :: flag
  call MPI_INIT(ierr)
  es = 0
  print '(A)', 'writer                       reader'
  call demo_c_set(kc)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, kc, aval, flag, ierr)
  print '(A,Z0)', 'C sets &shared (ptr to 3)    Fortran ADDRESS_KIND -> 0x', aval
  call MPI_ATTR_GET(MPI_COMM_WORLD, kc, ival, flag, ierr)
  print '(A,Z8.8)', '                             Fortran MPI_ATTR_GET -> 0x', ival
  call MPI_KEYVAL_CREATE(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, kput, 0, ierr)
  call MPI_ATTR_PUT(MPI_COMM_WORLD, kput, -5, ierr)
  print '(A)', 'Fortran MPI_ATTR_PUT -5'
  call demo_c_read(kput, 0)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, kput, aval, flag, ierr)
  print '(A,I0)', '                             Fortran ADDRESS_KIND -> ', aval
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kset, es, ierr)
  aval = 2_MPI_ADDRESS_KIND**40
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, kset, aval, ierr)
  print '(A)', 'Fortran MPI_COMM_SET_ATTR 2**40'
  call demo_c_read(kset, 1)
  call MPI_ATTR_GET(MPI_COMM_WORLD, kset, ival, flag, ierr)
  print '(A,I0)', '                             Fortran MPI_ATTR_GET -> ', ival
  print '(A)', 'Through callbacks: Fortran sets 42 on a C keyval, dups and frees'
  call demo_c_keyval(kcb)
  aval = 42
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, kcb, aval, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, newc, ierr)
  call MPI_COMM_GET_ATTR(newc, kset, aval, flag, ierr)
  print '(A,I0)', '  MPI_COMM_DUP_FN copy of 2**40 reads from Fortran -> ', aval
  call MPI_COMM_FREE(newc, ierr)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, kcb, ierr)
  call MPI_FINALIZE(ierr)
end program handoff
