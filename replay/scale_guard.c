/* Guards and classes of processes (scale_program_int.h).  A step of the template is
 * made by a process when its guard holds there: the peers its point-to-point events
 * address (and those of the requests it completes) exist in the grid, and the process's
 * position in each dimension (first, middle, last) is one the guard allows.  The
 * allowed positions are chosen from where the recordings made the step: the simplest
 * choice that agrees with every process of every recording; where none does, a parity
 * of the process's coordinates too (a red-black ordering).  A step some processes make
 * as a call to MPI_PROC_NULL is made where its peers do not exist too: its guard is of
 * positions only, and its events are guarded by their peers.  A class of processes is
 * the set of the template's conditions that hold at them, and whether they are the root
 * of a rooted call: the interior, the edges, the corners, the root. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"
#include "trace.h"

/* SP_LONG in a guard's pos[d]: a program may make no calls along a dimension of one
 * process (LAMMPS copies its atoms to itself there): its calls along a dimension
 * recorded at 1 process and at more are made where it is longer, and none where it has
 * 1. */

void sp_positions(const struct pz_scale_grid *g, const int *coords, uint8_t *flags)
{
    for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++) {
        int n = d < g->ndims ? g->dims[d] : 1;
        uint8_t f = 0;

        if (coords[d] == 0)
            f |= SP_FIRST;
        if (coords[d] == n - 1)
            f |= SP_LAST;
        flags[d] = f ? f : SP_MIDDLE;
    }
}

/* The parity of the sum of rank's coordinates in g along the dimensions of bits dims. */
static int coordinate_parity(const struct pz_scale_grid *g, int rank, uint8_t dims)
{
    int c[PZ_SCALE_MAX_DIMS], sum = 0;

    pz_scale_grid_coords(g, rank, c);
    for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++)
        if (dims >> d & 1)
            sum += c[d];
    return sum & 1;
}

int sp_guard_holds(const struct sp_guard *gd, const struct pz_scale_grid *g, int rank,
                   const uint8_t *flags)
{
    if (gd->every && rank % (int)gd->every)
        return 0;
    if (gd->parity && coordinate_parity(g, rank, gd->parity) != gd->odd)
        return 0;
    if ((gd->rank_not && rank == (int)gd->rank_not - 1) ||
        (gd->rank_is && rank != (int)gd->rank_is - 1))
        return 0;
    for (int d = 0; d < g->ndims; d++)
        if (!(flags[d] & gd->pos[d]) || (gd->not_first[d] && (flags[d] & SP_FIRST)) ||
            (gd->not_last[d] && (flags[d] & SP_LAST)) ||
            ((gd->pos[d] & SP_LONG) && g->dims[d] < 2))
            return 0;
    return 1;
}

uint8_t sp_ambiguous_dims(const struct pz_scale_program *m, const struct pz_scale_run *run)
{
    uint8_t mask = 0;

    for (int d = 0; d < m->grid.ndims; d++)
        if (m->grid.periodic[d] && run->grid.dims[d] <= 2)
            mask |= (uint8_t)(1u << d);
    return mask;
}

static void require_peer(const struct pz_scale_program *m, const struct sp_event *e,
                         struct sp_guard *gd)
{
    /* a message to a rank of the world is made by the others */
    if (e->peer.kind == PZ_SCALE_PEER_RANK && e->comm.kind == PZ_SCALE_COMM_WORLD &&
        sp_is_message(e->kind))
        gd->rank_not = (uint32_t)e->peer.rank + 1;
    /* a binomial tree's parent exists at every process but the root */
    if (e->peer.kind == PZ_SCALE_PEER_TREE)
        gd->rank_not = 1;
    if (!sp_grid_offset(e))
        return;
    for (int i = 0; i < PZ_SCALE_MAX_DIMS; i++) {
        int d = sp_world_dim(&e->comm, i);

        if (d < 0 || d >= m->grid.ndims || m->grid.periodic[d])
            continue;
        if (e->peer.off[i] < 0)
            gd->not_first[d] = 1;
        else if (e->peer.off[i] > 0)
            gd->not_last[d] = 1;
    }
}

/* Adds to gd that e's peer and its request's poster's exist. */
static void require_event(const struct pz_scale_program *m, const struct sp_event *e,
                          struct sp_guard *gd)
{
    const struct sp_table *t = &m->table;

    require_peer(m, e, gd);
    if (e->poster_sym != SP_NONE)
        require_peer(m, &t->events[t->syms[e->poster_sym].first + e->poster_event], gd);
}

static void anywhere(struct sp_guard *gd)
{
    memset(gd, 0, sizeof(*gd));
    memset(gd->pos, SP_ANYWHERE, sizeof(gd->pos));
}

void sp_event_guard(const struct pz_scale_program *m, const struct sp_event *e,
                    struct sp_guard *gd)
{
    anywhere(gd);
    require_event(m, e, gd);
}

void sp_peer_guard(const struct pz_scale_program *m, uint32_t sym, struct sp_guard *gd)
{
    const struct sp_table *t = &m->table;
    const struct sp_sym *s = &t->syms[sym];

    anywhere(gd);
    for (uint32_t i = 0; i < s->n; i++)
        require_event(m, &t->events[s->first + i], gd);
}

/* The allowed positions of one dimension, simplest first. */
static const uint8_t choices[] = {
    SP_ANYWHERE, SP_FIRST, SP_LAST, SP_MIDDLE, SP_MIDDLE | SP_LAST, SP_FIRST | SP_MIDDLE,
    SP_FIRST | SP_LAST
};
#define NCHOICES 7

