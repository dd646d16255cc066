/* Open MPI 4.1's tree Bcast and Reduce without segments (ompi/mca/coll/base/
 * coll_base_bcast.c, coll_base_reduce.c over the trees of coll_base_topo.c), and the
 * operations Open MPI composes of its own Reduce, Bcast and Scatter.
 *
 * With the fixed rules' segment size 0 a tree moves the whole vector over each edge
 * once.  Bcast (ompi_coll_base_bcast_intra_generic): a member receives from its parent
 * (a round), then Isends to all its children in the tree's order and waits for them
 * all (a round).  Reduce (ompi_coll_base_reduce_generic): a member receives from each
 * child in the tree's order and combines what it got (a round each; Open MPI keeps the
 * next child's receive posted meanwhile), then sends the result to its parent. */
#include "coll_algos.h"

enum tree {
    BMTREE,                      /* ompi_coll_base_topo_build_bmtree */
    BINTREE,                     /* ompi_coll_base_topo_build_tree, fan-out 2 */
    KMTREE,                      /* ompi_coll_base_topo_build_kmtree, radix 4 (the MCA
                                    default coll_tuned_bcast_algorithm_knomial_radix) */
    IN_ORDER_BINTREE             /* ompi_coll_base_topo_build_in_order_bintree */
};

#define RADIX 4

static int highbit(int v)
{
    int b = 1;

    while (b <= v / 2)
        b *= 2;
    return b;
}

/* The binomial tree of bmtree: v's children are v + m for the powers of two m above v,
 * nearest first; its parent is v without its highest bit. */
static int bmtree_child(int p, int v, int i)
{
    int m = v ? 2 * highbit(v) : 1;

    for (; i > 0; i--)
        m *= 2;
    return v + m < p ? v + m : -1;
}

/* The binary tree level by level: v on level L (2^L - 1 <= v < 2^(L+1) - 1) has the
 * children v + 2^L and v + 2^(L+1). */
static int bintree_child(int p, int v, int i)
{
    int delta = highbit(v + 1), child = v + delta * (i + 1);

    return i < 2 && child < p ? child : -1;
}

static int bintree_parent(int v)
{
    int delta = highbit(v + 1), limit = delta - 1;

    if (v < 2)
        return 0;
    while (v >= limit)
        v -= delta / 2;
    return v;
}

/* The radix-4 tree: v's parent is v with its lowest nonzero base-4 digit cleared; its
 * children are v + m r (r = 1 .. 3) for the powers m of 4 below that digit, the
 * largest m first. */
static int kmtree_top(int p, int v)
{
    int mask = 1;

    while (mask < p && v % (RADIX * mask) == 0)
        mask *= RADIX;
    return mask;
}

static int kmtree_child(int p, int v, int i)
{
    for (int mask = kmtree_top(p, v) / RADIX; mask > 0; mask /= RADIX)
        for (int r = 1; r < RADIX; r++)
            if (v + mask * r < p && i-- == 0)
                return v + mask * r;
    return -1;
}

static int kmtree_parent(int p, int v)
{
    int step = RADIX * kmtree_top(p, v);

    return v / step * step;
}

/* The in-order binary tree of ranks 0 .. p-1 rooted at p - 1: a parent's left child is
 * the rank below it, its right child tops the lower p/2 ranks.  Walks down from the
 * root to r; parent -1 for the root, children -1 where there is none. */
static void in_order_bintree(int p, int r, int *parent, int child[2])
{
    int size = p, top = p - 1, delta = 0, me = r;

    *parent = -1;
    for (;;) {
        int right = size >> 1, lchild = size > 1 ? top - 1 : -1;
        int rchild = lchild > 0 ? right - 1 : -1;

        if (me == top) {
            child[0] = lchild >= 0 ? lchild + delta : -1;
            child[1] = rchild >= 0 ? rchild + delta : -1;
            return;
        }
        if (me > rchild) {
            if (me == lchild)
                *parent = top + delta;
            size -= right + 1;
            delta += right;
            me -= right;
            top = size - 1;
        } else {
            if (me == rchild)
                *parent = top + delta;
            size = right;
            top = rchild;
        }
    }
}

