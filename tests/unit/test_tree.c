/* The tree of intervals while a trace is read (analyzer/tree.c): pz_tree_child finds
 * a node by (parent, region), makes it on first use with its level one below its
 * parent's, and keeps finding the same nodes while the node array and the hash grow. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "tree.h"

#define NPROCS 3

static struct pz_analysis an;
static struct pz_tree tree;

static void start(void)
{
    memset(&an, 0, sizeof(an));
    an.nprocs = NPROCS;
    cr_assert_eq(pz_tree_init(&tree, &an), 0, "pz_tree_init failed");
}

static void finish(void)
{
    pz_tree_release(&tree);
    pz_analysis_free(&an);
}

TestSuite(tree, .init = start, .fini = finish);

static int child(int parent, uint32_t region)
{
    char file[64];
    int i;

    snprintf(file, sizeof(file), "/src/r%u.c", (unsigned)region);
    i = pz_tree_child(&tree, parent, region, file, region % 1000, region % 100);
    cr_assert(i > 0 && i < an.nnodes, "pz_tree_child(%d, %u) = %d with %d nodes", parent,
              (unsigned)region, i, an.nnodes);
    return i;
}

/* Every node's per-process statistics exist and are zero. */
static void expect_fresh_stats(int i)
{
    for (int p = 0; p < NPROCS; p++)
        cr_expect(an.nodes[i].procs[p].count == 0 && an.nodes[i].procs[p].exec == 0 &&
                      an.nodes[i].procs[p].mpi == 0,
                  "node %d, process %d: statistics not zero", i, p);
}

Test(tree, the_whole_run_is_node_0)
{
    cr_assert_eq(an.nnodes, 1);
    cr_expect_eq(an.nodes[0].parent, -1);
    cr_expect_eq(an.nodes[0].level, 0);
    cr_expect_str_eq(an.nodes[0].file, "");
    cr_expect_eq(an.nodes[0].line, 0);
    cr_expect_eq(an.nodes[0].id, 0);
    cr_assert_not_null(an.nodes[0].procs);
    expect_fresh_stats(0);
}

/* The same (parent, region) is the same node, whatever file, line and id come with it
 * later; the first ones stay. */
Test(tree, same_parent_and_region_same_node)
{
    int a = pz_tree_child(&tree, 0, 5, "/src/a.c", 10, 1);

    cr_assert_eq(a, 1);
    cr_expect_eq(pz_tree_child(&tree, 0, 5, "/src/a.c", 10, 1), a);
    cr_expect_eq(pz_tree_child(&tree, 0, 5, "/src/other.c", 99, 7), a);
    cr_expect_eq(an.nnodes, 2, "a second node for the same (parent, region)");
    cr_expect_str_eq(an.nodes[a].file, "/src/a.c");
    cr_expect_eq(an.nodes[a].line, 10);
    cr_expect_eq(an.nodes[a].id, 1);
    cr_expect_eq(an.nodes[a].region, 5);
    cr_expect_eq(an.nodes[a].parent, 0);
    cr_expect_eq(an.nodes[a].level, 1);
    expect_fresh_stats(a);
}

/* The same region under different parents: the same code reached elsewhere is another
 * interval.  Region 7 under the whole run, under itself, and under that, three levels
 * deep; region 8 beside the second one; a region without a file. */
Test(tree, same_region_under_different_parents)
{
    int a = pz_tree_child(&tree, 0, 7, "/src/loop.c", 3, 1);
    int b = pz_tree_child(&tree, a, 7, "/src/loop.c", 3, 1);
    int c = pz_tree_child(&tree, b, 7, "/src/loop.c", 3, 1);
    int d = pz_tree_child(&tree, a, 8, "/src/loop.c", 9, 2);
    int e = pz_tree_child(&tree, d, 9, NULL, 0, 0);

    cr_assert_eq(an.nnodes, 6);
    cr_expect(a != b && b != c && a != c, "nodes %d, %d, %d for region 7 under three parents",
              a, b, c);
    cr_expect_eq(an.nodes[a].parent, 0);
    cr_expect_eq(an.nodes[a].level, 1);
    cr_expect_eq(an.nodes[b].parent, a);
    cr_expect_eq(an.nodes[b].level, 2);
    cr_expect_eq(an.nodes[c].parent, b);
    cr_expect_eq(an.nodes[c].level, 3);
    cr_expect_eq(an.nodes[d].parent, a);
    cr_expect_eq(an.nodes[d].level, 2);
    cr_expect_eq(an.nodes[d].id, 2);
    cr_expect_eq(an.nodes[e].parent, d);
    cr_expect_eq(an.nodes[e].level, 3);
    cr_expect_str_eq(an.nodes[e].file, "");
    /* found again, in another order */
    cr_expect_eq(pz_tree_child(&tree, b, 7, "", 0, 0), c);
    cr_expect_eq(pz_tree_child(&tree, a, 8, "", 0, 0), d);
    cr_expect_eq(pz_tree_child(&tree, 0, 7, "", 0, 0), a);
    cr_expect_eq(pz_tree_child(&tree, a, 7, "", 0, 0), b);
    cr_expect_eq(pz_tree_child(&tree, d, 9, "", 0, 0), e);
    cr_expect_eq(an.nnodes, 6);
    for (int i = 1; i < an.nnodes; i++)
        expect_fresh_stats(i);
}