static int constrained(int c0, int c1, int c2)
{
    return (c0 != 0) + (c1 != 0) + (c2 != 0);
}

/* Does guard gd say exactly which processes of every recording made node k? */
static int agrees(const struct pz_scale_program *m, const struct sp_guard *gd,
                  uint64_t *const *made, uint32_t k)
{
    for (size_t r = 0; r < m->nruns; r++) {
        const struct pz_scale_run *run = m->runs[r];
        const uint64_t *bits = made[(size_t)k * m->nruns + r];

        for (int p = 0; p < run->nprocs; p++) {
            uint8_t flags[PZ_SCALE_MAX_DIMS];
            int was = (int)((bits[p / 64] >> (p % 64)) & 1);

            sp_positions(&run->grid, run->procs[p].coords, flags);
            if (sp_guard_holds(gd, &run->grid, p, flags) != was)
                return 0;
        }
    }
    return 1;
}

/* The class of the communicator of sym's first event that has one, of kind
 * PZ_SCALE_COMM_NONE if none has. */
static struct pz_scale_comm comm_class(const struct sp_table *t, uint32_t sym)
{
    const struct sp_sym *s = &t->syms[sym];
    struct pz_scale_comm none = { .kind = PZ_SCALE_COMM_NONE };

    for (uint32_t i = 0; i < s->n; i++)
        if (t->events[s->first + i].comm.kind != PZ_SCALE_COMM_NONE)
            return t->events[s->first + i].comm;
    return none;
}

static void class_name(const struct pz_scale_comm *c, char *buf, size_t len)
{
    if (c->node == PZ_SCALE_NODE_COMM || c->node == PZ_SCALE_NODE_LEADERS) {
        snprintf(buf, len, c->node == PZ_SCALE_NODE_COMM ? "the processes of a node"
                                                         : "the first process of each node");
        return;
    }
    switch (c->kind) {
    case PZ_SCALE_COMM_WORLD: snprintf(buf, len, "the world"); break;
    case PZ_SCALE_COMM_SELF: snprintf(buf, len, "the process alone"); break;
    case PZ_SCALE_COMM_SLICE: snprintf(buf, len, "a slice of the grid"); break;
    case PZ_SCALE_COMM_BLOCKS:
        snprintf(buf, len, "blocks of %u consecutive ranks", c->k);
        break;
    case PZ_SCALE_COMM_STRIDE:
        snprintf(buf, len, "the ranks equal modulo %u", c->k);
        break;
    case PZ_SCALE_COMM_LEADERS:
        snprintf(buf, len, "the leaders' communicator of every %u-th rank", c->k);
        break;
    case PZ_SCALE_COMM_PARTS:
        snprintf(buf, len, "%u blocks of consecutive ranks", c->k);
        break;
    default:
        snprintf(buf, len, "a communicator of no class (neither the world, the process alone "
                 "nor a slice of the grid)");
    }
}

/* The k of the leaders' communicator sym's events use, 0 if none does: only its
 * members make the step. */
static uint32_t leaders_every(const struct sp_table *t, uint32_t sym)
{
    const struct sp_sym *s = &t->syms[sym];

    for (uint32_t i = 0; i < s->n; i++)
        if (t->events[s->first + i].comm.kind == PZ_SCALE_COMM_LEADERS)
            return t->events[s->first + i].comm.k;
    return 0;
}

/* When recording `without` makes the call of node k on a communicator of another class
 * (MPI_COMM_WORLD itself at 2 processes, blocks of 2 ranks at 4; groups the data decide
 * are of no class), that class and node k's, after ": ", into why; else an empty
 * string. */
static void other_class(const struct pz_scale_program *m, uint32_t k, size_t without,
                        char *why, size_t whylen)
{
    const struct sp_sym *s = &m->table.syms[m->nodes[k].sym];
    struct pz_scale_comm mine = comm_class(&m->table, m->nodes[k].sym);

    why[0] = '\0';
    if (mine.kind == PZ_SCALE_COMM_NONE)
        return;
    for (uint32_t j = 0; j < m->nnodes; j++) {
        const struct sp_sym *o = &m->table.syms[m->nodes[j].sym];
        struct pz_scale_comm theirs;
        char a[96], b[96];

        if (j == k || m->nodes[j].kind != SP_STEP || o->region != s->region ||
            m->first_proc[(size_t)j * m->nruns + without] == SP_NONE)
            continue;
        theirs = comm_class(&m->table, m->nodes[j].sym);
        if (theirs.kind != PZ_SCALE_COMM_NONE &&
            (theirs.kind != mine.kind || theirs.k != mine.k)) {
            class_name(&theirs, a, sizeof(a));
            class_name(&mine, b, sizeof(b));
            snprintf(why, whylen, ", which makes %s on %s instead of %s", s->region, a, b);
            return;
        }
    }
}

/* Where a dimension of the grid has 1 process in one recording and more in another, why
 * the steps may not merge, after "; ", into why (else it is left): a program may make no
 * calls along a dimension of one process (LAMMPS copies to itself there: its recordings at
 * 2, 4 and 8 processes have grids of 1 x 1 x 2, 1 x 2 x 2 and 2 x 2 x 2), which
 * along_grown_dimension takes where such a call is made wherever the dimension is
 * longer; this one is not. */
