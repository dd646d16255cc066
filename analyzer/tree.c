/* Interval tree nodes in one array; a hash of (parent, region) finds a child. */
#include <stdlib.h>
#include <string.h>

#include "tree.h"

static uint32_t slot_of(int parent, uint32_t region, uint32_t n)
{
    return ((uint32_t)parent * 2654435761u ^ region * 40503u) & (n - 1);
}

static int add_node(struct pz_tree *t, int parent, uint32_t region, const char *file,
                    unsigned line, unsigned id)
{
    struct pz_analysis *a = t->a;
    struct pz_node *n;

    if (a->nnodes == t->cap) {
        int cap = t->cap ? 2 * t->cap : 16;
        struct pz_node *grown = realloc(a->nodes, (size_t)cap * sizeof(*grown));

        if (!grown)
            return -1;
        a->nodes = grown;
        t->cap = cap;
    }
    n = &a->nodes[a->nnodes];
    memset(n, 0, sizeof(*n));
    n->procs = calloc((size_t)a->nprocs, sizeof(*n->procs));
    n->file = strdup(file ? file : "");
    if (!n->procs || !n->file) {
        free(n->procs);
        free(n->file);
        return -1;
    }
    n->parent = parent;
    n->level = parent < 0 ? 0 : a->nodes[parent].level + 1;
    n->region = region;
    n->line = line;
    n->id = id;
    return a->nnodes++;
}

static int rehash(struct pz_tree *t)
{
    uint32_t n = t->nslots ? 2 * t->nslots : 64, *fresh = calloc(n, sizeof(*fresh));

    if (!fresh)
        return -1;
    for (int i = 1; i < t->a->nnodes; i++) {
        uint32_t s = slot_of(t->a->nodes[i].parent, t->a->nodes[i].region, n);

        while (fresh[s])
            s = (s + 1) & (n - 1);
        fresh[s] = (uint32_t)i + 1;
    }
    free(t->slots);
    t->slots = fresh;
    t->nslots = n;
    return 0;
}

int pz_tree_init(struct pz_tree *t, struct pz_analysis *a)
{
    memset(t, 0, sizeof(*t));
    t->a = a;
    return add_node(t, -1, UINT32_MAX, "", 0, 0) == 0 && rehash(t) == 0 ? 0 : -1;
}

int pz_tree_child(struct pz_tree *t, int parent, uint32_t region, const char *file,
                  unsigned line, unsigned id)
{
    const struct pz_node *nodes = t->a->nodes;
    uint32_t s;
    int child;

    for (s = slot_of(parent, region, t->nslots); t->slots[s]; s = (s + 1) & (t->nslots - 1)) {
        int i = (int)t->slots[s] - 1;

        if (nodes[i].parent == parent && nodes[i].region == region)
            return i;
    }
    if ((child = add_node(t, parent, region, file, line, id)) < 0)
        return -1;
    if (2u * (uint32_t)t->a->nnodes > t->nslots)
        return rehash(t) == 0 ? child : -1;
    t->slots[s] = (uint32_t)child + 1;
    return child;
}

void pz_tree_release(struct pz_tree *t)
{
    free(t->slots);
    t->slots = NULL;
}
