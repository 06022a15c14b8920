! The Fortran bindings whose array lengths come from the topology or from other arguments
! (build/fortran_bind.rs): MPI_CART_RANK / MPI_CART_SUB (the Cartesian dimension), the graph
! and distributed graph routines (INDEX, DEGREES, the MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY
! sentinels), the neighbourhood v / w collectives with their I and _INIT forms (the degrees),
! and MPI_TYPE_CREATE_DARRAY (NDIMS), through `use mpi` and, with -DUSE_MPIF_H, mpif.h.
program topo_bindings
#ifdef USE_MPIF_H
  implicit none
  include 'mpif.h'
#else
  use mpi
  implicit none
#endif
  integer :: ierr, nfail, cls, ccomm, scomm, gcomm, dcomm, ucomm, ecomm, rank, n, req
  integer :: index(1), edges(3), nb(3), nnodes, nedges, indeg, outdeg
  integer :: src(2), dst(2), sw(2), dw(2), sbuf(3), rbuf(6), rcounts(2), displs(2)
  integer :: scounts(2), sdispls(2), types(2), dtype, sz, ni, na, nd, comb, ints(12)
  integer(kind=MPI_ADDRESS_KIND) :: asd(2), ard(2), lb, ext, addrs(1)
  integer :: dts(1)
  logical :: weighted, per(1)

  nfail = 0
  call MPI_INIT(ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)

  ! MPI 4.1 §8.5.5: MPI_CART_RANK reads as many COORDS as the grid has dimensions; a periodic
  ! dimension wraps, a coordinate outside a non-periodic one is an error.
  call MPI_CART_CREATE(MPI_COMM_WORLD, 2, [1, 1], [.true., .false.], .false., ccomm, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §8.5.1: MPI_CART_CREATE of a 1x1 grid')
  call MPI_COMM_SET_ERRHANDLER(ccomm, MPI_ERRORS_RETURN, ierr)
  rank = -1
  call MPI_CART_RANK(ccomm, [0, 0], rank, ierr)
  call check(ierr == MPI_SUCCESS .and. rank == 0, 'MPI 4.1 §8.5.5: MPI_CART_RANK of (0,0) is 0')
  rank = -1
  call MPI_CART_RANK(ccomm, [3, 0], rank, ierr)
  call check(ierr == MPI_SUCCESS .and. rank == 0, 'MPI 4.1 §8.5.5: MPI_CART_RANK wraps a periodic coordinate')
  call MPI_CART_RANK(ccomm, [0, 1], rank, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call check(cls == MPI_ERR_RANK .or. cls == MPI_ERR_ARG, 'MPI 4.1 §8.5.5: a coordinate outside a non-periodic dimension is an error')
  call MPI_CART_RANK(MPI_COMM_WORLD, [0, 0], rank, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call check(cls == MPI_ERR_TOPOLOGY, 'MPI 4.1 §8.5.5: MPI_CART_RANK without a Cartesian topology is MPI_ERR_TOPOLOGY')

  ! MPI 4.1 §8.5.7: MPI_CART_SUB with a LOGICAL REMAIN_DIMS as long as the dimension.
  call MPI_CART_SUB(ccomm, [.false., .true.], scomm, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §8.5.7: MPI_CART_SUB succeeds')
  n = -1
  call MPI_CARTDIM_GET(scomm, n, ierr)
  call check(n == 1, 'MPI 4.1 §8.5.7: MPI_CART_SUB keeps the dimensions marked .TRUE.')
  per = .true.
  call MPI_CART_GET(scomm, 1, nb(1:1), per, nb(2:2), ierr)
  call check(.not. per(1), 'MPI 4.1 §8.5.7: the kept dimension keeps its (non-)periodicity')
  call MPI_COMM_FREE(scomm, ierr)

  ! MPI 4.1 §8.5.3: INDEX has NNODES entries and EDGES INDEX(NNODES): one node, three
  ! self-loops.
  call MPI_GRAPH_CREATE(MPI_COMM_WORLD, 1, [3], [0, 0, 0], .false., gcomm, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §8.5.3: MPI_GRAPH_CREATE with self-loops')
  call MPI_GRAPHDIMS_GET(gcomm, nnodes, nedges, ierr)
  call check(nnodes == 1 .and. nedges == 3, 'MPI 4.1 §8.5.5: MPI_GRAPHDIMS_GET gives 1 node, 3 edges')
  index = -1
  edges = -1
  call MPI_GRAPH_GET(gcomm, 1, 3, index, edges, ierr)
  call check(ierr == MPI_SUCCESS .and. index(1) == 3 .and. all(edges == 0), 'MPI 4.1 §8.5.5: MPI_GRAPH_GET gives INDEX (not 1-based) and EDGES')
  n = -1
  call MPI_GRAPH_NEIGHBORS_COUNT(gcomm, 0, n, ierr)
  call check(n == 3, 'MPI 4.1 §8.5.5: MPI_GRAPH_NEIGHBORS_COUNT')
  nb = -1
  call MPI_GRAPH_NEIGHBORS(gcomm, 0, 3, nb, ierr)
  call check(ierr == MPI_SUCCESS .and. all(nb == 0), 'MPI 4.1 §8.5.5: MPI_GRAPH_NEIGHBORS')
  rank = -1
  call MPI_GRAPH_MAP(MPI_COMM_WORLD, 1, [3], [0, 0, 0], rank, ierr)
  call check(ierr == MPI_SUCCESS .and. rank == 0, 'MPI 4.1 §8.5.8: MPI_GRAPH_MAP gives this process rank 0')
  call MPI_GRAPH_CREATE(MPI_COMM_WORLD, 1, [1], [4], .false., ecomm, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call check(cls == MPI_ERR_ARG, 'MPI 4.1 §8.5.3: an edge to a node outside the graph is MPI_ERR_ARG')
  call MPI_COMM_FREE(gcomm, ierr)

  ! MPI 4.1 §8.5.4: a weighted distributed graph with two edges each way.
  call MPI_DIST_GRAPH_CREATE_ADJACENT(MPI_COMM_WORLD, 2, [0, 0], [5, 7], 2, [0, 0], [5, 7], &
       MPI_INFO_NULL, .false., dcomm, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §8.5.4: MPI_DIST_GRAPH_CREATE_ADJACENT, weighted')
  weighted = .false.
  call MPI_DIST_GRAPH_NEIGHBORS_COUNT(dcomm, indeg, outdeg, weighted, ierr)
  call check(indeg == 2 .and. outdeg == 2 .and. weighted, 'MPI 4.1 §8.5.5: MPI_DIST_GRAPH_NEIGHBORS_COUNT (LOGICAL WEIGHTED)')
  src = -1; sw = -1; dst = -1; dw = -1
  call MPI_DIST_GRAPH_NEIGHBORS(dcomm, 2, src, sw, 2, dst, dw, ierr)
  call check(all(src == 0) .and. all(dst == 0) .and. all(sw == [5, 7]) .and. all(dw == [5, 7]), &
       'MPI 4.1 §8.5.5: MPI_DIST_GRAPH_NEIGHBORS gives the ranks and weights')
  src = -1
  call MPI_DIST_GRAPH_NEIGHBORS(dcomm, 2, src, MPI_UNWEIGHTED, 2, dst, MPI_UNWEIGHTED, ierr)
  call check(ierr == MPI_SUCCESS .and. all(src == 0), 'MPI 4.1 §8.5.5: MPI_UNWEIGHTED as the weight outputs')

  ! The same graph unweighted: MPI_UNWEIGHTED recognised by address.
  call MPI_DIST_GRAPH_CREATE_ADJACENT(MPI_COMM_WORLD, 2, [0, 0], MPI_UNWEIGHTED, 2, [0, 0], &
       MPI_UNWEIGHTED, MPI_INFO_NULL, .false., ucomm, ierr)
  weighted = .true.
  call MPI_DIST_GRAPH_NEIGHBORS_COUNT(ucomm, indeg, outdeg, weighted, ierr)
  call check(ierr == MPI_SUCCESS .and. .not. weighted .and. indeg == 2, 'MPI 4.1 §8.5.4: MPI_UNWEIGHTED gives an unweighted graph')
  sw = -1
  call MPI_DIST_GRAPH_NEIGHBORS(ucomm, 2, src, sw, 2, dst, dw, ierr)
  call check(ierr == MPI_SUCCESS .and. all(sw == -1), 'MPI 4.1 §8.5.5: no weights are written for an unweighted graph')
  call MPI_COMM_FREE(ucomm, ierr)

  ! MPI 4.1 §8.5.4: MPI_DIST_GRAPH_CREATE reads DESTINATIONS and WEIGHTS as long as the sum of
  ! DEGREES.
  call MPI_DIST_GRAPH_CREATE(MPI_COMM_WORLD, 1, [0], [2], [0, 0], [3, 4], MPI_INFO_NULL, .false., ucomm, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §8.5.4: MPI_DIST_GRAPH_CREATE, weighted')
  call MPI_DIST_GRAPH_NEIGHBORS(ucomm, 2, src, sw, 2, dst, dw, ierr)
  call check(all(sw == [3, 4]) .and. all(dw == [3, 4]) .and. all(dst == 0), 'MPI 4.1 §8.5.4: the edges of MPI_DIST_GRAPH_CREATE with their weights')
  call MPI_COMM_FREE(ucomm, ierr)
  call MPI_DIST_GRAPH_CREATE(MPI_COMM_WORLD, 0, src, nb, dst, MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, .false., ucomm, ierr)
  call MPI_DIST_GRAPH_NEIGHBORS_COUNT(ucomm, indeg, outdeg, weighted, ierr)
  call check(ierr == MPI_SUCCESS .and. indeg == 0 .and. outdeg == 0, 'MPI 4.1 §8.5.4: MPI_WEIGHTS_EMPTY with no edges')
  call MPI_COMM_FREE(ucomm, ierr)
  call MPI_DIST_GRAPH_CREATE(MPI_COMM_WORLD, 1, [0], [2], [0, 0], MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, .false., ucomm, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call check(cls == MPI_ERR_ARG, 'MPI 4.1 §8.5.4: MPI_WEIGHTS_EMPTY for edges that exist is MPI_ERR_ARG')

  ! MPI 4.1 §8.6.2, §8.6.3: the v / w neighbourhood collectives, arrays as long as the degrees.
  sbuf = [1, 2, 3]
  rbuf = 0
  call MPI_NEIGHBOR_ALLGATHERV(sbuf, 2, MPI_INTEGER, rbuf, [2, 2], [4, 0], MPI_INTEGER, dcomm, ierr)
  call check(ierr == MPI_SUCCESS .and. all(rbuf == [1, 2, 0, 0, 1, 2]), 'MPI 4.1 §8.6.2: MPI_NEIGHBOR_ALLGATHERV places each block at its displacement')
  rbuf = 0
  call MPI_NEIGHBOR_ALLTOALLV(sbuf, [1, 2], [0, 1], MPI_INTEGER, rbuf, [1, 2], [3, 0], MPI_INTEGER, dcomm, ierr)
  call check(ierr == MPI_SUCCESS .and. all(rbuf == [2, 3, 0, 1, 0, 0]), 'MPI 4.1 §8.6.3: MPI_NEIGHBOR_ALLTOALLV')
  rbuf = 0
  asd = [0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND]
  ard = [12_MPI_ADDRESS_KIND, 0_MPI_ADDRESS_KIND]
  types = MPI_INTEGER
  call MPI_NEIGHBOR_ALLTOALLW(sbuf, [1, 2], asd, types, rbuf, [1, 2], ard, types, dcomm, ierr)
  call check(ierr == MPI_SUCCESS .and. all(rbuf == [2, 3, 0, 1, 0, 0]), 'MPI 4.1 §8.6.3: MPI_NEIGHBOR_ALLTOALLW (byte displacements)')
  rbuf = 0
  call MPI_INEIGHBOR_ALLTOALLV(sbuf, [2, 1], [1, 0], MPI_INTEGER, rbuf, [2, 1], [0, 5], MPI_INTEGER, dcomm, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS .and. all(rbuf == [2, 3, 0, 0, 0, 1]), 'MPI 4.1 §8.7: MPI_INEIGHBOR_ALLTOALLV')
  rbuf = 0
  call MPI_INEIGHBOR_ALLGATHERV(sbuf, 1, MPI_INTEGER, rbuf, [1, 1], [1, 3], MPI_INTEGER, dcomm, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS .and. all(rbuf == [0, 1, 0, 1, 0, 0]), 'MPI 4.1 §8.7: MPI_INEIGHBOR_ALLGATHERV')
  rbuf = 0
  call MPI_INEIGHBOR_ALLTOALLW(sbuf, [1, 2], asd, types, rbuf, [1, 2], ard, types, dcomm, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS .and. all(rbuf == [2, 3, 0, 1, 0, 0]), 'MPI 4.1 §8.7: MPI_INEIGHBOR_ALLTOALLW')
  ! MPI 4.1 §8.8: the persistent forms keep the arrays' contents from the _INIT call on
  ! (the binding's converted copies are gone by then; valgrind watches them).
  rcounts = [1, 1]
  displs = [5, 0]
  call MPI_NEIGHBOR_ALLGATHERV_INIT(sbuf, 1, MPI_INTEGER, rbuf, rcounts, displs, MPI_INTEGER, dcomm, MPI_INFO_NULL, req, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §8.8: MPI_NEIGHBOR_ALLGATHERV_INIT')
  rbuf = 0
  call MPI_START(req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS .and. all(rbuf == [1, 0, 0, 0, 0, 1]), 'MPI 4.1 §8.8: MPI_NEIGHBOR_ALLGATHERV_INIT started')
  call MPI_REQUEST_FREE(req, ierr)
  scounts = [1, 2]
  sdispls = [0, 1]
  call MPI_NEIGHBOR_ALLTOALLV_INIT(sbuf, scounts, sdispls, MPI_INTEGER, rbuf, [1, 2], [3, 0], MPI_INTEGER, dcomm, MPI_INFO_NULL, req, ierr)
  rbuf = 0
  call MPI_START(req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS .and. all(rbuf == [2, 3, 0, 1, 0, 0]), 'MPI 4.1 §8.8: MPI_NEIGHBOR_ALLTOALLV_INIT started')
  call MPI_REQUEST_FREE(req, ierr)
  call MPI_NEIGHBOR_ALLTOALLW_INIT(sbuf, [1, 2], asd, types, rbuf, [1, 2], ard, types, dcomm, MPI_INFO_NULL, req, ierr)
  rbuf = 0
  call MPI_START(req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS .and. all(rbuf == [2, 3, 0, 1, 0, 0]), 'MPI 4.1 §8.8: MPI_NEIGHBOR_ALLTOALLW_INIT started')
  call MPI_REQUEST_FREE(req, ierr)
  ! On a Cartesian topology the degrees are 2 per dimension (MPI 4.1 §8.6).
  rbuf = 0
  call MPI_NEIGHBOR_ALLTOALLV(sbuf, [1, 1, 1, 1], [0, 1, 2, 0], MPI_INTEGER, rbuf, [1, 1, 1, 1], [0, 1, 2, 3], MPI_INTEGER, ccomm, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §8.6.3: MPI_NEIGHBOR_ALLTOALLV on a 2-d grid (4 neighbours)')
  call MPI_COMM_FREE(dcomm, ierr)
  call MPI_COMM_FREE(ccomm, ierr)

  ! MPI 4.1 §5.1.4: MPI_TYPE_CREATE_DARRAY reads NDIMS entries of each array.
  call MPI_TYPE_CREATE_DARRAY(1, 0, 2, [4, 6], [MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC], &
       [MPI_DISTRIBUTE_DFLT_DARG, 2], [1, 1], MPI_ORDER_FORTRAN, MPI_INTEGER, dtype, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI 4.1 §5.1.4: MPI_TYPE_CREATE_DARRAY')
  call MPI_TYPE_SIZE(dtype, sz, ierr)
  call MPI_TYPE_GET_EXTENT(dtype, lb, ext, ierr)
  call check(sz == 96 .and. ext == 96, 'MPI 4.1 §5.1.4: one process holds the whole 4x6 INTEGER array')
  call MPI_TYPE_GET_ENVELOPE(dtype, ni, na, nd, comb, ierr)
  call check(comb == MPI_COMBINER_DARRAY .and. ni == 12, 'MPI 4.1 §5.1.13: the darray envelope has 4*NDIMS+4 integers')
  call MPI_TYPE_GET_CONTENTS(dtype, 12, 0, 1, ints, addrs, dts, ierr)
  call check(all(ints == [1, 0, 2, 4, 6, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_DFLT_DARG, 2, 1, 1, MPI_ORDER_FORTRAN]), &
       'MPI 4.1 §5.1.13: the darray contents are the arguments given')
  call MPI_TYPE_FREE(dtype, ierr)
  call MPI_TYPE_CREATE_DARRAY(1, 0, 2, [4, 6], [MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK], &
       [MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG], [2, 1], MPI_ORDER_FORTRAN, MPI_INTEGER, dtype, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call check(cls /= MPI_SUCCESS, 'MPI 4.1 §5.1.4: a process grid larger than SIZE is an error')

  call MPI_FINALIZE(ierr)
  print '(A, I0, A)', 'topo_bindings: ', nfail, ' failure(s)'
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
end program topo_bindings
