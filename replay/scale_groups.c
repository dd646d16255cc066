/* The groups classes of communicators (scale_run.h): blocks of k consecutive ranks, the
 * ranks equal modulo k, the leaders' communicator of every k-th rank, k blocks; where each
 * process's communicator is at P processes, and which class a recorded communicator is
 * of, told by its members and those of the other communicators its run uses. */
#include <stdlib.h>

#include "grow.h"
#include "scale_run_int.h"

int pz_scale_is_group(uint8_t kind)
{
    return kind == PZ_SCALE_COMM_BLOCKS || kind == PZ_SCALE_COMM_STRIDE ||
           kind == PZ_SCALE_COMM_LEADERS || kind == PZ_SCALE_COMM_PARTS;
}

/* The size of a whole block of class c (BLOCKS or PARTS) at p processes. */
static uint32_t block_of(const struct pz_scale_comm *c, uint32_t p)
{
    return c->kind == PZ_SCALE_COMM_PARTS ? (p + c->k - 1) / c->k : c->k;
}

uint32_t pz_scale_group_count(const struct pz_scale_comm *c, int nprocs)
{
    uint32_t p = (uint32_t)nprocs, k = c->k;

    switch (c->kind) {
    case PZ_SCALE_COMM_BLOCKS:
    case PZ_SCALE_COMM_PARTS:
        return (p + block_of(c, p) - 1) / block_of(c, p);
    case PZ_SCALE_COMM_STRIDE: return k < p ? k : p;
    case PZ_SCALE_COMM_LEADERS: return 1;
    default: return 0;
    }
}

int64_t pz_scale_group_of(const struct pz_scale_comm *c, int nprocs, int rank, uint32_t *size,
                          uint32_t *in)
{
    uint32_t p = (uint32_t)nprocs, r = (uint32_t)rank, k = c->k, first;

    switch (c->kind) {
    case PZ_SCALE_COMM_BLOCKS:
    case PZ_SCALE_COMM_PARTS:
        k = block_of(c, p);
        first = r / k * k;
        *size = p - first < k ? p - first : k;
        *in = r - first;
        return r / k;
    case PZ_SCALE_COMM_STRIDE:
        *size = (p - r % k + k - 1) / k;
        *in = r / k;
        return r % k;
    case PZ_SCALE_COMM_LEADERS:
        if (r % k)
            return -1;
        *size = (p + k - 1) / k;
        *in = r / k;
        return 0;
    default:
        return -1;
    }
}

int pz_scale_group_member(const struct pz_scale_comm *c, int nprocs, uint32_t instance,
                          uint32_t j)
{
    switch (c->kind) {
    case PZ_SCALE_COMM_BLOCKS:
    case PZ_SCALE_COMM_PARTS:
        return (int)(instance * block_of(c, (uint32_t)nprocs) + j);
    case PZ_SCALE_COMM_STRIDE: return (int)(instance + j * c->k);
    default: return (int)(j * c->k);
    }
}

/* Are members[0..n-1] (world ranks, in the communicator's order) exactly an instance of
 * class c at nprocs processes? */
static int fits(const struct pz_scale_comm *c, int nprocs, const int *members, uint32_t n)
{
    uint32_t size, in;
    int64_t i;

    if (members[0] < 0 || members[0] >= nprocs ||
        (i = pz_scale_group_of(c, nprocs, members[0], &size, &in)) < 0 || size != n || in)
        return 0;
    for (uint32_t j = 0; j < n; j++)
        if (pz_scale_group_member(c, nprocs, (uint32_t)i, j) != members[j])
            return 0;
    return 1;
}

/* The classes communicator x is a whole instance of, as its members' shape proposes
 * them: consecutive ranks a block of its size; ranks a step s >= 2 apart the ranks equal
 * modulo s, or every s-th rank; into out (up to 2), their number. */
static int proposed(const struct pz_comm_def *x, int nprocs, struct pz_scale_comm *out)
{
    int s, n = 0;

    if (x->size < 2 || x->self || !x->procs)
        return 0;
    s = x->procs[1] - x->procs[0];
    if (s == 1)
        out[n++] = (struct pz_scale_comm){ .kind = PZ_SCALE_COMM_BLOCKS, .k = x->size };
    else if (s >= 2) {
        out[n++] = (struct pz_scale_comm){ .kind = PZ_SCALE_COMM_STRIDE, .k = (uint32_t)s };
        out[n++] = (struct pz_scale_comm){ .kind = PZ_SCALE_COMM_LEADERS, .k = (uint32_t)s };
    }
    for (int i = n; i-- > 0;)
        if (!fits(&out[i], nprocs, x->procs, x->size))
            out[i] = out[--n];
    return n;
}

/* How many of the communicators sib[] are whole instances of class c. */
static uint32_t support(const struct pz_scale_comm *c, int nprocs,
                        const struct pz_comm_def *const *sib, uint32_t nsib)
{
    uint32_t n = 0;

    for (uint32_t i = 0; i < nsib; i++)
        n += sib[i]->procs && !sib[i]->self && sib[i]->size &&
             fits(c, nprocs, sib[i]->procs, sib[i]->size);
    return n;
}

/* Is leaders class c the ranks equal modulo its k instead: another communicator of the
 * run is the instance of other ranks. */
static int strided_others(const struct pz_scale_comm *c, int nprocs,
                          const struct pz_comm_def *const *sib, uint32_t nsib)
{
    struct pz_scale_comm stride = { .kind = PZ_SCALE_COMM_STRIDE, .k = c->k };

    for (uint32_t i = 0; i < nsib; i++)
        if (sib[i]->procs && sib[i]->size && sib[i]->procs[0] != 0 &&
            fits(&stride, nprocs, sib[i]->procs, sib[i]->size))
            return 1;
    return 0;
}

int pz_scale_group_candidates(int nprocs, const struct pz_comm_def *const *sib, uint32_t nsib,
                              struct pz_scale_group_candidate **out)
{
    struct pz_scale_group_candidate *v = NULL;
    uint32_t n = 0, cap = 0;

    for (uint32_t i = 0; i < nsib; i++) {
        struct pz_scale_comm c[2];
        int np = proposed(sib[i], nprocs, c);

        for (int j = 0; j < np; j++) {
            uint32_t at, got;

            for (at = 0; at < n && (v[at].c.kind != c[j].kind || v[at].c.k != c[j].k); at++)
                ;
            if (at < n ||
                (c[j].kind == PZ_SCALE_COMM_STRIDE) != strided_others(&c[j], nprocs, sib, nsib))
                continue;
            got = support(&c[j], nprocs, sib, nsib);
            if (pz_grow((void **)&v, &cap, n, sizeof(*v)) != 0) {
                free(v);
                *out = NULL;
                return -1;
            }
            /* by support, most first; in the order proposed on a tie */
            for (at = n; at > 0 && v[at - 1].support < got; at--)
                v[at] = v[at - 1];
            v[at] = (struct pz_scale_group_candidate){ c[j], got };
            n++;
        }
    }
    *out = v;
    return (int)n;
}

int pz_scale_group_infer(int nprocs, const struct pz_comm_def *x,
                         const struct pz_scale_group_candidate *cand, uint32_t ncand,
                         struct pz_scale_comm *k)
{
    if (x->self || !x->procs || !x->size || x->size >= (uint32_t)nprocs)
        return 0;
    for (uint32_t i = 0; i < ncand; i++)
        if (fits(&cand[i].c, nprocs, x->procs, x->size)) {
            *k = cand[i].c;
            return 1;
        }
    return 0;
}
