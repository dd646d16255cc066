/* Directions taken for the peers the recordings cannot tell (scale_program_int.h,
 * sp_untold_direct).  Along a periodic dimension of 2 processes in every recording the
 * neighbour below and the one above are one process: which one each call addresses is
 * not recorded, and at a count where the dimension is longer the run must choose.  Codes
 * that ask MPI_Cart_shift(comm, d, 1, &lower, &upper) for their neighbours exchange with
 * the lower one first (halo3d's faces, LAMMPS's swaps), so of the sends of one function
 * in a stretch of steps along the dimension (consecutive steps whose messages go along it
 * alone, in one loop's body), the first is taken to the lower neighbour (-1), the second
 * to the upper (+1), and so on alternately: LAMMPS's exchange of atoms makes one swap
 * along a dimension of 2 (both neighbours are one) and its borders two, and each begins
 * with the lower neighbour.
 * Each receive then comes from the side opposite to the send it matches: at 2 processes
 * the n-th send of a tag to the neighbour meets the neighbour's n-th receive of that tag,
 * so the n-th receive of a tag along the dimension mirrors the n-th send of that tag.
 * Every process runs the same steps, so the synthesized sends and receives pair at any
 * length of the dimension.  Where the sends and receives of a tag within a stretch do
 * not come in equal numbers (a code that posts its receives from every neighbour first,
 * then sends to every neighbour, then waits), the stretches are taken whole loop bodies
 * instead: the receives along the dimension then meet their sends, steps along other
 * dimensions between them.  Where they do not there either, no direction is taken (the
 * runs where the dimension is longer stay refused, sp_untold_check). */
#include <stdlib.h>
#include <string.h>

#include "scale_untold_dir.h"

/* A send or a receive along the dimension: the template event that posts or makes it. */
struct item {
    uint32_t ev;       /* in m->events */
    uint32_t node;     /* its step */
    uint32_t run;      /* the stretch of steps along the dimension it is in */
    int send;
    int8_t dir;        /* -1 or +1 once taken */
};

/* The component of e's offset that is world dimension d, -1 when e has no such offset
 * or it is 0 there. */
static int component(const struct sp_event *e, int d)
{
    if (!sp_grid_offset(e))
        return -1;
    for (int i = 0; i < PZ_SCALE_MAX_DIMS; i++)
        if (sp_world_dim(&e->comm, i) == d)
            return e->peer.off[i] != 0 ? i : -1;
    return -1;
}

static int sends(uint8_t kind)
{
    return kind == PZ_REC_SEND || kind == PZ_REC_ISEND;
}

static int receives(uint8_t kind)
{
    return kind == PZ_REC_RECV || kind == PZ_REC_IRECV_REQUEST;
}

/* Do a and b address the same class of communicator with the same tag. */
static int same_channel(const struct sp_event *a, const struct sp_event *b)
{
    return a->comm.kind == b->comm.kind && a->comm.keep == b->comm.keep &&
           a->comm.k == b->comm.k && a->tag == b->tag && a->tag_step == b->tag_step &&
           a->tag_after == b->tag_after;
}

/* The world dimensions along which step node k's messages go, their completions'
 * included. */
static uint8_t step_dims(const struct pz_scale_program *m, uint32_t k)
{
    const struct sp_node *nd = &m->nodes[k];
    uint8_t mask = 0;

    for (uint32_t i = 0; i < m->table.syms[nd->sym].n; i++)
        for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++)
            if (component(m->events[nd->first_event + i].sig, d) >= 0)
                mask |= (uint8_t)(1u << d);
    return mask;
}

/* The sends and receives along d, in the template's order, into *out (allocated), each
 * with its stretch: the consecutive steps of a loop's body (or outside loops) whose
 * messages go along d alone, steps without messages between them included, so that the
 * exchanges along each dimension in turn (LAMMPS's swaps, halo3d's faces) are each a
 * stretch of its own; with whole_bodies, all the steps of a loop's body (or outside
 * loops) between two loop boundaries. */
static int collect(const struct pz_scale_program *m, int d, int whole_bodies,
                   struct item **out, size_t *n)
{
    struct sp_loops loops = { 0 };
    uint32_t run = 0;
    uint8_t last = 0;
    struct item *v = malloc((m->nevents ? m->nevents : 1) * sizeof(*v));

    *n = 0;
    if (!v)
        return -1;
    for (uint32_t k = 0; k < m->nnodes; k++) {
        const struct sp_node *nd = &m->nodes[k];
        uint8_t along;

        if (sp_loops_at(m, &loops, k)) {
            last = 0;
            run += (uint32_t)whole_bodies;
        }
        if (nd->kind != SP_STEP || !(along = step_dims(m, k)))
            continue;
        if (!whole_bodies && (along != last || along != (uint8_t)(1u << d)))
            run++;
        last = along;
        for (uint32_t i = 0; i < m->table.syms[nd->sym].n; i++) {
            uint32_t ev = nd->first_event + i;
            const struct sp_event *e = m->events[ev].sig;

            if ((!sends(e->kind) && !receives(e->kind)) || component(e, d) < 0)
                continue;
            v[*n] = (struct item){ .ev = ev, .node = k, .send = sends(e->kind), .run = run };
            (*n)++;
        }
    }
    *out = v;
    return 0;
}

/* Are items a and b sends of the same function in the same stretch. */
static int alike_sends(const struct pz_scale_program *m, const struct item *a,
                       const struct item *b)
{
    return a->send && b->send && a->run == b->run &&
           m->table.syms[m->nodes[a->node].sym].region ==
               m->table.syms[m->nodes[b->node].sym].region &&
           m->events[a->ev].sig->kind == m->events[b->ev].sig->kind;
}

