/* Graph and distributed graph topologies on one process (MPI 4.1 §8.5.3-§8.5.5, §8.5.8). */
#include <mpi.h>
#include "check.h"

static int cls(int rc)
{
    int c;
    MPI_Error_class(rc, &c);
    return c;
}

int main(int argc, char **argv)
{
    MPI_Comm g, d, dup;
    int index[2], edges[4], nb[4], w[4], sw[4], dw[4];
    int status, nnodes, nedges, n, indeg, outdeg, weighted, newrank;
    int srcs[3], dsts[3], degs[3];

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* A one-node graph with two self-loops (allowed since MPI 2.2). */
    index[0] = 2; edges[0] = 0; edges[1] = 0;
    CHECK_EQ(MPI_Graph_create(MPI_COMM_WORLD, 1, index, edges, 0, &g), MPI_SUCCESS, "MPI 4.1 §8.5.3: self-loops and repeated edges");
    MPI_Topo_test(g, &status);
    CHECK_EQ(status, MPI_GRAPH, "MPI 4.1 §8.5.5: MPI_Topo_test on a graph");
    MPI_Graphdims_get(g, &nnodes, &nedges);
    CHECK(nnodes == 1 && nedges == 2, "MPI 4.1 §8.5.5 MPI_Graphdims_get");
    index[0] = edges[0] = edges[1] = 9;
    MPI_Graph_get(g, 1, 2, index, edges);
    CHECK(index[0] == 2 && edges[0] == 0 && edges[1] == 0, "MPI 4.1 §8.5.5 MPI_Graph_get");
    MPI_Graph_neighbors_count(g, 0, &n);
    CHECK_EQ(n, 2, "MPI 4.1 §8.5.5 MPI_Graph_neighbors_count");
    nb[0] = nb[1] = 9;
    MPI_Graph_neighbors(g, 0, 2, nb);
    CHECK(nb[0] == 0 && nb[1] == 0, "MPI 4.1 §8.5.5 MPI_Graph_neighbors");
    CHECK_EQ(cls(MPI_Graph_neighbors_count(g, 1, &n)), MPI_ERR_RANK, "MPI 4.1 §8.5.5: rank outside the graph");
    CHECK_EQ(cls(MPI_Cartdim_get(g, &n)), MPI_ERR_TOPOLOGY, "MPI 4.1 §8.5.5: a graph is not Cartesian");
    MPI_Comm_dup(g, &dup);
    MPI_Topo_test(dup, &status);
    CHECK_EQ(status, MPI_GRAPH, "MPI 4.1 §8.4: dup copies the graph");
    MPI_Comm_free(&dup);

    /* Errors */
    index[0] = 1; edges[0] = 1;
    CHECK_EQ(cls(MPI_Graph_create(MPI_COMM_WORLD, 1, index, edges, 0, &d)), MPI_ERR_ARG, "MPI 4.1 §8.5.3: an edge to no node");
    index[0] = 1; index[1] = 2; edges[0] = 0; edges[1] = 1;
    CHECK_EQ(cls(MPI_Graph_create(MPI_COMM_WORLD, 2, index, edges, 0, &d)), MPI_ERR_ARG, "MPI 4.1 §8.5.3: more nodes than processes");
    CHECK_EQ(cls(MPI_Graph_create(MPI_COMM_WORLD, -1, index, edges, 0, &d)), MPI_ERR_ARG, "MPI 4.1 §8.5.3: negative nnodes");
    CHECK_EQ(MPI_Graph_create(MPI_COMM_WORLD, 0, index, edges, 0, &d), MPI_SUCCESS, "MPI 4.1 §8.5.3: an empty graph");
    CHECK(d == MPI_COMM_NULL, "MPI 4.1 §8.5.3: a process outside the graph gets MPI_COMM_NULL");
    index[0] = 0;
    CHECK_EQ(MPI_Graph_map(MPI_COMM_WORLD, 1, index, edges, &newrank), MPI_SUCCESS, "MPI 4.1 §8.5.8 MPI_Graph_map");
    CHECK_EQ(newrank, 0, "MPI 4.1 §8.5.8: the process keeps its rank");

    /* Dist_graph_create_adjacent: weighted, two edges to self. */
    srcs[0] = 0; srcs[1] = 0; sw[0] = 5; sw[1] = 6;
    dsts[0] = 0; dsts[1] = 0; dw[0] = 7; dw[1] = 8;
    CHECK_EQ(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, srcs, sw, 2, dsts, dw, MPI_INFO_NULL, 0, &d), MPI_SUCCESS,
             "MPI 4.1 §8.5.4 MPI_Dist_graph_create_adjacent");
    MPI_Topo_test(d, &status);
    CHECK_EQ(status, MPI_DIST_GRAPH, "MPI 4.1 §8.5.5: MPI_Topo_test on a distributed graph");
    MPI_Dist_graph_neighbors_count(d, &indeg, &outdeg, &weighted);
    CHECK(indeg == 2 && outdeg == 2 && weighted, "MPI 4.1 §8.5.5 MPI_Dist_graph_neighbors_count");
    sw[0] = sw[1] = dw[0] = dw[1] = nb[0] = nb[1] = w[0] = w[1] = -1;
    MPI_Dist_graph_neighbors(d, 2, nb, sw, 2, w, dw);
    CHECK(nb[0] == 0 && nb[1] == 0 && sw[0] == 5 && sw[1] == 6, "MPI 4.1 §8.5.5: sources and their weights");
    CHECK(w[0] == 0 && w[1] == 0 && dw[0] == 7 && dw[1] == 8, "MPI 4.1 §8.5.5: destinations and their weights");
    MPI_Comm_free(&d);

    CHECK_EQ(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, srcs, MPI_UNWEIGHTED, 0, dsts, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &d), MPI_SUCCESS,
             "MPI 4.1 §8.5.4: no edges, unweighted");
    MPI_Dist_graph_neighbors_count(d, &indeg, &outdeg, &weighted);
    CHECK(indeg == 0 && outdeg == 0 && !weighted, "MPI 4.1 §8.5.4: MPI_UNWEIGHTED");
    MPI_Comm_free(&d);
    CHECK_EQ(cls(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, srcs, MPI_UNWEIGHTED, 1, dsts + 0, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, NULL)), MPI_ERR_ARG,
             "MPI 4.1 §8.5.4: NULL output");
    srcs[0] = 1;
    CHECK_EQ(cls(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, srcs, MPI_UNWEIGHTED, 1, dsts, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &d)), MPI_ERR_RANK,
             "MPI 4.1 §8.5.4: a source that is no rank");
    srcs[0] = 0; sw[0] = -2;
    CHECK_EQ(cls(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, srcs, sw, 1, dsts, dw, MPI_INFO_NULL, 0, &d)), MPI_ERR_ARG,
             "MPI 4.1 §8.5.4: weights are non-negative");

    /* In one process an in-edge from self is also an out-edge; a graph that gives only the
     * in-edges is inconsistent but accepted (as MPICH and Open MPI do), and a neighbourhood
     * exchange that waits for the missing send is the deadlock error. */
    srcs[0] = 0; srcs[1] = 0;
    CHECK_EQ(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, srcs, MPI_UNWEIGHTED, 0, NULL, NULL, MPI_INFO_NULL, 0, &d), MPI_SUCCESS,
             "MPI 4.1 §8.5.4: in-edges only, the empty side without weights");
    MPI_Dist_graph_neighbors_count(d, &indeg, &outdeg, &weighted);
    CHECK(indeg == 2 && outdeg == 0 && !weighted, "MPI 4.1 §8.5.4: two in-edges, no out-edge, unweighted");
    MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN);
    CHECK_EQ(cls(MPI_Neighbor_allgather(w, 1, MPI_INT, nb, 1, MPI_INT, d)), MPI_ERR_OTHER,
             "MPI 4.1 §8.6: a receive from self that no send matches would wait forever");
    MPI_Comm_free(&d);

    /* Dist_graph_create: edges named by any process; here 0->0 (weight 3) and 0->0 (weight 4). */
    srcs[0] = 0; degs[0] = 2; dsts[0] = 0; dsts[1] = 0; w[0] = 3; w[1] = 4;
    CHECK_EQ(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, srcs, degs, dsts, w, MPI_INFO_NULL, 0, &d), MPI_SUCCESS, "MPI 4.1 §8.5.4 MPI_Dist_graph_create");
    MPI_Dist_graph_neighbors_count(d, &indeg, &outdeg, &weighted);
    CHECK(indeg == 2 && outdeg == 2 && weighted, "MPI 4.1 §8.5.4: each edge 0->0 is an in- and an out-edge");
    MPI_Dist_graph_neighbors(d, 2, nb, sw, 2, edges, dw);
    CHECK(sw[0] + sw[1] == 7 && dw[0] + dw[1] == 7, "MPI 4.1 §8.5.4: the weights go with the edges");
    CHECK_EQ(cls(MPI_Graphdims_get(d, &nnodes, &nedges)), MPI_ERR_TOPOLOGY, "MPI 4.1 §8.5.5: not a graph topology");
    MPI_Comm_free(&d);
    degs[0] = -1;
    CHECK_EQ(cls(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, srcs, degs, dsts, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &d)), MPI_ERR_ARG,
             "MPI 4.1 §8.5.4: negative degree");

    MPI_Comm_free(&g);
    MPI_Finalize();
    return check_summary("topo_graph");
}
