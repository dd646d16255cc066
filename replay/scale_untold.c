/* Peers the recordings cannot tell (scale_program_int.h).  In a dimension that is
 * periodic and of 2 processes in every recording, the previous process and the next
 * are one: a recording shows both neighbours of the first process at +1 and both of the
 * last at -1, whichever the program addressed; of 1 process, the neighbours are the
 * process itself, shown at 0.  Every assignment of -1 or +1 to such offsets that pairs
 * each send with a receive then fits the recordings alike, and they differ as soon as
 * the dimension is longer: the runs where it is are refused, naming the first call
 * concerned, rather than synthesized with guessed peers (whose sends and receives
 * would not pair: a false deadlock).  Where every dimension has at most 2 processes in
 * every recording, the neighbours in the grid are also partners by rank arithmetic (rank
 * XOR 2^i): a note says which is taken. */
#include <stdio.h>
#include <string.h>

#include "scale_program_int.h"
#include "scale_untold_dir.h"

/* The most processes dimension d has in a recording when it is periodic and of at most
 * 2 processes in every one (sp_ambiguous_dims); 0 when a recording tells its offsets. */
static int untold_length(const struct pz_scale_program *m, int d)
{
    int len = 0;

    for (size_t r = 0; r < m->nruns; r++) {
        if (!((m->ambiguous[r] >> d) & 1))
            return 0;
        if (m->runs[r]->grid.dims[d] > len)
            len = m->runs[r]->grid.dims[d];
    }
    return len;
}

/* Whether every offset of e's peer is 0 (the process itself, in its communicator). */
static int to_itself(const struct sp_event *e)
{
    for (int i = 0; i < PZ_SCALE_MAX_DIMS; i++)
        if (sp_world_dim(&e->comm, i) >= 0 && e->peer.off[i] != 0)
            return 0;
    return 1;
}

/* Whether the i-th offset of e's peer, along a dimension of at most len processes in
 * every recording (untold_length), may stand for another: a neighbour where the
 * dimension has 2 (+1 and -1 one process); the process itself where it has 1, unless
 * the peer is a neighbour along another dimension (the message goes along that one). */
static int untold_offset(const struct sp_event *e, int i, int len)
{
    if (len == 2)
        return e->peer.off[i] != 0;
    return len == 1 && to_itself(e);
}

/* The first place node k was recorded, for messages: "MPI_Irecv (interval 'x', call 1,
 * process 0 of REC)". */
static void step_where(const struct pz_scale_program *m, uint32_t k, char *buf, size_t len)
{
    const char *name = sp_sym_name(&m->table, m->nodes[k].sym);
    char where[160];

    for (size_t r = 0; r < m->nruns; r++) {
        size_t at = (size_t)k * m->nruns + r;

        if (m->first_proc[at] == SP_NONE)
            continue;
        sp_where(m, r, m->first_proc[at], m->first_step[at], where, sizeof(where));
        snprintf(buf, len, "%s (%s, process %u of %s)", name, where, m->first_proc[at],
                 m->runs[r]->path);
        return;
    }
    snprintf(buf, len, "%s", name);
}

/* The first step of the template whose peer along dimension d is untold (len as
 * untold_length), into u; whether there is one. */
static int find_in_dimension(struct pz_scale_program *m, int d, int len, struct sp_untold *u)
{
    for (uint32_t k = 0; k < m->nnodes; k++) {
        const struct sp_sym *s = &m->table.syms[m->nodes[k].sym];

        if (m->nodes[k].kind != SP_STEP)
            continue;
        for (uint32_t j = 0; j < s->n; j++) {
            const struct sp_event *e = &m->table.events[s->first + j];

            if (!sp_grid_offset(e))
                continue;
            for (int i = 0; i < PZ_SCALE_MAX_DIMS; i++)
                if (sp_world_dim(&e->comm, i) == d && untold_offset(e, i, len)) {
                    u->len = len;
                    step_where(m, k, u->call, sizeof(u->call));
                    return 1;
                }
        }
    }
    return 0;
}

static const char *alike(int len)
{
    return len == 2 ? "where the previous process and the next are one"
                    : "where the process is its own neighbour";
}

int sp_untold_find(struct pz_scale_program *m)
{
    for (int d = 0; d < m->grid.ndims; d++) {
        struct sp_untold *u = &m->untold[d];
        int len = untold_length(m, d), taken;
        uint32_t alone = SP_NONE;
        char call[384];

        if (!len || !find_in_dimension(m, d, len, u))
            continue;
        if ((taken = len == 2 ? sp_untold_direct(m, d, &alone) : 0) < 0)
            return -1;
        if (taken && alone != SP_NONE) {
            step_where(m, alone, call, sizeof(call));
            if (sp_note(m, "%s is the only call of its function in its stretch of calls along "
                        "dimension %d, of 2 processes in every recording: it addresses one "
                        "neighbour, and is synthesized so where the dimension is longer; a "
                        "program that also addresses the other one there (LAMMPS's exchange "
                        "of atoms, where a dimension has more than 2 processes) makes more "
                        "calls than synthesized, which recordings where the dimension has 3 "
                        "processes or more would show", call, d) != 0)
                return -1;
        }
        if (taken) {
            /* the runs where it is longer take these directions */
            u->len = 0;
            if (sp_note(m, "dimension %d is periodic and of at most 2 processes in every "
                        "recording, where the previous process and the next are one: which "
                        "neighbour %s addresses along it cannot be told; taken, as codes "
                        "that exchange with the lower neighbour MPI_Cart_shift(comm, %d, 1, "
                        "&lower, &upper) gives first do: of the sends of one function in "
                        "each stretch of consecutive calls along it (each loop's body, where "
                        "the receives are posted apart from the sends), the first to the lower "
                        "neighbour (-1), the next to the upper (+1), alternately, and each "
                        "receive from the side opposite to the send of its tag of the same "
                        "rank, so that every message pairs where the dimension is longer; a "
                        "program that addresses the upper neighbour first sends the same "
                        "messages the other way round, and calls a program makes only where "
                        "the dimension has more than 2 processes (a second neighbour distinct "
                        "from the first) are not made", d, u->call, d) != 0)
                return -1;
            continue;
        }
        if (sp_note(m, "dimension %d is periodic and of at most %d process%s in every "
                    "recording, %s: which neighbour %s addresses along it cannot be told, "
                    "and runs where it is longer are refused", d, len, len > 1 ? "es" : "",
                    alike(len), u->call) != 0)
            return -1;
    }
    return 0;
}