static void one_process_dimension(const struct pz_scale_program *m, char *why, size_t len)
{
    for (size_t s = 0; s < m->nruns; s++)
        for (int d = 0; d < m->runs[s]->grid.ndims; d++)
            for (size_t r = 0; m->runs[s]->grid.dims[d] == 1 && r < m->nruns; r++)
                if (m->runs[r]->grid.dims[d] > 1) {
                    snprintf(why, len, "; the grid's dimension %d has 1 process in %s and %d "
                             "in %s: a program may make no calls along a dimension of one "
                             "process (calls made where it has more are taken as calls "
                             "along it, but this one is not made so in every recording), "
                             "and cannot tell its two neighbours apart along one of 2: "
                             "recordings with 3 or more processes along every dimension "
                             "would tell how it runs", d, m->runs[s]->path,
                             m->runs[r]->grid.dims[d], m->runs[r]->path);
                    return;
                }
}

/* Where a dimension of the grid is periodic with 3 or more processes in one recording
 * and has 1 or 2 in another, why the steps may not merge, after "; ", into why: with 2,
 * both neighbours along it are one process, with 1 the process itself, so that the
 * messages to them are other steps (NAS MG's power-of-two grids at 4, 8, 16 processes:
 * 2 x 2 x 1, 2 x 2 x 2, 4 x 2 x 2); else where a dimension has 1 process in one
 * recording and more in another, that (one_process_dimension); else an empty string. */
static void narrow_dimension(const struct pz_scale_program *m, char *why, size_t len)
{
    why[0] = '\0';
    for (size_t s = 0; s < m->nruns; s++)
        for (int d = 0; d < m->runs[s]->grid.ndims; d++) {
            const struct pz_scale_grid *h = &m->runs[s]->grid;

            if (!h->periodic[d] || h->dims[d] < 3)
                continue;
            for (size_t r = 0; r < m->nruns; r++) {
                const struct pz_scale_grid *g = &m->runs[r]->grid;

                if (g->dims[d] <= 2) {
                    snprintf(why, len, "; the grid's dimension %d is periodic with %d "
                             "processes in %s and has %d in %s, where both neighbours along "
                             "it are %s: recordings with 3 or more processes along every "
                             "periodic dimension would tell them apart", d, h->dims[d],
                             m->runs[s]->path, g->dims[d], m->runs[r]->path,
                             g->dims[d] == 2 ? "one process" : "the process itself");
                    return;
                }
            }
        }
    one_process_dimension(m, why, len);
}

/* Why no guard fits node k, naming a recording, a process, an interval and a call:
 * made in some recordings and in none of the others (a call one recording has more or
 * less), or made by processes that no position in the grid tells apart. */
static void contradiction(const struct pz_scale_program *m, uint32_t k, char *err,
                          size_t errlen)
{
    const char *name = sp_sym_name(&m->table, m->nodes[k].sym);
    size_t with = 0, first_with = 0, first_without = 0, r;
    char where[160], why[768], narrow[768];

    for (r = m->nruns; r-- > 0;)
        if (m->first_proc[(size_t)k * m->nruns + r] != SP_NONE) {
            with++;
            first_with = r;
        } else {
            first_without = r;
        }
    r = first_with;
    sp_where(m, r, m->first_proc[(size_t)k * m->nruns + r],
             m->first_step[(size_t)k * m->nruns + r], where, sizeof(where));
    other_class(m, k, first_without, why, sizeof(why));
    if (!why[0] && !sp_itself_why(m, k, why, sizeof(why))) {
        narrow_dimension(m, narrow, sizeof(narrow));
        snprintf(why, sizeof(why), "%s", narrow);
    }
    if (with < m->nruns && with * 2 <= m->nruns)
        snprintf(err, errlen, "recordings differ: %s: process %u, %s (%s): not in %s%s",
                 m->runs[r]->path, m->first_proc[(size_t)k * m->nruns + r], where, name,
                 m->runs[first_without]->path, why);
    else if (with < m->nruns)
        snprintf(err, errlen, "recordings differ: %s lacks %s of %s (process %u, %s)%s",
                 m->runs[first_without]->path, name, m->runs[r]->path,
                 m->first_proc[(size_t)k * m->nruns + r], where, why);
    else
        snprintf(err, errlen, "recordings differ: the processes making %s follow no pattern "
                 "of the process grid (%s: process %u, %s)", name, m->runs[r]->path,
                 m->first_proc[(size_t)k * m->nruns + r], where);
}

static int made_anywhere(const struct pz_scale_program *m, uint32_t k)
{
    for (size_t r = 0; r < m->nruns; r++)
        if (m->first_proc[(size_t)k * m->nruns + r] != SP_NONE)
            return 1;
    return 0;
}

/* The smallest k above `after` of a leaders' communicator the template's events use, 0
 * if none. */
static uint32_t next_leaders(const struct sp_table *t, uint32_t after)
{
    uint32_t best = 0;

    for (uint32_t i = 0; i < t->nevents; i++) {
        const struct pz_scale_comm *c = &t->events[i].comm;

        if (c->kind == PZ_SCALE_COMM_LEADERS && c->k > after && (!best || c->k < best))
            best = c->k;
    }
    return best;
}

/* Whether node k begins or ends an interval in which a step is made on the leaders of
 * the nodes (PZ_SCALE_NODE_K as built): where the recordings show it made by rank 0
 * alone, the first process of each node makes it at P, as its calls. */
