/* The communicators that follow the nodes of the machine a synthesized run is replayed
 * on (scale_run.h, enum pz_scale_node): classed, across the recordings, as blocks and
 * leaders of PZ_SCALE_NODE_K ranks, every process and rank 0 alone in each of them; given
 * the machine's node size at P before each synthesis (scale_program.h). */
#include "scale_program_int.h"
#include "scale_run_int.h"

/* Does some process send or receive a message on class index `index` of run. */
static int carries_messages(const struct pz_scale_run *run, uint32_t index)
{
    for (int p = 0; p < run->nprocs; p++)
        for (size_t i = 0; i < run->procs[p].nevents; i++)
            if (run->procs[p].events[i].comm == index &&
                pz_scale_is_message(run->procs[p].events[i].kind))
                return 1;
    return 0;
}

/* Does run have a node's communicator still the world, without messages. */
static int node_comm_at(const struct pz_scale_run *run, uint32_t index)
{
    const struct pz_scale_comm *c = &run->comms[index];

    return c->node == PZ_SCALE_NODE_COMM && c->kind == PZ_SCALE_COMM_WORLD && c->ref &&
           !carries_messages(run, index);
}

static void class_run(struct pz_scale_run *run)
{
    int has_node = 0;

    for (uint32_t i = 0; i < run->ncomms; i++)
        has_node |= node_comm_at(run, i);
    for (uint32_t i = 0; i < run->ncomms; i++) {
        struct pz_scale_comm *c = &run->comms[i];
        int leaders = c->node == PZ_SCALE_NODE_LEADERS && c->ref &&
                      (c->kind == PZ_SCALE_COMM_SELF || c->kind == PZ_SCALE_COMM_WORLD);

        if (node_comm_at(run, i))
            *c = (struct pz_scale_comm){ .kind = PZ_SCALE_COMM_BLOCKS, .k = PZ_SCALE_NODE_K,
                                         .node = PZ_SCALE_NODE_COMM };
        else if (has_node && leaders && !carries_messages(run, i))
            *c = (struct pz_scale_comm){ .kind = PZ_SCALE_COMM_LEADERS, .k = PZ_SCALE_NODE_K,
                                         .node = PZ_SCALE_NODE_LEADERS };
        else
            c->node = PZ_SCALE_NODE_NONE;
    }
}

void pz_scale_runs_class_nodes(struct pz_scale_run *runs, size_t n)
{
    for (size_t r = 0; r < n; r++)
        class_run(&runs[r]);
}

int pz_scale_program_nodes(const struct pz_scale_program *m)
{
    int has = 0;

    for (uint32_t i = 0; i < m->table.nevents; i++) {
        uint8_t node = m->table.events[i].comm.node;

        has |= node == PZ_SCALE_NODE_COMM ? PZ_SCALE_HAS_NODE
             : node == PZ_SCALE_NODE_LEADERS ? PZ_SCALE_HAS_LEADERS : 0;
    }
    return has;
}

int pz_scale_nodes_at(const struct pz_scale_program *m, int procs_per_node, int cyclic,
                      int nprocs, struct pz_scale_nodes *out)
{
    int nodes = (nprocs + procs_per_node - 1) / procs_per_node;

    /* one node: the world, whatever the placement */
    *out = (struct pz_scale_nodes){ .cyclic = 0, .k = (uint32_t)nprocs };
    if (nodes <= 1)
        return 0;
    /* a process per node is alone on it, whatever the placement: nodes of 1 in blocks */
    if (!cyclic || procs_per_node == 1) {
        out->k = (uint32_t)procs_per_node;
        return 0;
    }
    /* rank r on node r mod nodes: the first process of each node is ranks 0 to nodes - 1,
     * which no class holds */
    if (pz_scale_program_nodes(m) & PZ_SCALE_HAS_LEADERS)
        return -1;
    *out = (struct pz_scale_nodes){ .cyclic = 1, .k = (uint32_t)nodes };
    return 0;
}

/* The class of a communicator marked node at nodes n. */
static void follow(struct pz_scale_comm *c, const struct pz_scale_nodes *n)
{
    if (c->node == PZ_SCALE_NODE_COMM) {
        c->kind = n->cyclic ? PZ_SCALE_COMM_STRIDE : PZ_SCALE_COMM_BLOCKS;
        c->k = n->k;
    } else if (c->node == PZ_SCALE_NODE_LEADERS) {
        c->k = n->k;
    }
}

void pz_scale_program_follow_nodes(struct pz_scale_program *m, const struct pz_scale_nodes *n)
{
    int leaders = 0, other_leaders = 0;

    for (uint32_t i = 0; i < m->table.nevents; i++) {
        struct pz_scale_comm *c = &m->table.events[i].comm;

        follow(c, n);
        leaders |= c->node == PZ_SCALE_NODE_LEADERS;
        other_leaders |= c->kind == PZ_SCALE_COMM_LEADERS && c->node != PZ_SCALE_NODE_LEADERS;
    }
    for (uint32_t i = 0; i < m->nslots; i++)
        follow(&m->done[i].sig.comm, n);
    for (uint32_t k = 0; k < m->nnodes; k++)
        if (m->nodes[k].kind == SP_STEP && m->nodes[k].guard.nodes)
            m->nodes[k].guard.every = n->k;
    for (uint32_t i = 0; i < m->nconds; i++)
        if (m->conds[i].nodes)
            m->conds[i].every = n->k;
    /* the leaders of the trip counts' classes: the nodes' when they are the only ones */
    if (leaders && !other_leaders)
        m->every = n->k;
}
