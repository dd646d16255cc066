/* One-sided transfers (comsys.h): a request of its own kind, which no receive matches;
 * its key holds the origin (src) and the target (dst), its mode the kind. */
#include "comsys_int.h"

int pz_comsys_rma(struct pz_comsys *cs, enum pz_rma_kind kind, int origin, int target,
                  double bytes, double at)
{
    int r;

    if (origin < 0 || origin >= cs->nprocs || target < 0 || target >= cs->nprocs ||
        at < cs->now || (r = pz_cs_new_request(cs)) < 0)
        return -1;
    cs->req[r].kind = REQ_RMA;
    cs->req[r].mode = (uint8_t)kind;
    cs->req[r].owner = origin;
    cs->req[r].bytes = bytes;
    cs->req[r].key = (struct pz_match_key){ 0, origin, target, 0 };
    return pz_cs_post(cs, r, at);
}

void pz_cs_rma_start(struct pz_comsys *cs, int r)
{
    const struct request *q = &cs->req[r];

    cs->messages++;
    if (q->mode == PZ_RMA_GET)
        pz_cs_push(cs, pz_cs_transfer(cs, q->key.src, q->key.dst, 0), EV_RMA_REPLY, r);
    else
        pz_cs_complete(cs, r, pz_cs_transfer(cs, q->key.src, q->key.dst, q->bytes));
}

/* The target's process answers a Get at once: MPICH's progress engine handles it in
 * the background of the target's program. */
void pz_cs_rma_reply(struct pz_comsys *cs, int r)
{
    const struct request *q = &cs->req[r];

    cs->messages++;
    pz_cs_complete(cs, r, pz_cs_transfer(cs, q->key.dst, q->key.src, q->bytes));
}