static int around_node_leaders(const struct pz_scale_program *m, uint32_t k)
{
    const struct sp_sym *s = &m->table.syms[m->nodes[k].sym];
    int forward = s->step_kind == PZ_SCALE_BEGIN;

    if (s->step_kind != PZ_SCALE_BEGIN && s->step_kind != PZ_SCALE_END)
        return 0;
    for (uint32_t j = k; forward ? ++j < m->nnodes : j-- > 0;) {
        const struct sp_sym *o = &m->table.syms[m->nodes[j].sym];

        if (m->nodes[j].kind != SP_STEP)
            continue;
        if (o->region == s->region && o->step_kind == (forward ? PZ_SCALE_END : PZ_SCALE_BEGIN))
            return 0;
        if (leaders_every(&m->table, m->nodes[j].sym) == PZ_SCALE_NODE_K)
            return 1;
    }
    return 0;
}

/* Sets node k's guard to the simplest of positions added to `peers` that agrees with
 * where the recordings made it, the dimensions of bits `longer` required to have more
 * than 1 process: 1, or 0 when none does. */
static int search_positions(struct pz_scale_program *m, uint64_t *const *made, uint32_t k,
                            const struct sp_guard *peers, uint8_t longer)
{
    struct sp_guard gd;
    int nd = m->grid.ndims, c[3];

    for (int level = 0; level <= nd; level++)
        for (c[0] = 0; c[0] < NCHOICES; c[0]++)
            for (c[1] = 0; c[1] < (nd > 1 ? NCHOICES : 1); c[1]++)
                for (c[2] = 0; c[2] < (nd > 2 ? NCHOICES : 1); c[2]++) {
                    if (constrained(c[0], c[1], c[2]) != level)
                        continue;
                    gd = *peers;
                    for (int d = 0; d < nd; d++)
                        gd.pos[d] = (uint8_t)(choices[c[d]] | ((longer >> d & 1) ? SP_LONG : 0));
                    if (agrees(m, &gd, made, k)) {
                        m->nodes[k].guard = gd;
                        return 1;
                    }
                }
    return 0;
}

/* The dimensions of the grid that have 1 process in one recording and more in another. */
static uint8_t grown_dimensions(const struct pz_scale_program *m)
{
    uint8_t mask = 0;

    for (int d = 0; d < m->grid.ndims; d++)
        for (size_t r = 0; r < m->nruns; r++)
            if (m->runs[r]->grid.dims[d] == 1)
                for (size_t s = 0; s < m->nruns; s++)
                    if (m->runs[s]->grid.dims[d] > 1)
                        mask |= (uint8_t)(1u << d);
    return mask;
}

/* The dimensions of the world's grid along which an event of sym addresses its peer. */
static uint8_t step_dimensions(const struct sp_table *t, uint32_t sym)
{
    const struct sp_sym *s = &t->syms[sym];
    uint8_t mask = 0;

    for (uint32_t i = 0; i < s->n; i++) {
        const struct sp_event *e = &t->events[s->first + i];

        if (!sp_grid_offset(e))
            continue;
        for (int j = 0; j < PZ_SCALE_MAX_DIMS; j++) {
            int d = sp_world_dim(&e->comm, j);

            if (d >= 0 && e->peer.off[j] != 0)
                mask |= (uint8_t)(1u << d);
        }
    }
    return mask;
}

/* Node k made where a dimension has more than 1 process and nowhere it has 1 (a program
 * that skips its exchange with itself along a dimension of one process): the guard of
 * positions that agrees with where the recordings made it, with that dimension required
 * longer than 1; the dimensions k's peers move along are tried first.  1, or 0 when no
 * such dimension agrees. */
static int along_grown_dimension(struct pz_scale_program *m, uint64_t *const *made,
                                 uint32_t k, const struct sp_guard *peers)
{
    uint8_t grown = grown_dimensions(m), own = step_dimensions(&m->table, m->nodes[k].sym);

    for (int pass = 0; pass < 2; pass++)
        for (int d = 0; d < m->grid.ndims; d++)
            if ((grown >> d & 1) && (own >> d & 1) == !pass &&
                search_positions(m, made, k, peers, (uint8_t)(1u << d)))
                return 1;
    return 0;
}

/* Into buf, what a parity of dimensions `dims` is of: "their coordinate along dimension
 * 0", "the sum of their coordinates along dimensions 0 and 1" (a checkerboard's). */
static void parity_subject(uint8_t dims, char *buf, size_t len)
{
    int list[PZ_SCALE_MAX_DIMS], n = 0;

    for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++)
        if (dims >> d & 1)
            list[n++] = d;
    if (n == 1)
        snprintf(buf, len, "their coordinate along dimension %d", list[0]);
    else if (n == 2)
        snprintf(buf, len, "the sum of their coordinates along dimensions %d and %d", list[0],
                 list[1]);
    else
        snprintf(buf, len, "the sum of their coordinates along dimensions 0, 1 and 2");
}

/* Into buf, which processes parity guard gd's parity names: "where their coordinate
 * along dimension 0 is even". */
static void describe_parity(const struct sp_guard *gd, char *buf, size_t len)
{
    char subject[80];

    parity_subject(gd->parity, subject, sizeof(subject));
    snprintf(buf, len, "where %s is %s", subject, gd->odd ? "odd" : "even");
}

static int bits_set(unsigned v)
{
    int n = 0;

    for (; v; v &= v - 1)
        n++;
    return n;
}

/* Why node k's guard cannot be chosen: the processes that made it are, in every
 * recording, those of guard a's parity and those of guard b's (of other dimensions,
 * as many). */