/* Child i (0, 1 ...) of relative rank v, -1 past the last; the parent of v > 0. */
static int child_of(enum tree t, int p, int v, int i)
{
    int parent, child[2];

    switch (t) {
    case BMTREE:
        return bmtree_child(p, v, i);
    case BINTREE:
        return bintree_child(p, v, i);
    case KMTREE:
        return kmtree_child(p, v, i);
    default:
        in_order_bintree(p, v, &parent, child);
        return i == 0 ? child[0] : i == 1 && child[0] >= 0 ? child[1] : -1;
    }
}

static int parent_of(enum tree t, int p, int v)
{
    int parent, child[2];

    switch (t) {
    case BMTREE:
        return v - highbit(v);
    case BINTREE:
        return bintree_parent(v);
    case KMTREE:
        return kmtree_parent(p, v);
    default:
        in_order_bintree(p, v, &parent, child);
        return parent;
    }
}

static void tree_bcast(const struct pz_coll *c, struct pz_walk *w, enum tree t)
{
    int v = pz_internal_rel(c, c->root);

    if (v > 0 && pz_internal_walk_round(w))
        pz_internal_walk_recv(w, pz_internal_abs(c, c->root, parent_of(t, c->size, v)),
                              c->bytes);
    if (child_of(t, c->size, v, 0) >= 0 && pz_internal_walk_round(w))
        for (int i = 0, k; (k = child_of(t, c->size, v, i)) >= 0; i++)
            pz_internal_walk_send(w, pz_internal_abs(c, c->root, k), c->bytes);
}

/* The relative rank at the top of tree t: 0, but P - 1 for the in-order binary tree. */
static int top_of(enum tree t, int p)
{
    return t == IN_ORDER_BINTREE ? p - 1 : 0;
}

/* Reduce over tree t of ranks relative to `base`. */
static void tree_reduce(const struct pz_coll *c, struct pz_walk *w, enum tree t, int base)
{
    int v = pz_internal_rel(c, base), top = top_of(t, c->size);

    for (int i = 0, k; (k = child_of(t, c->size, v, i)) >= 0; i++)
        if (pz_internal_walk_round(w)) {
            pz_internal_walk_recv(w, pz_internal_abs(c, base, k), c->bytes);
            pz_internal_walk_reduce(w, c->bytes);
        }
    if (v != top && pz_internal_walk_round(w))
        pz_internal_walk_send(w, pz_internal_abs(c, base, parent_of(t, c->size, v)),
                              c->bytes);
}

static void bcast_bmtree(const struct pz_coll *c, struct pz_walk *w)
{
    tree_bcast(c, w, BMTREE);
}

static void bcast_bintree(const struct pz_coll *c, struct pz_walk *w)
{
    tree_bcast(c, w, BINTREE);
}

static void bcast_kmtree(const struct pz_coll *c, struct pz_walk *w)
{
    tree_bcast(c, w, KMTREE);
}

static void reduce_bintree(const struct pz_coll *c, struct pz_walk *w)
{
    tree_reduce(c, w, BINTREE, c->root);
}

/* ompi_coll_base_reduce_intra_in_order_binary: the tree is rooted at rank P - 1 (ranks,
 * not relative ones), which then sends the result to the root if that is another. */
static void reduce_in_order_bintree(const struct pz_coll *c, struct pz_walk *w)
{
    int top = c->size - 1;

    tree_reduce(c, w, IN_ORDER_BINTREE, 0);   /* relative to 0: the ranks themselves */
    if (c->root == top || (c->me != top && c->me != c->root) || !pz_internal_walk_round(w))
        return;
    if (c->me == top)
        pz_internal_walk_send(w, c->root, c->bytes);
    else
        pz_internal_walk_recv(w, top, c->bytes);
}

/* ompi_coll_base_allreduce_intra_nonoverlapping: Open MPI's Reduce to 0, then its Bcast
 * from 0, each as the fixed rules choose it. */
static void allreduce_nonoverlapping(const struct pz_coll *c, struct pz_walk *w)
{
    pz_internal_ompi_walk_chosen(c, w, PZ_COLL_REDUCE, c->bytes);
    pz_internal_ompi_walk_chosen(c, w, PZ_COLL_BCAST, c->bytes);
}

/* Reduce_scatter's non-overlapping: Reduce of the whole vector to 0, then coll/basic's
 * Scatterv of the blocks (ompi_linear: a blocking send a round, empty blocks skipped). */