/* Growth: a chain 300 deep, 300 children of the whole run, and region 1 under each of
 * the first 200 nodes of the chain: 800 nodes, the node array reallocated and the hash
 * rehashed several times on the way.  Every node keeps its parent, level, region and
 * file, and is found again, with no node added. */
#define CHAIN 300
#define WIDE 300
#define SHARED 200

Test(tree, survives_growth)
{
    static int chain[CHAIN], wide[WIDE], shared[SHARED];
    int parent = 0;

    for (int i = 0; i < CHAIN; i++)
        parent = chain[i] = child(parent, 1000 + (uint32_t)i);
    for (int i = 0; i < WIDE; i++)
        wide[i] = child(0, 5000 + 64 * (uint32_t)i);
    for (int i = 0; i < SHARED; i++)
        shared[i] = child(chain[i], 1);
    cr_assert_eq(an.nnodes, 1 + CHAIN + WIDE + SHARED);

    for (int i = 0; i < CHAIN; i++) {
        const struct pz_node *n = &an.nodes[chain[i]];
        char file[64];

        snprintf(file, sizeof(file), "/src/r%u.c", 1000u + (unsigned)i);
        cr_expect_eq(n->parent, i ? chain[i - 1] : 0, "chain %d: parent", i);
        cr_expect_eq(n->level, i + 1, "chain %d: level %d", i, n->level);
        cr_expect_eq(n->region, 1000u + (unsigned)i);
        cr_expect_str_eq(n->file, file);
        cr_expect_eq(child(i ? chain[i - 1] : 0, 1000 + (uint32_t)i), chain[i],
                     "chain %d: not found again", i);
    }
    for (int i = 0; i < WIDE; i++) {
        cr_expect_eq(an.nodes[wide[i]].parent, 0);
        cr_expect_eq(an.nodes[wide[i]].level, 1);
        cr_expect_eq(child(0, 5000 + 64 * (uint32_t)i), wide[i], "wide %d: not found again", i);
    }
    for (int i = 0; i < SHARED; i++) {
        cr_expect_eq(an.nodes[shared[i]].parent, chain[i]);
        cr_expect_eq(an.nodes[shared[i]].level, i + 2);
        cr_expect_eq(an.nodes[shared[i]].region, 1);
        cr_expect_eq(child(chain[i], 1), shared[i], "shared %d: not found again", i);
        for (int j = 0; j < i; j++)
            cr_assert_neq(shared[i], shared[j]);
    }
    cr_expect_eq(an.nnodes, 1 + CHAIN + WIDE + SHARED, "lookups added nodes");
    for (int i = 0; i < an.nnodes; i++)
        expect_fresh_stats(i);
}

/* Random lookups against a plain list of (parent, region): 4000 of them, parents among
 * the nodes so far, regions among 12 (many repeats, including regions 0 and the largest
 * ones, and pairs whose hashes collide). */
Test(tree, agrees_with_a_list)
{
    static const uint32_t regions[] = { 0, 1, 2, 3, 40503, 2654435761u, 64, 128,
                                        UINT32_MAX - 1, 77, 1u << 31, 12345 };
    uint64_t x = 12345678901ull;

    for (int round = 0; round < 4000; round++) {
        int parent, expected = -1, got;
        uint32_t region;

        x = x * 6364136223846793005ull + 1442695040888963407ull;
        parent = (int)((x >> 33) % (uint64_t)an.nnodes);
        region = regions[(x >> 17) % (sizeof(regions) / sizeof(regions[0]))];
        for (int i = 1; i < an.nnodes; i++)
            if (an.nodes[i].parent == parent && an.nodes[i].region == region)
                expected = i;
        got = pz_tree_child(&tree, parent, region, "f.c", 1, 1);
        if (expected >= 0) {
            cr_assert_eq(got, expected, "round %d: (%d, %u) is node %d, got %d", round, parent,
                         (unsigned)region, expected, got);
        } else {
            cr_assert_eq(got, an.nnodes - 1, "round %d: (%d, %u) new node %d, expected %d",
                         round, parent, (unsigned)region, got, an.nnodes - 1);
            cr_assert_eq(an.nodes[got].level, an.nodes[parent].level + 1);
        }
    }
    cr_expect_gt(an.nnodes, 500, "only %d nodes: the test did not grow the tree", an.nnodes);
}
