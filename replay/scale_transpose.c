/* NPB CG's transpose exchange: its partner (PZ_SCALE_PEER_TRANSPOSE), the steps that
 * exchange with it at every process (sp_transpose_step, for a model of butterflies,
 * scale_xor_law.c), and the call named where a model cannot be built
 * (scale_program_int.h, sp_transpose_name).  CG lays its P = 2^l processes out in
 * 2^h rows of 2^(h+s) columns, h = floor(l / 2), s = l mod 2, rank = row * columns +
 * column, and exchanges a vector segment with its transpose partner: on a square grid
 * (s = 0) the process at (column, row); on one twice as wide, pairs of columns taken as
 * one.  In the rank's bits, written high to low as A (h bits), B (h bits), C (s bits),
 * the partner is B A C: the two halves of the rank above its lowest bit when l is odd
 * swapped, the processes whose halves are equal (the diagonal) exchanging with
 * themselves.  That is a law of P, but none of the grid's: no offset in a process grid
 * (at 4 processes, 1 and 2 are diagonal neighbours in 2 x 2, at 16 the partner of 1 is
 * 4, of 2 is 8), no rank XOR 2^i (1 XOR 2 is 3) and no class of communicators.  Among
 * butterflies (every other message to rank XOR 2^i) the model takes it; elsewhere the
 * recordings differ, naming whatever call comes first, often another: the transpose's
 * call is named instead, with why. */
#include <stdio.h>

#include "scale_program_int.h"

static int log2_exact(int n)
{
    int l = 0;

    while ((1 << l) < n)
        l++;
    return (1 << l) == n ? l : -1;
}

int sp_transpose_partner(int p, int l)
{
    int h = l / 2, s = l % 2, low = p & ((1 << s) - 1);
    int b = (p >> s) & ((1 << h) - 1), a = p >> (s + h);

    return (b << (s + h)) | (a << s) | low;
}

/* The world rank of the peer of message event e of process p of run, -1 when it has
 * none in the grid. */
static int peer_rank(const struct pz_scale_run *run, int p, const struct pz_scale_event *e)
{
    int at[PZ_SCALE_MAX_DIMS];

    if (e->peer.kind != PZ_SCALE_PEER_OFFSET || e->comm >= run->ncomms ||
        run->comms[e->comm].kind != PZ_SCALE_COMM_WORLD)
        return -1;
    for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++)
        at[d] = run->procs[p].coords[d] + (d < run->grid.ndims ? e->peer.off[d] : 0);
    return pz_scale_grid_rank(&run->grid, at);
}

/* Whether step s of every process of run (all making it) sends or receives its
 * messages to the transpose partner only, at least one (into *told), some of them (into
 * *some) to a partner neither itself nor rank XOR 2^i. */
static int to_transposed(const struct pz_scale_run *run, size_t s, int l, int *told, int *some)
{
    for (int p = 0; p < run->nprocs; p++) {
        const struct pz_scale_process *proc = &run->procs[p];

        if (s >= proc->nsteps)
            return 0;
        for (uint32_t i = 0; i < proc->steps[s].n; i++) {
            const struct pz_scale_event *e = &proc->events[proc->steps[s].first + i];
            int q = peer_rank(run, p, e);

            if (e->peer.kind != PZ_SCALE_PEER_OFFSET)
                continue;
            if (q != sp_transpose_partner(p, l))
                return 0;
            *told = 1;
            *some |= q != p && ((q ^ p) & ((q ^ p) - 1));
        }
    }
    return 1;
}

/* Whether step s is the same call at every process of run, each with a message (CG's
 * diagonal exchanges with itself): the call named, not one that only lines up with
 * others' exchanges where a process makes fewer (an odd-even transposition's ends). */
static int one_call_with_messages(const struct pz_scale_run *run, size_t s)
{
    for (int p = 0; p < run->nprocs; p++) {
        const struct pz_scale_process *proc = &run->procs[p];
        uint32_t i = 0;

        if (s >= proc->nsteps || proc->steps[s].region != run->procs[0].steps[s].region)
            return 0;
        while (i < proc->steps[s].n &&
               proc->events[proc->steps[s].first + i].peer.kind != PZ_SCALE_PEER_OFFSET)
            i++;
        if (i == proc->steps[s].n)
            return 0;
    }
    return 1;
}

static int transposes(const struct pz_scale_run *run, size_t s, int l)
{
    int told = 0, some = 0;

    return one_call_with_messages(run, s) && to_transposed(run, s, l, &told, &some) && told &&
           some;
}

int sp_transpose_step(const struct pz_scale_run *run, size_t s)
{
    int l = log2_exact(run->nprocs), told = 0, some = 0;

    return l >= 0 && !run->grid.from_topology && to_transposed(run, s, l, &told, &some) &&
           told && (some || l < 2);
}

/* "interval 'x', call 3" of step s of process p of run: calls counted from the
 * beginning of the interval it is in. */
static void where(const struct pz_scale_run *run, int p, size_t s, char *buf, size_t len)
{
    const struct pz_scale_process *proc = &run->procs[p];
    size_t begin = s;

    while (begin > 0 && proc->steps[begin].kind != PZ_SCALE_BEGIN)
        begin--;
    if (proc->steps[begin].kind == PZ_SCALE_BEGIN)
        snprintf(buf, len, "interval '%s', call %zu",
                 run->names[proc->steps[begin].region] ? run->names[proc->steps[begin].region]
                                                       : "?", s - begin);
    else
        snprintf(buf, len, "call %zu", s + 1);
}

int sp_transpose_name(const struct pz_scale_run *const *runs, size_t n, char *err,
                      size_t errlen)
{
    for (size_t r = 0; r < n; r++) {
        const struct pz_scale_run *run = runs[r];
        int l = log2_exact(run->nprocs);

        if (run->grid.from_topology || l < 2)
            continue;
        for (size_t s = 0; s < run->procs[0].nsteps; s++) {
            const struct pz_scale_step *st = &run->procs[0].steps[s];
            char at[256], was[1024];
            int q = l % 2 ? 2 : 1;   /* a process off the diagonal: row 0, column 1 */

            if (st->kind != PZ_SCALE_CALL || !transposes(run, s, l))
                continue;
            where(run, 0, s, at, sizeof(at));
            snprintf(was, sizeof(was), "%s", err);
            snprintf(err, errlen, "%s (%s of %s) exchanges with NPB CG's transpose partner, "
                     "the rank's two halves of floor(log2(P) / 2) bits above its lowest "
                     "log2(P) mod 2 swapped (process %d's is %d here): a partner by the "
                     "rank's arithmetic that no offset in a process grid, rank XOR 2^i or "
                     "class of communicators gives, which is extrapolated only where every other "
                     "message goes to rank XOR 2^i (a butterfly's stages) (%s)",
                     run->names[st->region] ? run->names[st->region] : "a call", at,
                     run->path, q, sp_transpose_partner(q, l), was);
            return 1;
        }
    }
    return 0;
}