static void reduce_scatter_nonoverlapping(const struct pz_coll *c, struct pz_walk *w)
{
    struct pz_coll scatterv = *c;

    pz_internal_ompi_walk_chosen(c, w, PZ_COLL_REDUCE, pz_internal_total(c));
    scatterv.op = PZ_COLL_SCATTERV, scatterv.root = 0;
    scatterv.bytes = pz_internal_block(c, c->me);
    scatterv.send_counts = c->me == 0 ? c->recv_counts : NULL;
    scatterv.recv_counts = NULL;
    pz_internal_walk_of(pz_coll_named(PZ_COLL_SCATTERV, "ompi_linear"))(&scatterv, w);
}

/* Reduce_scatter_block's basic_linear: Reduce of the whole vector to 0, then Scatter of
 * the blocks, each as the fixed rules choose it. */
static void reduce_scatter_block_linear(const struct pz_coll *c, struct pz_walk *w)
{
    pz_internal_ompi_walk_chosen(c, w, PZ_COLL_REDUCE, pz_internal_total(c));
    pz_internal_ompi_walk_chosen(c, w, PZ_COLL_SCATTER, c->bytes);
}

/* Elements of the Bcast's vector and of each piece: ceil(count / P) elements a piece
 * (ompi_coll_base_bcast_intra_scatter_allgather(_ring)). */
static long long piece_elements(const struct pz_coll *c, long long *count)
{
    *count = (long long)(c->bytes / pz_internal_ompi_element_bytes(c->bytes));
    return (*count + c->size - 1) / c->size;
}

/* Bytes of the pieces of relative ranks lo .. hi-1: the last ones short or empty. */
static double pieces(const struct pz_coll *c, int root, int lo, int hi)
{
    long long count, sc = piece_elements(c, &count), n;

    (void)root;
    if (hi > c->size)
        hi = c->size;
    n = count - lo * sc;
    if (n > (long long)(hi - lo) * sc)
        n = (long long)(hi - lo) * sc;
    return n > 0 ? (double)n * pz_internal_ompi_element_bytes(c->bytes) : 0;
}

/* The pieces go down the binomial tree of relative ranks (parent v - lowbit(v), the
 * farthest child first), a blocking call a round, empty ones not sent. */