static void ambiguous_parity(const struct pz_scale_program *m, uint32_t k,
                             const struct sp_guard *a, const struct sp_guard *b, char *err,
                             size_t errlen)
{
    char one[96], other[96], where[160];
    size_t r = 0;

    while (m->first_proc[(size_t)k * m->nruns + r] == SP_NONE)
        r++;
    sp_where(m, r, m->first_proc[(size_t)k * m->nruns + r],
             m->first_step[(size_t)k * m->nruns + r], where, sizeof(where));
    describe_parity(a, one, sizeof(one));
    describe_parity(b, other, sizeof(other));
    snprintf(err, errlen, "recordings differ: the processes making %s (%s: process %u, %s) "
             "are in every recording both those %s and those %s, which differ at other "
             "counts: which parity orders the program's calls cannot be told",
             sp_sym_name(&m->table, m->nodes[k].sym), m->runs[r]->path,
             m->first_proc[(size_t)k * m->nruns + r], where, one, other);
}

/* Whether some recording that made node k tells the parity of dimensions `dims` apart:
 * one of them has 2 processes or more there.  A step made only where they all have 1
 * (calls to the process itself at 2 processes, 2 x 1, and none at 4, 2 x 2) is of no
 * colour of a red-black ordering: a parity and a position would take it for "where the
 * dimension has 1 process", and make it at an odd length (the last process even). */
static int parity_seen(const struct pz_scale_program *m, uint32_t k, unsigned dims)
{
    for (size_t r = 0; r < m->nruns; r++) {
        if (m->first_proc[(size_t)k * m->nruns + r] == SP_NONE)
            continue;
        for (int d = 0; d < m->runs[r]->grid.ndims; d++)
            if ((dims >> d & 1) && m->runs[r]->grid.dims[d] > 1)
                return 1;
    }
    return 0;
}

/* Node k made by the processes of one parity of their coordinates (a red-black
 * ordering: even ranks send first, odd ones receive first): the guard of a parity and
 * positions added to `peers` that agrees with where the recordings made it, the
 * parities of fewer dimensions tried first, each only where a recording making k tells
 * it apart.  1; 0 when none agrees; -1 with err when parities of as many dimensions but
 * different ones agree alike. */
static int by_parity(struct pz_scale_program *m, uint64_t *const *made, uint32_t k,
                     const struct sp_guard *peers, char *err, size_t errlen)
{
    int nd = m->grid.ndims;

    for (int size = 1; size <= nd; size++) {
        struct sp_guard found = {0};

        for (unsigned dims = 1; dims < (1u << nd); dims++)
            for (uint8_t odd = 0; odd < 2 && bits_set(dims) == size && parity_seen(m, k, dims);
                 odd++) {
                struct sp_guard gd = *peers;

                gd.parity = (uint8_t)dims;
                gd.odd = odd;
                if (!search_positions(m, made, k, &gd, 0))
                    continue;
                if (found.parity && found.parity != gd.parity) {
                    ambiguous_parity(m, k, &found, &m->nodes[k].guard, err, errlen);
                    return -1;
                }
                found = m->nodes[k].guard;
            }
        if (found.parity) {
            m->nodes[k].guard = found;
            return 1;
        }
    }
    return 0;
}

/* The world rank + 1 that the template's messages name by rank (the root of a gather
 * written by hand, scale_pairs_root.c), 0 when none does. */
static uint32_t rooted_rank(const struct pz_scale_program *m)
{
    for (uint32_t k = 0; k < m->nnodes; k++) {
        const struct sp_sym *s = &m->table.syms[m->nodes[k].sym];

        for (uint32_t i = 0; m->nodes[k].kind == SP_STEP && i < s->n; i++) {
            const struct sp_event *e = &m->table.events[s->first + i];

            if (e->peer.kind == PZ_SCALE_PEER_RANK && e->comm.kind == PZ_SCALE_COMM_WORLD &&
                sp_is_message(e->kind))
                return (uint32_t)e->peer.rank + 1;
        }
    }
    return 0;
}

/* Where the others send to a root by rank, node k made by that rank alone in every
 * recording (its loop receiving from each in turn) is guarded by the rank, not by a
 * position, which other processes share at other counts.  1 when so, else 0. */
static int at_root_alone(struct pz_scale_program *m, uint64_t *const *made, uint32_t k,
                         const struct sp_guard *peers)
{
    struct sp_guard gd = *peers;

    if (gd.rank_not || !(gd.rank_is = rooted_rank(m)) || !agrees(m, &gd, made, k))
        return 0;
    m->nodes[k].guard = gd;
    return 1;
}

/* The one process of run r that made node k, -1 when none or several did. */
static int made_by_one(const struct pz_scale_program *m, uint64_t *const *made, uint32_t k,
                       size_t r)
{
    const uint64_t *bits = made[(size_t)k * m->nruns + r];
    int one = -1;

    for (int p = 0; p < m->runs[r]->nprocs; p++)
        if ((bits[p / 64] >> (p % 64)) & 1) {
            if (one >= 0)
                return -1;
            one = p;
        }
    return one;
}

/* Node k made by one and the same rank alone in every recording of 3 processes or
 * more, two of them at least, is guarded by that rank: a benchmark's ping-pong between
 * ranks 0 and 1 while the others wait, a server rank.  A position shared by that rank
 * in every recording may be another process's, or several, at other counts (ranks 0
 * and 1 of 2 x 2 x 2 are first along dimensions 0 and 1, as ranks 0 to 3 of 2 x 2 x 4
 * are).  1 when so, else 0. */
