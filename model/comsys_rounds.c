/* Rounds of collectives grouped in the events' queue.  At thousands of processes most
 * of the model's events are rounds, and many fall due at one time: the members of an
 * instance whose messages crossed the network side by side.  The queue gives the
 * events of one time in the order they were pushed; the rounds of a time pushed with
 * no other event of that time between them would come one after the other.  They wait
 * as one item, and are taken one by one, each as an event of its own: the events due
 * at once that a round makes (comsys_core.c) still come before the group's next round,
 * and a caller stepping the model (pz_comsys_step, pz_comsys_wait) sees the same
 * events, in the same order, one at a time. */
#include <stdlib.h>

#include "comsys_int.h"

/* A group's first room for agents, and the most it keeps when it is freed: the free
 * list hands the groups out again in any order, so each would keep the largest room it
 * ever had, and together they would hold about every time's largest group at once (at
 * 4096 processes of a ring with an Allreduce, 3000 groups held 9.5 MB). */
#define FIRST_ROOM 8

static unsigned slot_of(uint64_t key)
{
    return (unsigned)((key * 0x9E3779B97F4A7C15ull) >> 56) & (OPEN_GROUPS - 1);
}

/* An empty group of time key; -1 if memory ran out. */
static int new_group(struct round_groups *gs, uint64_t key)
{
    int g = gs->free - 1;

    if (g >= 0) {
        gs->free = gs->all[g].next_free;
    } else {
        if (gs->n == gs->cap) {
            int cap = gs->cap ? 2 * gs->cap : 16;
            struct round_group *grown = realloc(gs->all, (size_t)cap * sizeof(*grown));

            if (!grown)
                return -1;
            gs->all = grown;
            gs->cap = cap;
        }
        g = gs->n++;
        gs->all[g].agents = NULL;
        gs->all[g].cap = 0;
    }
    gs->all[g].key = key;
    gs->all[g].n = gs->all[g].next = 0;
    return g;
}

static int append(struct round_group *g, int agent)
{
    if (g->n == g->cap) {
        int cap = g->cap ? 2 * g->cap : FIRST_ROOM;
        int *grown = realloc(g->agents, (size_t)cap * sizeof(*grown));

        if (!grown)
            return -1;
        g->agents = grown;
        g->cap = cap;
    }
    g->agents[g->n++] = agent;
    return 0;
}

/* The open group of time key, -1 if none. */
static int open_group(const struct round_groups *gs, uint64_t key)
{
    int g = gs->open[slot_of(key)] - 1;

    return g >= 0 && gs->all[g].key == key ? g : -1;
}

int pz_cs_rounds_push(struct pz_comsys *cs, double t, int agent)
{
    struct round_groups *gs = &cs->groups;
    uint64_t key = pz_heap_bits(t);
    int g = open_group(gs, key);

    if (g >= 0)
        return append(&gs->all[g], agent);
    /* a group of another time in the slot takes no more: its time's later events then
       go behind it in the queue, as they would */
    if ((g = new_group(gs, key)) < 0 || append(&gs->all[g], agent) != 0 ||
        pz_radix_push(&cs->events, t, EV_ROUNDS, g) != 0)
        return -1;
    gs->open[slot_of(key)] = g + 1;
    return 0;
}

void pz_cs_rounds_close(struct pz_comsys *cs, double t)
{
    uint64_t key = pz_heap_bits(t);

    if (open_group(&cs->groups, key) >= 0)
        cs->groups.open[slot_of(key)] = 0;
}

static void free_group(struct round_groups *gs, int g)
{
    if (gs->all[g].cap > FIRST_ROOM) {
        free(gs->all[g].agents);
        gs->all[g].agents = NULL;
        gs->all[g].cap = 0;
    }
    gs->all[g].next_free = gs->free;
    gs->free = g + 1;
}

int pz_cs_rounds_take(struct pz_comsys *cs, struct pz_heap_item *ev)
{
    struct round_groups *gs = &cs->groups;
    struct round_group *g;

    if (!gs->current)
        return 0;
    g = &gs->all[gs->current - 1];
    *ev = (struct pz_heap_item){ cs->now, EV_ROUND, g->agents[g->next++] };
    if (g->next == g->n) {
        free_group(gs, gs->current - 1);
        gs->current = 0;
    }
    return 1;
}

void pz_cs_rounds_begin(struct pz_comsys *cs, struct pz_heap_item *ev)
{
    struct round_groups *gs = &cs->groups;
    int g = ev->id;

    if (gs->open[slot_of(gs->all[g].key)] == g + 1)
        gs->open[slot_of(gs->all[g].key)] = 0;   /* its time has come: nothing joins */
    ev->kind = EV_ROUND;
    ev->id = gs->all[g].agents[0];
    gs->all[g].next = 1;
    if (gs->all[g].n > 1)
        gs->current = g + 1;
    else
        free_group(gs, g);
}

void pz_cs_rounds_free(struct pz_comsys *cs)
{
    for (int g = 0; g < cs->groups.n; g++)
        free(cs->groups.all[g].agents);
    free(cs->groups.all);
}