static void scatter_pieces(const struct pz_coll *c, struct pz_walk *w)
{
    int v = pz_internal_rel(c, c->root), mask = pz_internal_pof2_ceil(c->size);

    if (v > 0) {
        mask = v & -v;
        if (pieces(c, c->root, v, v + mask) > 0 && pz_internal_walk_round(w))
            pz_internal_walk_recv(w, pz_internal_abs(c, c->root, v - mask),
                                  pieces(c, c->root, v, v + mask));
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (v + mask < c->size && pieces(c, c->root, v + mask, v + 2 * mask) > 0 &&
            pz_internal_walk_round(w))
            pz_internal_walk_send(w, pz_internal_abs(c, c->root, v + mask),
                                  pieces(c, c->root, v + mask, v + 2 * mask));
}

/* Fewer elements than members: Open MPI's linear Bcast instead. */
static int too_short(const struct pz_coll *c, struct pz_walk *w)
{
    long long count;

    piece_elements(c, &count);
    if (count >= c->size)
        return 0;
    pz_internal_walk_of(pz_coll_named(PZ_COLL_BCAST, "linear"))(c, w);
    return 1;
}

/* The scatter, then recursive doubling of the pieces with MPICH's fix-up for
 * non-powers of two (Open MPI's is a copy of it). */
static void bcast_scatter_allgather(const struct pz_coll *c, struct pz_walk *w)
{
    if (too_short(c, w))
        return;
    scatter_pieces(c, w);
    pz_internal_rd_fixup(c, w, c->root, pieces, PZ_RD_COPY);
}

/* The scatter, then the ring: P - 1 Sendrecv rounds, empty pieces exchanged too. */
static void bcast_scatter_allgather_ring(const struct pz_coll *c, struct pz_walk *w)
{
    if (too_short(c, w))
        return;
    scatter_pieces(c, w);
    pz_internal_ring_allgather(c, w, c->root, pieces);
}

/* The pair exchange that ends the split binary tree: relative rank v (v > 0, or the
 * root on an even P) swaps its half, `mine` bytes, for the other, `other` bytes. */
static void split_exchange(const struct pz_coll *c, struct pz_walk *w, int v, double mine,
                           double other, double second)
{
    int p = c->size, pair = v % 2 ? v + 1 : v - 1;

    if (p % 2 == 0 && (v == 0 || v == p - 1)) {
        /* the root sends the second half to P - 1, whose pair would be the root */
        if (pz_internal_walk_round(w)) {
            if (v == 0)
                pz_internal_walk_send(w, pz_internal_abs(c, c->root, p - 1), second);
            else
                pz_internal_walk_recv(w, c->root, second);
        }
        return;
    }
    if (v == 0 || !pz_internal_walk_round(w))
        return;
    pz_internal_walk_send(w, pz_internal_abs(c, c->root, pair % p), mine);
    pz_internal_walk_recv(w, pz_internal_abs(c, c->root, pair % p), other);
}

/* ompi_coll_base_bcast_intra_split_bintree with one segment: the vector in halves of
 * ceil(count / 2) and floor(count / 2) elements; the root sends the first half to its
 * left child (relative rank 1) and the second to its right (2), a blocking send each;
 * the binary tree's left subtree (odd relative ranks) passes the first half down, the
 * right (even) the second, a blocking send per child; then each odd rank swaps halves
 * with the next rank (on an even P the last rank gets the second half from the root).
 * An empty half: the pipeline. */
static void bcast_split_bintree(const struct pz_coll *c, struct pz_walk *w)
{
    double e = pz_internal_ompi_element_bytes(c->bytes);
    long long count = (long long)(c->bytes / e), c0 = (count + 1) / 2, c1 = count - c0;
    int v = pz_internal_rel(c, c->root);
    double half[2] = { (double)c0 * e, (double)c1 * e }, mine = half[v % 2 ? 0 : 1];

    if (c0 == 0 || c1 == 0) {
        pz_internal_walk_of(pz_coll_named(PZ_COLL_BCAST, "pipeline"))(c, w);
        return;
    }
    if (v > 0 && pz_internal_walk_round(w))
        pz_internal_walk_recv(w, pz_internal_abs(c, c->root, bintree_parent(v)), mine);
    for (int i = 0, k; (k = bintree_child(c->size, v, i)) >= 0; i++)
        if (pz_internal_walk_round(w))
            pz_internal_walk_send(w, pz_internal_abs(c, c->root, k), v ? mine : half[i]);
    split_exchange(c, w, v, mine, half[v % 2 ? 1 : 0], half[1]);
}

PZ_WALK_ALGO(bcast_bmtree)
PZ_WALK_ALGO(bcast_bintree)
PZ_WALK_ALGO(bcast_kmtree)
PZ_WALK_ALGO(reduce_bintree)
PZ_WALK_ALGO(reduce_in_order_bintree)
PZ_WALK_ALGO(bcast_scatter_allgather)
PZ_WALK_ALGO(bcast_split_bintree)
PZ_WALK_ALGO(bcast_scatter_allgather_ring)
PZ_WALK_ALGO(allreduce_nonoverlapping)
PZ_WALK_ALGO(reduce_scatter_nonoverlapping)
PZ_WALK_ALGO(reduce_scatter_block_linear)

const struct pz_internal_algo pz_internal_coll_ompi_tree[] = {
    PZ_WALK_ENTRY("ompi_binomial", PZ_COLL_BCAST, bcast_bmtree),
    PZ_WALK_ENTRY("binary_tree", PZ_COLL_BCAST, bcast_bintree),
    PZ_WALK_ENTRY("knomial", PZ_COLL_BCAST, bcast_kmtree),
    PZ_WALK_ENTRY("split_binary_tree", PZ_COLL_BCAST, bcast_split_bintree),
    PZ_WALK_ENTRY("scatter_allgather", PZ_COLL_BCAST, bcast_scatter_allgather),
    PZ_WALK_ENTRY("scatter_allgather_ring", PZ_COLL_BCAST, bcast_scatter_allgather_ring),
    PZ_WALK_ENTRY("binary", PZ_COLL_REDUCE, reduce_bintree),
    PZ_WALK_ENTRY("in_order_binary", PZ_COLL_REDUCE, reduce_in_order_bintree),
    PZ_WALK_ENTRY("nonoverlapping", PZ_COLL_ALLREDUCE, allreduce_nonoverlapping),
    PZ_WALK_ENTRY("nonoverlapping", PZ_COLL_REDUCE_SCATTER, reduce_scatter_nonoverlapping),
    PZ_WALK_ENTRY("basic_linear", PZ_COLL_REDUCE_SCATTER_BLOCK, reduce_scatter_block_linear),
    { { NULL, 0, NULL, 0 }, NULL },
};