static int at_one_rank(struct pz_scale_program *m, uint64_t *const *made, uint32_t k,
                       const struct sp_guard *peers)
{
    struct sp_guard gd = *peers;
    int rank = -1, larger = 0;

    /* the leaders of nodes that each hold every process are rank 0 alone */
    if (gd.every || next_leaders(&m->table, 0))
        return 0;
    for (size_t r = 0; r < m->nruns; r++) {
        int one;

        if (m->runs[r]->nprocs < 3)
            continue;
        if ((one = made_by_one(m, made, k, r)) < 0 || (rank >= 0 && one != rank))
            return 0;
        rank = one;
        larger++;
    }
    if (larger < 2 || gd.rank_not)
        return 0;
    gd.rank_is = (uint32_t)rank + 1;
    if (!agrees(m, &gd, made, k))
        return 0;
    m->nodes[k].guard = gd;
    return 1;
}

/* A step on the leaders' communicator is made by its members only; another step (the
 * beginning of an interval around it) may be too, when no position tells where it is
 * made.  A parity of the coordinates is the last resort: a program whose steps every
 * position explains keeps the guards it had. */
static int infer_one(struct pz_scale_program *m, uint64_t *const *made, uint32_t k,
                     char *err, size_t errlen)
{
    struct sp_guard peers;
    int rc;

    /* a call to MPI_PROC_NULL is made where its peers do not exist: its events are
     * guarded by them, not the step */
    if (m->nodes[k].proc_null)
        anywhere(&peers);
    else
        sp_peer_guard(m, m->nodes[k].sym, &peers);
    peers.every = leaders_every(&m->table, m->nodes[k].sym);
    /* a step in the loop of a binomial tree's children is made where the loop runs */
    if (sp_tree_inside(m, k)) {
        m->nodes[k].guard = peers;
        return 0;
    }
    if (!made_anywhere(m, k)) {
        /* matched by no process (the merge kept a step the walk placed elsewhere): a
         * guard that never holds */
        m->nodes[k].guard = peers;
        m->nodes[k].guard.pos[0] = 0;
        return 0;
    }
    if (!peers.every && around_node_leaders(m, k)) {
        struct sp_guard leaders = peers;

        leaders.every = PZ_SCALE_NODE_K;
        if (search_positions(m, made, k, &leaders, 0))
            return 0;
    }
    if (at_root_alone(m, made, k, &peers) || at_one_rank(m, made, k, &peers) ||
        search_positions(m, made, k, &peers, 0))
        return 0;
    for (uint32_t e = next_leaders(&m->table, 0); !peers.every && e;
         e = next_leaders(&m->table, e)) {
        struct sp_guard members = peers;

        members.every = e;
        if (search_positions(m, made, k, &members, 0))
            return 0;
    }
    if (!peers.every && along_grown_dimension(m, made, k, &peers))
        return 0;
    if (!peers.every && (rc = by_parity(m, made, k, &peers, err, errlen)) != 0)
        return rc > 0 ? 0 : -1;
    contradiction(m, k, err, errlen);
    return -1;
}

static int add_condition(struct pz_scale_program *m, const struct sp_guard *gd)
{
    struct sp_guard *v;

    if (sp_guard_anywhere(gd))
        return 0;
    for (uint32_t i = 0; i < m->nconds; i++)
        if (!memcmp(m->conds[i].pos, gd->pos, sizeof(gd->pos)) &&
            !memcmp(m->conds[i].not_first, gd->not_first, sizeof(gd->not_first)) &&
            !memcmp(m->conds[i].not_last, gd->not_last, sizeof(gd->not_last)) &&
            m->conds[i].every == gd->every && m->conds[i].parity == gd->parity &&
            m->conds[i].odd == gd->odd && m->conds[i].rank_not == gd->rank_not &&
            m->conds[i].rank_is == gd->rank_is)
            return 0;
    if (!(v = realloc(m->conds, (m->nconds + 1) * sizeof(*v))))
        return -1;
    m->conds = v;
    m->conds[m->nconds++] = *gd;
    return 0;
}

static int add_root(struct pz_scale_program *m, const struct sp_event *e)
{
    int32_t root, *v;

    if (e->comm.kind != PZ_SCALE_COMM_WORLD ||
        (e->peer.kind != PZ_SCALE_PEER_RANK && e->peer.kind != PZ_SCALE_PEER_LAST) ||
        (e->kind != PZ_REC_COLL_END && e->kind != PZ_REC_NBC_COMPLETE &&
         e->kind != PZ_REC_NBC_REQUEST && !sp_is_message(e->kind)))
        return 0;
    root = e->peer.kind == PZ_SCALE_PEER_RANK ? e->peer.rank : -1 - e->peer.rank;
    for (uint32_t i = 0; i < m->nroots; i++)
        if (m->roots[i] == root)
            return 0;
    if (!(v = realloc(m->roots, (m->nroots + 1) * sizeof(*v))))
        return -1;
    m->roots = v;
    m->roots[m->nroots++] = root;
    return 0;
}

