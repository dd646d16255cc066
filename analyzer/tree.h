/* The tree of intervals while a trace is read: nodes found by (parent, region). */
#ifndef PZ_TREE_H
#define PZ_TREE_H

#include <stdint.h>

#include "analysis.h"

struct pz_tree {
    struct pz_analysis *a;
    uint32_t *slots;       /* node index + 1, 0 when empty */
    uint32_t nslots;
    int cap;
};

/* Starts a tree in a with the whole run as node 0. Returns 0 or -1. */
int pz_tree_init(struct pz_tree *t, struct pz_analysis *a);

/* The child of parent for region, made with file, line and id if new; -1 on failure. */
int pz_tree_child(struct pz_tree *t, int parent, uint32_t region, const char *file,
                  unsigned line, unsigned id);

void pz_tree_release(struct pz_tree *t);

#endif