/* Are items a and b of the same channel and way in the same stretch. */
static int alike(const struct pz_scale_program *m, const struct item *a, const struct item *b)
{
    return a->send == b->send && a->run == b->run &&
           same_channel(m->events[a->ev].sig, m->events[b->ev].sig);
}

/* The sends alternately to the lower and the upper neighbour, per function and stretch;
 * each receive opposite to the send of the same rank among its channel's in its stretch.
 * 0, or 1 when the sends and receives of a channel in a stretch are not as many. */
static int choose(const struct pz_scale_program *m, struct item *v, size_t n)
{
    for (size_t a = 0; a < n; a++) {
        size_t before = 0;

        for (size_t b = 0; b < a; b++)
            before += alike_sends(m, &v[a], &v[b]);
        if (v[a].send)
            v[a].dir = before % 2 ? 1 : -1;
    }
    for (size_t a = 0; a < n; a++) {
        size_t rank = 0, seen = 0, same = 0, other = 0;

        for (size_t b = 0; b < n; b++) {
            rank += b < a && alike(m, &v[a], &v[b]);
            same += alike(m, &v[a], &v[b]);
            other += v[b].send != v[a].send && v[b].run == v[a].run &&
                     same_channel(m->events[v[a].ev].sig, m->events[v[b].ev].sig);
        }
        if (same != other)
            return 1;
        for (size_t b = 0; b < n && !v[a].send && !v[a].dir; b++)
            if (v[b].send && v[b].run == v[a].run &&
                same_channel(m->events[v[b].ev].sig, m->events[v[a].ev].sig) &&
                seen++ == rank)
                v[a].dir = (int8_t)-v[b].dir;
    }
    return 0;
}

/* The direction each event of m takes along d (0: as it is), the completions of a
 * request as its posting. */
static void spread(const struct pz_scale_program *m, const struct item *v, size_t n,
                   int8_t *dir)
{
    memset(dir, 0, m->nevents);
    for (size_t a = 0; a < n; a++) {
        int32_t slot = m->events[v[a].ev].slot;

        dir[v[a].ev] = v[a].dir;
        for (uint32_t i = 0; slot >= 0 && i < m->nevents; i++)
            if (m->events[i].completes == slot)
                dir[i] = v[a].dir;
    }
}

/* Rewrites the events of the steps with a direction along d into events of the table
 * of their own, and the completions of their requests.  0 or -1. */
static int apply(struct pz_scale_program *m, int d, const int8_t *dir)
{
    size_t *at = malloc((m->nevents ? m->nevents : 1) * sizeof(*at));
    struct sp_event *buf = NULL;
    int rc = 0;

    if (!at)
        return -1;
    /* where each event is in the table, which may move as steps are added */
    for (uint32_t ev = 0; ev < m->nevents; ev++)
        at[ev] = (size_t)(m->events[ev].sig - m->table.events);
    for (uint32_t k = 0; rc == 0 && k < m->nnodes; k++) {
        const struct sp_node *nd = &m->nodes[k];
        struct sp_sym proto;
        uint32_t sym;
        int changed = 0;

        if (nd->kind != SP_STEP)
            continue;
        proto = m->table.syms[nd->sym];
        free(buf);
        if (!(buf = malloc((proto.n ? proto.n : 1) * sizeof(*buf)))) {
            rc = -1;
            break;
        }
        for (uint32_t i = 0; i < proto.n; i++) {
            uint32_t ev = nd->first_event + i;
            int c;

            buf[i] = m->table.events[at[ev]];
            if (!dir[ev])
                continue;
            if ((c = component(&buf[i], d)) >= 0) {
                buf[i].peer.off[c] = dir[ev];
                changed = 1;
            }
            if (m->events[ev].slot >= 0 &&
                (c = component(&m->done[m->events[ev].slot].sig, d)) >= 0)
                m->done[m->events[ev].slot].sig.peer.off[c] = dir[ev];
        }
        if (!changed)
            continue;
        if ((sym = sp_table_step(&m->table, &proto, buf)) == SP_NONE)
            rc = -1;
        else
            for (uint32_t i = 0; i < proto.n; i++)
                at[nd->first_event + i] = m->table.syms[sym].first + i;
    }
    free(buf);
    for (uint32_t ev = 0; rc == 0 && ev < m->nevents; ev++)
        m->events[ev].sig = &m->table.events[at[ev]];
    free(at);
    return rc;
}

/* The step of the first send that is alone of its function in its stretch (LAMMPS's
 * exchange of atoms, one swap per dimension of 2 processes), SP_NONE if none is. */
static uint32_t first_alone(const struct pz_scale_program *m, const struct item *v, size_t n)
{
    for (size_t a = 0; a < n; a++) {
        size_t alike = 0;

        for (size_t b = 0; b < n; b++)
            alike += alike_sends(m, &v[a], &v[b]);
        if (v[a].send && alike % 2)
            return v[a].node;
    }
    return SP_NONE;
}

int sp_untold_direct(struct pz_scale_program *m, int d, uint32_t *alone)
{
    struct item *v;
    int8_t *dir;
    size_t n;
    int rc;

    *alone = SP_NONE;
    if (collect(m, d, 0, &v, &n) != 0)
        return -1;
    if (n && choose(m, v, n) != 0) {
        free(v);
        if (collect(m, d, 1, &v, &n) != 0)
            return -1;
        if (n && choose(m, v, n) != 0)
            n = 0;
    }
    if (!n) {
        free(v);
        return 0;
    }
    *alone = first_alone(m, v, n);
    if (!(dir = malloc(m->nevents ? m->nevents : 1))) {
        free(v);
        return -1;
    }
    spread(m, v, n, dir);
    rc = apply(m, d, dir);
    free(dir);
    free(v);
    return rc < 0 ? -1 : 1;
}