/* Whether every dimension of the grid has at most 2 processes in every recording, the
 * grid inferred from the messages (a program that made it by MPI_Cart_create addresses
 * its neighbours in it), and the recordings tell every peer along the periodic ones
 * (else the runs where one is longer are refused, sp_untold_check, and MPI_Dims_create
 * lengthens the first dimension first: dims[0] is the longest). */
static int maybe_hypercube(const struct pz_scale_program *m)
{
    for (size_t r = 0; r < m->nruns; r++)
        if (m->runs[r]->grid.from_topology)
            return 0;
    for (int d = 0; d < m->grid.ndims; d++) {
        if (m->untold[d].len)
            return 0;
        for (size_t r = 0; r < m->nruns; r++)
            if (m->runs[r]->grid.dims[d] > 2)
                return 0;
    }
    return 1;
}

static void layout(const struct pz_scale_grid *g, char *buf, size_t len);

/* Where every dimension has at most 2 processes, the process at the other end of one is
 * both its neighbour in the grid and its partner rank XOR 2^i for the bit i that the
 * dimension's coordinate is (2 x 2 x 2 numbered 4 x + 2 y + z, or x + 2 y + 4 z): a halo
 * exchange and a recursive doubling (the reductions of the NAS benchmarks) record the
 * same messages, and they differ where a dimension is longer, at twice the largest
 * count.  Not along a periodic dimension, whose offsets of 2 processes sp_untold_find
 * notes and sp_untold_check refuses where it is longer. */
int sp_untold_hypercube(struct pz_scale_program *m)
{
    struct pz_scale_grid longer;
    struct sp_untold u;
    char dims[64];
    int n = 2 * m->runs[m->largest]->nprocs;

    if (!maybe_hypercube(m))
        return 0;
    for (int d = 0; d < m->grid.ndims; d++) {
        if (m->grid.periodic[d] || !find_in_dimension(m, d, 2, &u))
            continue;
        pz_scale_grid_layout(&longer, n, m->grid.ndims, m->grid.ascending);
        layout(&longer, dims, sizeof(dims));
        return sp_note(m, "every dimension of the process grid has at most 2 processes in "
                       "every recording: the process %s addresses along dimension %d is "
                       "its neighbour there or a partner computed from its rank (rank XOR "
                       "2^i, a recursive doubling), which the recordings cannot tell apart "
                       "and which differ where a dimension is longer (%d processes: %s); "
                       "the grid's neighbours are taken", u.call, d, n, dims);
    }
    return 0;
}

/* The smallest count above the largest recording's whose MPI_Dims_create layout makes
 * dimension d longer than len and no other dimension shorter than in that recording,
 * below nprocs and 4 times that recording's count (each layout is a search); else
 * nprocs.  Its layout into g. */
static int telling_count(const struct pz_scale_program *m, int d, int len, int nprocs,
                         struct pz_scale_grid *g)
{
    const struct pz_scale_run *largest = m->runs[m->largest];

    for (int n = largest->nprocs + 1; n < nprocs && n <= 4 * largest->nprocs; n++) {
        int e = 0;

        pz_scale_grid_layout(g, n, m->grid.ndims, m->grid.ascending);
        while (e < g->ndims && (e == d ? g->dims[e] > len : g->dims[e] >= largest->grid.dims[e]))
            e++;
        if (e == g->ndims)
            return n;
    }
    pz_scale_grid_layout(g, nprocs, m->grid.ndims, m->grid.ascending);
    return nprocs;
}

/* "3 x 2 x 2" */
static void layout(const struct pz_scale_grid *g, char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (int d = 0; d < g->ndims && used < len; d++)
        used += (size_t)snprintf(buf + used, len - used, "%s%d", d ? " x " : "", g->dims[d]);
}

int sp_untold_check(const struct pz_scale_program *m, const struct pz_scale_grid *g,
                    char *err, size_t errlen)
{
    for (int d = 0; d < g->ndims; d++) {
        const struct sp_untold *u = &m->untold[d];
        struct pz_scale_grid tells;
        char dims[64];
        int n;

        if (!u->len || g->dims[d] <= u->len)
            continue;
        n = telling_count(m, d, u->len, g->dims[0] * g->dims[1] * g->dims[2], &tells);
        layout(&tells, dims, sizeof(dims));
        snprintf(err, errlen, "which neighbour %s addresses along dimension %d cannot be told: "
                 "the dimension is periodic and of at most %d process%s in every recording, "
                 "%s, and of %d here; a recording where it has more than %d would tell, "
                 "such as at %d processes (%s)", u->call, d, u->len, u->len > 1 ? "es" : "",
                 alike(u->len), g->dims[d], u->len, n, dims);
        return -1;
    }
    return 0;
}
