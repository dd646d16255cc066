/* Steps and loops as interned symbols (scale_program_int.h): two steps of any process of
 * any recording are the same call of the program when their symbols are equal. */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "scale_program_int.h"
#include "trace.h"

static uint32_t mix(uint32_t h, uint64_t v)
{
    h ^= (uint32_t)(v ^ (v >> 32));
    return h * 16777619u + 0x9e3779b9u;
}

static uint32_t hash_string(const char *s)
{
    uint32_t h = 2166136261u;

    while (*s)
        h = (h ^ (uint8_t)*s++) * 16777619u;
    return h;
}

/* The canonical pointer of a region's name ("" for an undefined one). */
static const char *intern_name(struct sp_table *t, const char *name)
{
    uint32_t i;

    if (!name)
        name = "";
    if (t->nnames * 2 >= t->capnames) {
        uint32_t cap = t->capnames ? t->capnames * 2 : 64;
        const char **v = calloc(cap, sizeof(*v));

        if (!v)
            return NULL;
        for (i = 0; i < t->capnames; i++)
            if (t->names[i]) {
                uint32_t j = hash_string(t->names[i]) & (cap - 1);

                while (v[j])
                    j = (j + 1) & (cap - 1);
                v[j] = t->names[i];
            }
        free(t->names);
        t->names = v;
        t->capnames = cap;
    }
    for (i = hash_string(name) & (t->capnames - 1); t->names[i]; i = (i + 1) & (t->capnames - 1))
        if (!strcmp(t->names[i], name))
            return t->names[i];
    t->nnames++;
    return t->names[i] = name;
}

static uint32_t hash_event(uint32_t h, const struct sp_event *e)
{
    h = mix(h, e->kind | (uint32_t)e->coll_op << 8 | (uint32_t)e->comm.kind << 16 |
                   (uint32_t)e->comm.keep << 24);
    h = mix(h, e->peer.kind | (uint32_t)(uint8_t)e->peer.off[0] << 8 |
                   (uint32_t)(uint8_t)e->peer.off[1] << 16 |
                   (uint32_t)(uint8_t)e->peer.off[2] << 24);
    h = mix(h, (uint64_t)(uint32_t)e->peer.rank << 32 | e->tag);
    return mix(h, (uint64_t)e->poster_sym << 32 | e->poster_event);
}

static uint32_t hash_sym(const struct sp_table *t, const struct sp_sym *s)
{
    uint32_t h = mix(mix(2166136261u, s->kind | (uint32_t)s->step_kind << 8),
                     (uint64_t)(uintptr_t)s->region);

    h = mix(mix(h, s->n), s->count);
    for (uint32_t i = 0; i < s->n; i++)
        h = s->kind == SP_STEP ? hash_event(h, &t->events[s->first + i])
                               : mix(h, t->bodies[s->first + i]);
    return h;
}

static int same_event(const struct sp_event *a, const struct sp_event *b)
{
    return a->kind == b->kind && a->coll_op == b->coll_op && a->comm.kind == b->comm.kind &&
           a->comm.keep == b->comm.keep && a->peer.kind == b->peer.kind &&
           !memcmp(a->peer.off, b->peer.off, sizeof(a->peer.off)) &&
           a->peer.rank == b->peer.rank && a->tag == b->tag &&
           a->poster_sym == b->poster_sym && a->poster_event == b->poster_event;
}

static int same_sym(const struct sp_table *t, const struct sp_sym *a, const struct sp_sym *b)
{
    if (a->kind != b->kind || a->step_kind != b->step_kind || a->region != b->region ||
        a->n != b->n || a->count != b->count)
        return 0;
    for (uint32_t i = 0; i < a->n; i++)
        if (a->kind == SP_STEP ? !same_event(&t->events[a->first + i], &t->events[b->first + i])
                               : t->bodies[a->first + i] != t->bodies[b->first + i])
            return 0;
    return 1;
}