uint64_t sp_class_mask(const struct pz_scale_program *m, const struct pz_scale_grid *g,
                       int rank, const uint8_t *flags)
{
    uint64_t mask = 0;
    int nprocs = g->dims[0] * g->dims[1] * g->dims[2];

    for (uint32_t i = 0; i < m->nconds && i < 64; i++)
        if (sp_guard_holds(&m->conds[i], g, rank, flags))
            mask |= (uint64_t)1 << i;
    for (uint32_t j = 0; j < m->nroots && m->nconds + j < 64; j++)
        if (rank == (m->roots[j] >= 0 ? m->roots[j] : nprocs + m->roots[j]))
            mask |= (uint64_t)1 << (m->nconds + j);
    return mask;
}

/* Into buf, the colours of process rank of grid g by the parities the conditions ask
 * for, each once: "even" or "odd" in a grid of 1 dimension, else with the dimensions
 * summed ("even along 0", "odd along 0+1"); "" when none asks. */
static void colours(const struct pz_scale_program *m, const struct pz_scale_grid *g,
                    int rank, char *buf, size_t len)
{
    uint8_t named = 0;

    buf[0] = '\0';
    for (uint32_t i = 0; i < m->nconds && i < 64; i++) {
        uint8_t dims = m->conds[i].parity;
        char along[16] = "";

        if (!dims || (named >> dims & 1))
            continue;
        named |= (uint8_t)(1u << dims);
        for (int d = 0; m->grid.ndims > 1 && d < PZ_SCALE_MAX_DIMS; d++)
            if (dims >> d & 1)
                snprintf(along + strlen(along), sizeof(along) - strlen(along), "%s%d",
                         along[0] ? "+" : " along ", d);
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s%s", buf[0] ? " " : "",
                 coordinate_parity(g, rank, dims) ? "odd" : "even", along);
    }
}

/* A class's name from one of its processes (rank of grid g, its position flags): how
 * many of the dimensions the conditions look at it is at an end of, and where; whether
 * it is a leader, where a condition asks for the leaders' communicator; its colours,
 * where conditions ask for parities of its coordinates. */
static void name_class(const struct pz_scale_program *m, struct sp_class *c,
                       const struct pz_scale_grid *g, int rank, const uint8_t *flags)
{
    static const char *const pos[] = {"", "first", "middle", "", "last", "", "", ""};
    int looked = 0, ends = 0, root = c->mask >> m->nconds != 0 && m->nconds < 64;
    int every = 0, leader = 0;
    char where[40] = "", colour[40];
    const char *base, *role;

    for (uint32_t i = 0; i < m->nconds && i < 64; i++)
        if (m->conds[i].every) {
            every = 1;
            leader |= (int)((c->mask >> i) & 1);
        }
    role = !every ? "" : leader ? "leader" : "non-leader";

    for (int d = 0; d < m->grid.ndims; d++) {
        int seen = 0;

        for (uint32_t i = 0; i < m->nconds; i++)
            seen |= m->conds[i].pos[d] != SP_ANYWHERE || m->conds[i].not_first[d] ||
                    m->conds[i].not_last[d];
        if (!seen)
            continue;
        looked++;
        ends += flags[d] != SP_MIDDLE;
        snprintf(where + strlen(where), sizeof(where) - strlen(where), "%s%s",
                 *where ? "," : "", pos[flags[d] & SP_FIRST ? SP_FIRST : flags[d]]);
    }
    colours(m, g, rank, colour, sizeof(colour));
    if (!looked)
        base = every ? role : root || colour[0] ? "" : "all";
    else if (!ends)
        base = "interior";
    else if (ends == looked)
        base = looked == 1 ? "end" : "corner";
    else
        base = looked == 3 && ends == 1 ? "face" : "edge";
    snprintf(c->name, sizeof(c->name), "%s%s%s%s%s%s%s%s", base, ends ? " (" : "",
             ends ? where : "", ends ? ")" : "", root && *base ? " " : "", root ? "root" : "",
             looked && every ? " " : "", looked ? role : "");
    if (colour[0])
        snprintf(c->name + strlen(c->name), sizeof(c->name) - strlen(c->name), "%s%s",
                 c->name[0] ? " " : "", colour);
}

static int collect_classes(struct pz_scale_program *m)
{
    for (size_t r = 0; r < m->nruns; r++) {
        const struct pz_scale_run *run = m->runs[r];

        for (int p = 0; p < run->nprocs; p++) {
            uint8_t flags[PZ_SCALE_MAX_DIMS];
            uint64_t mask;
            uint32_t i;
            struct sp_class *v;

            sp_positions(&run->grid, run->procs[p].coords, flags);
            mask = sp_class_mask(m, &run->grid, p, flags);
            for (i = 0; i < m->nclasses && m->classes[i].mask != mask; i++)
                ;
            if (i < m->nclasses)
                continue;
            if (!(v = realloc(m->classes, (m->nclasses + 1) * sizeof(*v))))
                return -1;
            m->classes = v;
            v[i].mask = mask;
            name_class(m, &v[i], &run->grid, p, flags);
            m->nclasses++;
        }
    }
    if (m->nclasses == 1)
        snprintf(m->classes[0].name, sizeof(m->classes[0].name), "all");
    return 0;
}

uint16_t sp_trips_key(const struct pz_scale_program *m, const struct pz_scale_grid *g,
                      const uint8_t *flags, int rank)
{
    uint16_t key = sp_position_key(flags, g->ndims);

    return m->every && rank % (int)m->every == 0 ? (uint16_t)(key | 1u << 9) : key;
}

/* A note for each dimension whose calls are made only where it is longer than 1 process
 * (along_grown_dimension), naming the first.  0, or -1 when memory runs out. */
