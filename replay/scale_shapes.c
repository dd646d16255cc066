/* The shapes of step symbols (scale_program_int.h, sp_shape): a step without what
 * changes from one iteration of a loop to the next where sp_fold cannot see the loop,
 * its tags (sp_tag_loops) and, for a butterfly's stages, its partner's bit
 * (sp_xor_rewrite), for an exchange with every member in turn its partner's offset
 * (sp_pairs_rewrite), or for a collective whose root turns its root (sp_turns_rewrite).  Steps of one shape in every iteration are the loop those rewrite. */
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"

void sp_shapes_free(struct sp_shapes *h)
{
    sp_table_free(&h->table);
    free(h->shape_of);
    h->shape_of = NULL;
    h->capshape = 0;
}

/* h->shape_of grown to hold sym, the new ones SP_NONE.  0 or -1. */
static int grow(struct sp_shapes *h, uint32_t sym)
{
    uint32_t cap = h->t->nsyms > sym ? h->t->nsyms : sym + 1;
    uint32_t *v = realloc(h->shape_of, (size_t)cap * sizeof(*v));

    if (!v)
        return -1;
    memset(v + h->capshape, 0xff, (size_t)(cap - h->capshape) * sizeof(*v));
    h->shape_of = v;
    h->capshape = cap;
    return 0;
}

uint32_t sp_shape(struct sp_shapes *h, uint32_t sym)
{
    struct sp_event ev[SP_MAX_EVENTS];
    struct sp_sym proto;

    if (sym >= h->capshape && grow(h, sym) != 0)
        return SP_NONE;
    if (h->shape_of[sym] != SP_NONE)
        return h->shape_of[sym];
    proto = h->t->syms[sym];
    if (proto.kind != SP_STEP || proto.n > SP_MAX_EVENTS)
        return h->shape_of[sym] = sym | SP_OWN_SHAPE;
    for (uint32_t i = 0; i < proto.n; i++) {
        ev[i] = sp_events_of(h->t, sym)[i];
        if (!h->with_tags) {
            ev[i].tag = ev[i].tag_step = 0;
            ev[i].tag_after = 0;
        }
        if (h->without_bits && ev[i].peer.kind == PZ_SCALE_PEER_XOR)
            ev[i].peer.rank = 0;
        if (h->without_roots && (ev[i].peer.kind == PZ_SCALE_PEER_RANK ||
                                 ev[i].peer.kind == PZ_SCALE_PEER_LAST))
            ev[i].peer = (struct pz_scale_peer){ .kind = PZ_SCALE_PEER_TURN };
        if (h->without_offsets && ev[i].peer.kind == PZ_SCALE_PEER_OFFSET &&
            (ev[i].comm.kind == PZ_SCALE_COMM_WORLD || ev[i].comm.kind == PZ_SCALE_COMM_SLICE))
            memset(ev[i].peer.off, 0, sizeof(ev[i].peer.off));
        if (ev[i].poster_sym != SP_NONE &&
            (ev[i].poster_sym = sp_shape(h, ev[i].poster_sym)) == SP_NONE)
            return SP_NONE;
    }
    return h->shape_of[sym] = sp_table_step(&h->table, &proto, ev);
}

int sp_same_shapes(struct sp_shapes *h, const uint32_t *syms, size_t at, size_t period,
                   size_t count, size_t q, uint32_t *shape)
{
    uint32_t s0 = sp_shape(h, syms[at + q]);

    if (s0 == SP_NONE)
        return -1;
    if ((s0 & SP_OWN_SHAPE) || h->t->syms[syms[at + q]].kind != SP_STEP)
        return 0;
    for (size_t k = 1; k < count; k++) {
        uint32_t sk = sp_shape(h, syms[at + k * period + q]);

        if (sk == SP_NONE)
            return -1;
        if (sk != s0)
            return 0;
    }
    *shape = s0;
    return 1;
}