static int rehash(struct sp_table *t)
{
    uint32_t cap = t->capindex ? t->capindex * 2 : 256;
    uint32_t *v = malloc((size_t)cap * sizeof(*v));

    if (!v)
        return -1;
    memset(v, 0xff, (size_t)cap * sizeof(*v));
    for (uint32_t s = 0; s < t->nsyms; s++) {
        uint32_t j = hash_sym(t, &t->syms[s]) & (cap - 1);

        while (v[j] != SP_NONE)
            j = (j + 1) & (cap - 1);
        v[j] = s;
    }
    free(t->index);
    t->index = v;
    t->capindex = cap;
    return 0;
}

/* The symbol of s, whose events or body are the last ones appended to the table: an
 * existing equal symbol (the appended ones dropped), or s added. */
static uint32_t intern(struct sp_table *t, const struct sp_sym *s)
{
    uint32_t j;

    if ((uint64_t)(t->nsyms + 1) * 2 > t->capindex && rehash(t) != 0)
        return SP_NONE;
    for (j = hash_sym(t, s) & (t->capindex - 1); t->index[j] != SP_NONE;
         j = (j + 1) & (t->capindex - 1))
        if (same_sym(t, &t->syms[t->index[j]], s)) {
            if (s->kind == SP_STEP)
                t->nevents -= s->n;
            else
                t->nbodies -= s->n;
            return t->index[j];
        }
    if (pz_grow((void **)&t->syms, &t->capsyms, t->nsyms, sizeof(*t->syms)) != 0)
        return SP_NONE;
    t->syms[t->nsyms] = *s;
    t->index[j] = t->nsyms;
    return t->nsyms++;
}

uint32_t sp_table_loop(struct sp_table *t, const uint32_t *body, uint32_t n, uint32_t count)
{
    struct sp_sym s = {.kind = SP_LOOP, .first = t->nbodies, .n = n, .count = count};

    if (n && pz_grow((void **)&t->bodies, &t->capbodies, t->nbodies + n - 1,
                     sizeof(*t->bodies)) != 0)
        return SP_NONE;
    memmove(t->bodies + t->nbodies, body, n * sizeof(*body));
    t->nbodies += n;
    return intern(t, &s);
}

static int is_completion(uint8_t kind)
{
    return kind == PZ_REC_ISEND_COMPLETE || kind == PZ_REC_IRECV ||
           kind == PZ_REC_NBC_COMPLETE || kind == PZ_REC_REQUEST_TEST ||
           kind == PZ_REC_REQUEST_CANCELLED;
}

static int posts(uint8_t completion, uint8_t kind)
{
    switch (completion) {
    case PZ_REC_ISEND_COMPLETE: return kind == PZ_REC_ISEND;
    case PZ_REC_IRECV: return kind == PZ_REC_IRECV_REQUEST;
    case PZ_REC_NBC_COMPLETE: return kind == PZ_REC_NBC_REQUEST;
    default:
        return kind == PZ_REC_ISEND || kind == PZ_REC_IRECV_REQUEST ||
               kind == PZ_REC_NBC_REQUEST;
    }
}

/* The signature of a recorded event: its poster resolved to a symbol (the poster's
 * first event of a kind that posts what it completes).  An MPI_Irecv's request records
 * no sender: its completion's sender, tag and communicator (borrowed[], an event index
 * or SP_NONE) tell receives from different neighbours apart, as their completions do. */