static int note_grown(struct pz_scale_program *m)
{
    for (int d = 0; d < m->grid.ndims; d++)
        for (uint32_t k = 0; k < m->nnodes; k++) {
            char where[160];
            uint32_t node;
            size_t r;

            if (m->nodes[k].kind != SP_STEP || !(m->nodes[k].guard.pos[d] & SP_LONG) ||
                !sp_first_made(m, k, k + 1, &node, &r))
                continue;
            sp_where(m, r, m->first_proc[(size_t)k * m->nruns + r],
                     m->first_step[(size_t)k * m->nruns + r], where, sizeof(where));
            if (sp_note(m, "calls made only in recordings where dimension %d of the process "
                        "grid has more than 1 process (%s, %s, process %u of %s, first) are "
                        "taken as calls along it: made wherever it has more than 1 process, "
                        "none where it has 1 (a program that copies to itself rather than "
                        "calling MPI along a dimension of one process, as LAMMPS does)", d,
                        sp_sym_name(&m->table, m->nodes[k].sym), where,
                        m->first_proc[(size_t)k * m->nruns + r], m->runs[r]->path) != 0)
                return -1;
            break;
        }
    return 0;
}

/* Into buf, after "; ", what a parity of dimensions `dims` does where one of them is
 * periodic: at an odd length its last and first processes are of one parity; and, when
 * no recording had an odd length along them, that the rule is assumed there.  "" when
 * none is periodic. */
static void odd_lengths(const struct pz_scale_program *m, uint8_t dims, char *buf,
                        size_t len)
{
    int periodic = -1, odd = 0;
    char lengths[64] = "";

    buf[0] = '\0';
    for (int d = 0; d < m->grid.ndims; d++)
        if ((dims >> d & 1) && m->grid.periodic[d] && periodic < 0)
            periodic = d;
    if (periodic < 0)
        return;
    for (size_t r = 0; r < m->nruns; r++) {
        int n = m->runs[r]->grid.dims[periodic];

        odd |= n % 2;
        snprintf(lengths + strlen(lengths), sizeof(lengths) - strlen(lengths), "%s%d",
                 r ? ", " : "", n);
    }
    snprintf(buf, len, "; dimension %d is periodic: where it has an odd number of "
             "processes, its last and first processes are of the same parity, and each "
             "makes the calls of its own, as the program would (where both then send "
             "first by blocking sends that wait for their receiver, the real run cannot "
             "complete, nor its replay)%s%s%s", periodic,
             odd ? "" : "; the recordings have an even number along it (",
             odd ? "" : lengths, odd ? "" : "): at an odd number the same rule is assumed");
}

/* A note for each parity of the coordinates some step's guard asks for (by_parity),
 * naming the first such step.  0, or -1 when memory runs out. */
static int note_parity(struct pz_scale_program *m)
{
    uint8_t noted = 0;

    for (uint32_t k = 0; k < m->nnodes; k++) {
        const struct sp_guard *gd = &m->nodes[k].guard;
        char where[160], which[96], periodic[512];
        uint32_t node;
        size_t r;

        if (m->nodes[k].kind != SP_STEP || !gd->parity || (noted >> gd->parity & 1) ||
            !sp_first_made(m, k, k + 1, &node, &r))
            continue;
        noted |= (uint8_t)(1u << gd->parity);
        parity_subject(gd->parity, which, sizeof(which));
        sp_where(m, r, m->first_proc[(size_t)k * m->nruns + r],
                 m->first_step[(size_t)k * m->nruns + r], where, sizeof(where));
        odd_lengths(m, gd->parity, periodic, sizeof(periodic));
        if (sp_note(m, "calls that no position in the grid explains are made by the "
                    "processes of one parity of %s in every recording (%s, %s, process %u "
                    "of %s, first): an order of calls by the parity of the "
                    "position is taken (a red-black ordering, as programs ordering blocking "
                    "sends and receives so that they cannot wait for each other make it), "
                    "each process making at any count the calls of its parity%s", which,
                    sp_sym_name(&m->table, m->nodes[k].sym), where,
                    m->first_proc[(size_t)k * m->nruns + r], m->runs[r]->path,
                    periodic) != 0)
            return -1;
    }
    return 0;
}

int sp_guards_infer(struct pz_scale_program *m, uint64_t *const *made, char *err,
                    size_t errlen)
{
    m->every = next_leaders(&m->table, 0);
    for (uint32_t k = 0; k < m->nnodes; k++) {
        const struct sp_sym *s;

        if (m->nodes[k].kind != SP_STEP)
            continue;
        if (infer_one(m, made, k, err, errlen) != 0)
            return -1;
        m->nodes[k].guard.nodes = m->nodes[k].guard.every == PZ_SCALE_NODE_K;
        if (add_condition(m, &m->nodes[k].guard) != 0)
            goto oom;
        s = &m->table.syms[m->nodes[k].sym];
        for (uint32_t i = 0; i < s->n; i++)
            if (add_root(m, &m->table.events[s->first + i]) != 0)
                goto oom;
    }
    if (note_grown(m) != 0 || note_parity(m) != 0)
        goto oom;
    if (m->nconds + m->nroots > 64 &&
        sp_note(m, "%u conditions and roots distinguish processes: only the first 64 make "
                "the classes of the computation", m->nconds + m->nroots) != 0)
        goto oom;
    if (collect_classes(m) == 0)
        return 0;
oom:
    snprintf(err, errlen, "out of memory choosing the guards of the program's steps");
    return -1;
}