static void event_sig(const struct pz_scale_run *run, const struct pz_scale_process *p,
                      size_t step, const uint32_t *syms, const uint32_t *borrowed,
                      uint32_t index, struct sp_event *out)
{
    const struct pz_scale_event *e = &p->events[index];
    const struct pz_scale_event *who =
        borrowed[index] != SP_NONE ? &p->events[borrowed[index]] : e;

    memset(out, 0, sizeof(*out));
    out->kind = e->kind;
    out->coll_op = e->coll_op;
    if (who->comm < run->ncomms)
        out->comm = run->comms[who->comm];
    else
        out->comm.kind = who->comm == PZ_SCALE_NO_COMM ? PZ_SCALE_COMM_NONE
                                                       : PZ_SCALE_COMM_OTHER;
    out->peer = who->peer;
    if (out->peer.kind != PZ_SCALE_PEER_OFFSET)
        memset(out->peer.off, 0, sizeof(out->peer.off));
    if (out->peer.kind != PZ_SCALE_PEER_RANK && out->peer.kind != PZ_SCALE_PEER_LAST)
        out->peer.rank = 0;
    out->tag = who->tag;
    out->poster_sym = SP_NONE;
    if (is_completion(e->kind) && e->posted_by > 0 && (size_t)e->posted_by <= step) {
        size_t ps = step - (size_t)e->posted_by;
        const struct pz_scale_step *poster = &p->steps[ps];

        for (uint32_t i = 0; i < poster->n; i++)
            if (poster->first + i < p->nevents &&
                posts(e->kind, p->events[poster->first + i].kind)) {
                out->poster_sym = syms[ps];
                out->poster_event = i;
                break;
            }
    }
}

/* For each MPI_Irecv request event, the event completing it (borrowed[], SP_NONE when
 * none does). */
static void find_completions(const struct pz_scale_process *p, uint32_t *borrowed)
{
    for (size_t i = 0; i < p->nevents; i++)
        borrowed[i] = SP_NONE;
    for (size_t j = 0; j < p->nsteps; j++)
        for (uint32_t k = 0; k < p->steps[j].n && p->steps[j].first + k < p->nevents; k++) {
            const struct pz_scale_event *e = &p->events[p->steps[j].first + k];
            const struct pz_scale_step *poster;

            if (e->kind != PZ_REC_IRECV || e->posted_by <= 0 || (size_t)e->posted_by > j)
                continue;
            poster = &p->steps[j - (size_t)e->posted_by];
            for (uint32_t i = 0; i < poster->n && poster->first + i < p->nevents; i++)
                if (p->events[poster->first + i].kind == PZ_REC_IRECV_REQUEST &&
                    borrowed[poster->first + i] == SP_NONE) {
                    borrowed[poster->first + i] = p->steps[j].first + k;
                    break;
                }
        }
}

int sp_table_steps(struct sp_table *t, const struct pz_scale_run *run,
                   const struct pz_scale_process *p, uint32_t **out)
{
    uint32_t *syms = malloc((p->nsteps ? p->nsteps : 1) * sizeof(*syms));
    uint32_t *borrowed = malloc((p->nevents ? p->nevents : 1) * sizeof(*borrowed));

    if (!syms || !borrowed)
        goto fail;
    find_completions(p, borrowed);
    for (size_t i = 0; i < p->nsteps; i++) {
        const struct pz_scale_step *st = &p->steps[i];
        struct sp_sym s = {.kind = SP_STEP, .step_kind = st->kind, .first = t->nevents};
        uint32_t n = st->first + (uint64_t)st->n <= p->nevents ? st->n : 0;

        s.region = intern_name(t, st->region < run->nnames ? run->names[st->region] : NULL);
        if (!s.region || (n && pz_grow((void **)&t->events, &t->capevents,
                                       t->nevents + n - 1, sizeof(*t->events)) != 0))
            goto fail;
        for (uint32_t k = 0; k < n; k++)
            event_sig(run, p, i, syms, borrowed, st->first + k, &t->events[t->nevents + k]);
        t->nevents += n;
        s.n = n;
        if ((syms[i] = intern(t, &s)) == SP_NONE)
            goto fail;
    }
    free(borrowed);
    *out = syms;
    return 0;
fail:
    free(borrowed);
    free(syms);
    return -1;
}

const char *sp_sym_name(const struct sp_table *t, uint32_t sym)
{
    if (sym >= t->nsyms)
        return "the end";
    if (t->syms[sym].kind == SP_LOOP)
        return "a loop";
    return *t->syms[sym].region ? t->syms[sym].region : "an undefined region";
}

void sp_table_free(struct sp_table *t)
{
    free(t->syms);
    free(t->events);
    free(t->bodies);
    free(t->index);
    free(t->names);
    memset(t, 0, sizeof(*t));
}
