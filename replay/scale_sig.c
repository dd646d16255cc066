/* Steps and loops as interned symbols (scale_program_int.h): two steps of any process of
 * any recording are the same call of the program when their symbols are equal. */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "large_count.h"
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
    if (e->comm.k)
        h = mix(h, e->comm.k);
    h = mix(h, e->peer.kind | (uint32_t)(uint8_t)e->peer.off[0] << 8 |
                   (uint32_t)(uint8_t)e->peer.off[1] << 16 |
                   (uint32_t)(uint8_t)e->peer.off[2] << 24);
    h = mix(h, (uint64_t)(uint32_t)e->peer.rank << 32 | e->tag);
    h = mix(h, (uint64_t)e->tag_after << 32 | e->tag_step);
    h = mix(h, (uint64_t)e->poster_sym << 32 | e->poster_event);
    return mix(h, e->done_kind);
}

static uint32_t hash_sym(const struct sp_table *t, const struct sp_sym *s)
{
    uint32_t h = mix(mix(2166136261u, s->kind | (uint32_t)s->step_kind << 8),
                     (uint64_t)(uintptr_t)s->region);

    h = mix(mix(mix(mix(h, s->n), s->count), s->ends), s->variant);
    for (uint32_t i = 0; i < s->n; i++)
        h = s->kind == SP_STEP ? hash_event(h, &t->events[s->first + i])
                               : mix(h, t->bodies[s->first + i]);
    return h;
}

static int same_event(const struct sp_event *a, const struct sp_event *b)
{
    return a->kind == b->kind && a->coll_op == b->coll_op && a->comm.kind == b->comm.kind &&
           a->comm.keep == b->comm.keep && a->comm.k == b->comm.k &&
           a->peer.kind == b->peer.kind &&
           !memcmp(a->peer.off, b->peer.off, sizeof(a->peer.off)) &&
           a->peer.rank == b->peer.rank && a->tag == b->tag && a->tag_step == b->tag_step &&
           a->tag_after == b->tag_after && a->poster_sym == b->poster_sym &&
           a->poster_event == b->poster_event && a->done_kind == b->done_kind;
}

static int same_sym(const struct sp_table *t, const struct sp_sym *a, const struct sp_sym *b)
{
    if (a->kind != b->kind || a->step_kind != b->step_kind || a->region != b->region ||
        a->n != b->n || a->count != b->count || a->ends != b->ends || a->variant != b->variant)
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

/* The slot of s's symbol in the index: the symbol's, or the empty slot it would take. */
static uint32_t slot_of(const struct sp_table *t, const struct sp_sym *s)
{
    uint32_t j;

    for (j = hash_sym(t, s) & (t->capindex - 1); t->index[j] != SP_NONE;
         j = (j + 1) & (t->capindex - 1))
        if (same_sym(t, &t->syms[t->index[j]], s))
            break;
    return j;
}

/* The symbol of s, whose events or body are the last ones appended to the table: an
 * existing equal symbol (the appended ones dropped), or s added. */
static uint32_t intern(struct sp_table *t, const struct sp_sym *s)
{
    uint32_t j;

    if ((uint64_t)(t->nsyms + 1) * 2 > t->capindex && rehash(t) != 0)
        return SP_NONE;
    j = slot_of(t, s);
    if (t->index[j] != SP_NONE) {
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

uint32_t sp_table_step(struct sp_table *t, const struct sp_sym *proto,
                       const struct sp_event *ev)
{
    struct sp_sym s = *proto;

    s.kind = SP_STEP;
    s.first = t->nevents;
    if (s.n && pz_grow((void **)&t->events, &t->capevents, t->nevents + s.n - 1,
                       sizeof(*t->events)) != 0)
        return SP_NONE;
    /* a step without events may come before any: no array to copy into yet */
    if (s.n)
        memmove(t->events + t->nevents, ev, s.n * sizeof(*ev));
    t->nevents += s.n;
    return intern(t, &s);
}

uint32_t sp_table_loop(struct sp_table *t, const uint32_t *body, uint32_t n, uint32_t count)
{
    struct sp_sym s = {.kind = SP_LOOP, .first = t->nbodies, .n = n, .count = count};

    if (n && pz_grow((void **)&t->bodies, &t->capbodies, t->nbodies + n - 1,
                     sizeof(*t->bodies)) != 0)
        return SP_NONE;
    memmove(t->bodies + t->nbodies, body, n * sizeof(*body));
    t->nbodies += n;
    if (t->data_trips && count && t->capindex) {
        struct sp_sym any = s;
        uint32_t j;

        any.count = 0;
        if ((j = t->index[slot_of(t, &any)]) != SP_NONE) {
            t->nbodies -= n;
            return j;
        }
    }
    return intern(t, &s);
}

/* The records that end a request: its completion, or its cancel. */
static int posts(uint8_t completion, uint8_t kind)
{
    switch (completion) {
    case PZ_REC_ISEND_COMPLETE: return kind == PZ_REC_ISEND;
    case PZ_REC_IRECV: return kind == PZ_REC_IRECV_REQUEST;
    case PZ_REC_NBC_COMPLETE: return kind == PZ_REC_NBC_REQUEST;
    case PZ_REC_RMA_OP_COMPLETE: return pz_scale_is_transfer(kind);
    default:
        return kind == PZ_REC_ISEND || kind == PZ_REC_IRECV_REQUEST ||
               kind == PZ_REC_NBC_REQUEST || pz_scale_is_transfer(kind);
    }
}

int sp_reduced(const char *region, uint8_t kind, uint32_t poster)
{
    /* MPI_Wait and MPI_Test take one request: the call is made when the request is */
    if (!region)
        region = "";
    return pz_scale_ends_request(kind) && poster != SP_NONE &&
           strcmp(region, "MPI_Wait") != 0 && strcmp(region, "MPI_Test") != 0;
}

/* The first event of step ps (the poster of a record of kind `kind`) that posts what it
 * ends and is not yet ended (done[], SP_NONE: any), or SP_NONE. */
static uint32_t posting_event(const struct pz_scale_process *p, size_t ps, uint8_t kind,
                              const uint32_t *done)
{
    const struct pz_scale_step *poster = &p->steps[ps];

    for (uint32_t i = 0; i < poster->n && poster->first + i < p->nevents; i++)
        if (posts(kind, p->events[poster->first + i].kind) &&
            (!done || done[poster->first + i] == SP_NONE))
            return poster->first + i;
    return SP_NONE;
}

void sp_pair_requests(const struct pz_scale_process *p, uint32_t *poster, uint32_t *done)
{
    for (size_t i = 0; i < p->nevents; i++)
        poster[i] = done[i] = SP_NONE;
    for (size_t j = 0; j < p->nsteps; j++)
        for (uint32_t k = 0; k < p->steps[j].n && p->steps[j].first + k < p->nevents; k++) {
            uint32_t e = p->steps[j].first + k, pe;

            if (!pz_scale_ends_request(p->events[e].kind) || p->events[e].posted_by <= 0 ||
                (size_t)p->events[e].posted_by > j)
                continue;
            pe = posting_event(p, j - (size_t)p->events[e].posted_by, p->events[e].kind, done);
            if (pe != SP_NONE) {
                poster[e] = pe;
                done[pe] = e;
            }
        }
}

/* The bit of struct sp_sym.ends of a completion of kind `kind`: 1 << kind, and for the
 * completion of a one-sided transfer, whose kind is beyond the 16 bits, the bit of
 * PZ_REC_FLUSH, which is no event. */
static uint16_t ends_bit(uint8_t kind)
{
    return (uint16_t)(1u << (kind == PZ_REC_RMA_OP_COMPLETE ? PZ_REC_FLUSH : kind));
}

/* Does a call of region complete every request it is given: then which kinds of
 * requests it completes tells two such calls apart, whatever their number. */
static int completes_all(const char *region)
{
    return !strcmp(region, "MPI_Waitall") || !strcmp(region, "MPI_Testall");
}

static const char *region_name(const struct pz_scale_run *run, const struct pz_scale_step *st)
{
    return st->region < run->nnames ? run->names[st->region] : NULL;
}

/* The tests and the waits of the same form. */
static const char *const test_wait[][2] = {
    {"MPI_Test", "MPI_Wait"}, {"MPI_Testall", "MPI_Waitall"},
    {"MPI_Testany", "MPI_Waitany"}, {"MPI_Testsome", "MPI_Waitsome"},
};

/* The other of name's pair in test_wait, looked for at column `from`, or NULL. */
static const char *paired(const char *name, int from)
{
    for (size_t i = 0; name && i < sizeof(test_wait) / sizeof(test_wait[0]); i++)
        if (!strcmp(name, test_wait[i][from]))
            return test_wait[i][1 - from];
    return NULL;
}

const char *sp_wait_of_test(const char *name)
{
    return paired(name, 0);
}

const char *sp_test_of_wait(const char *name)
{
    return paired(name, 1);
}

/* The call a step is in the template: a test that completes requests is the wait of its
 * form completing them (MPI_Test the MPI_Wait, MPI_Testall the MPI_Waitall ...).  A
 * program polling requests with a test until they are done (its incomplete tests, and
 * a wait on the requests already done, are no steps: scale_run.c) completes them in a
 * test or in the wait that follows, as the timing decides from one iteration to the
 * next; either is the one completion. */
static const char *step_call(const struct pz_scale_run *run, const struct pz_scale_process *p,
                             const struct pz_scale_step *st)
{
    const char *name = region_name(run, st), *wait = sp_wait_of_test(name);

    if (!wait)
        return name;
    for (uint32_t k = 0; k < st->n && st->first + k < p->nevents; k++)
        if (pz_scale_ends_request(p->events[st->first + k].kind))
            return wait;
    return name;
}

/* The index of event ev among the events of step ps that are in its signature. */
static uint32_t signature_index(const struct pz_scale_run *run, const struct pz_scale_process *p,
                                const uint32_t *poster, size_t ps, uint32_t ev)
{
    const struct pz_scale_step *st = &p->steps[ps];
    uint32_t n = 0;

    for (uint32_t i = st->first; i < ev; i++)
        n += !sp_reduced(region_name(run, st), p->events[i].kind, poster[i]);
    return n;
}

/* The signature of a recorded event: its poster resolved to a symbol (for a test, the
 * poster's first event that posts a request).  An MPI_Irecv's request records no sender,
 * a nonblocking collective's request no communicator: their completion's sender, tag,
 * communicator and operation (done[]) tell receives from different neighbours apart, as
 * their completions do, and are those of the completion synthesized. */
static void event_sig(const struct pz_scale_run *run, const struct pz_scale_process *p,
                      size_t step, const uint32_t *syms, const uint32_t *poster,
                      const uint32_t *done, uint32_t index, struct sp_event *out)
{
    const struct pz_scale_event *e = &p->events[index], *who = e;
    uint32_t pe = poster[index];

    if (done[index] != SP_NONE &&
        ((e->kind == PZ_REC_IRECV_REQUEST && p->events[done[index]].kind == PZ_REC_IRECV) ||
         (e->kind == PZ_REC_NBC_REQUEST && p->events[done[index]].kind == PZ_REC_NBC_COMPLETE)))
        who = &p->events[done[index]];
    memset(out, 0, sizeof(*out));
    out->kind = e->kind;
    out->coll_op = who->coll_op;
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
    out->done_kind = done[index] != SP_NONE ? p->events[done[index]].kind : PZ_REC_ENTER;
    out->poster_sym = SP_NONE;
    if (e->kind == PZ_REC_REQUEST_TEST && e->posted_by > 0 && (size_t)e->posted_by <= step)
        pe = posting_event(p, step - (size_t)e->posted_by, e->kind, NULL);
    if (pe != SP_NONE) {
        size_t ps = step - (size_t)e->posted_by;

        out->poster_sym = syms[ps];
        out->poster_event = signature_index(run, p, poster, ps, pe);
    }
}

/* The distinct sizes the calls of one process were made with (sp_table.by_sizes): by
 * a call's symbol and a hash of its events' sizes, the variant they were given. */
struct variant_slot {
    uint64_t key;
    uint32_t base, variant;    /* base SP_NONE: empty */
};
struct variants {
    struct variant_slot *slot;
    size_t cap;                /* a power of two, more than twice the steps */
    uint32_t *given;           /* [base]: how many variants it has */
    uint32_t capgiven;
};

static int variants_init(struct variants *v, size_t nsteps)
{
    memset(v, 0, sizeof(*v));
    for (v->cap = 64; v->cap <= 2 * nsteps; v->cap *= 2)
        ;
    if (!(v->slot = malloc(v->cap * sizeof(*v->slot))))
        return -1;
    for (size_t i = 0; i < v->cap; i++)
        v->slot[i].base = SP_NONE;
    return 0;
}

static void variants_free(struct variants *v)
{
    free(v->slot);
    free(v->given);
}

/* A hash of the sizes of every event of step st (those left out of its signature too:
 * a Waitall's completions carry what it received). */
static uint64_t sizes_key(const struct pz_scale_process *p, const struct pz_scale_step *st,
                          uint32_t n)
{
    uint64_t h = SP_HASH_START;

    for (uint32_t k = 0; k < n; k++)
        h = sp_hash_mix(sp_hash_mix(h, p->events[st->first + k].bytes),
                        p->events[st->first + k].bytes2);
    return h;
}

/* The variant of a call of symbol base made with sizes key: the one given to these
 * sizes before, or the next; SP_NONE when memory runs out. */
static uint32_t variant_of(struct variants *v, uint32_t base, uint64_t key)
{
    size_t i = (size_t)mix(mix(2166136261u, base), key) & (v->cap - 1);

    for (; v->slot[i].base != SP_NONE; i = (i + 1) & (v->cap - 1))
        if (v->slot[i].base == base && v->slot[i].key == key)
            return v->slot[i].variant;
    if (pz_grow((void **)&v->given, &v->capgiven, base, sizeof(*v->given)) != 0)
        return SP_NONE;
    v->slot[i] = (struct variant_slot){key, base, v->given[base]++};
    return v->slot[i].variant;
}

/* The symbol of step symbol base made with other sizes, its variant-th. */
static uint32_t intern_variant(struct sp_table *t, uint32_t base, uint32_t variant)
{
    struct sp_sym s = t->syms[base];

    if (!variant)
        return base;
    if (s.n && pz_grow((void **)&t->events, &t->capevents, t->nevents + s.n - 1,
                       sizeof(*t->events)) != 0)
        return SP_NONE;
    memcpy(t->events + t->nevents, t->events + s.first, s.n * sizeof(*t->events));
    s.first = t->nevents;
    s.variant = variant;
    t->nevents += s.n;
    return intern(t, &s);
}

int sp_table_steps(struct sp_table *t, const struct pz_scale_run *run,
                   const struct pz_scale_process *p, uint32_t **out)
{
    size_t nev = p->nevents ? p->nevents : 1;
    uint32_t *syms = malloc((p->nsteps ? p->nsteps : 1) * sizeof(*syms));
    uint32_t *poster = malloc(nev * sizeof(*poster)), *done = malloc(nev * sizeof(*done));
    struct variants v = {0};

    if (!syms || !poster || !done || (t->by_sizes && variants_init(&v, p->nsteps) != 0))
        goto fail;
    sp_pair_requests(p, poster, done);
    for (size_t i = 0; i < p->nsteps; i++) {
        const struct pz_scale_step *st = &p->steps[i];
        struct sp_sym s = {.kind = SP_STEP, .step_kind = st->kind, .first = t->nevents};
        uint32_t n = st->first + (uint64_t)st->n <= p->nevents ? st->n : 0;

        s.region = intern_name(t, step_call(run, p, st));
        if (!s.region || (n && pz_grow((void **)&t->events, &t->capevents,
                                       t->nevents + n - 1, sizeof(*t->events)) != 0))
            goto fail;
        for (uint32_t k = 0; k < n; k++) {
            uint8_t kind = p->events[st->first + k].kind;

            if (!sp_reduced(s.region, kind, poster[st->first + k]))
                event_sig(run, p, i, syms, poster, done, st->first + k,
                          &t->events[t->nevents + s.n++]);
            else if (completes_all(s.region) && kind != PZ_REC_REQUEST_CANCELLED)
                s.ends |= ends_bit(kind);
        }
        t->nevents += s.n;
        if ((syms[i] = intern(t, &s)) == SP_NONE)
            goto fail;
        if (t->by_sizes) {
            uint32_t variant = variant_of(&v, syms[i], sizes_key(p, st, n));

            if (variant == SP_NONE || (syms[i] = intern_variant(t, syms[i], variant)) == SP_NONE)
                goto fail;
        }
    }
    variants_free(&v);
    free(poster);
    free(done);
    *out = syms;
    return 0;
fail:
    variants_free(&v);
    free(poster);
    free(done);
    free(syms);
    return -1;
}

/* The step a call over many requests given none stands for: a process without any
 * neighbour (every one, at 1 process) completes nothing, so its call shows no kind of
 * request; it is the one step of the same call completing some, or none when there are
 * several (a Waitall of receives and one of sends) or none. */
static uint32_t given_none(const struct sp_table *t, uint32_t sym)
{
    struct sp_sym a = t->syms[sym];
    uint32_t found = SP_NONE;

    if (a.kind != SP_STEP || a.ends || !completes_all(a.region))
        return SP_NONE;
    for (uint32_t s = 0; s < t->nsyms; s++) {
        a.ends = t->syms[s].ends;
        if (a.ends && same_sym(t, &a, &t->syms[s])) {
            if (found != SP_NONE)
                return SP_NONE;
            found = s;
        }
    }
    return found;
}

int sp_table_given_none(const struct sp_table *t, uint32_t **map)
{
    if (!(*map = malloc((t->nsyms ? t->nsyms : 1) * sizeof(**map))))
        return -1;
    for (uint32_t s = 0; s < t->nsyms; s++) {
        uint32_t to = given_none(t, s);

        (*map)[s] = to == SP_NONE ? s : to;
    }
    return 0;
}

/* --- steps a recording cannot tell apart (scale_program_int.h) */

/* How many message events a call of region makes when its peers exist; 0: not a
 * point-to-point call.  MPI 4.0's large-count forms (MPI_Send_c) as their siblings. */
static uint32_t message_events(const char *region)
{
    static const char *const one[] = {
        "MPI_Send", "MPI_Bsend", "MPI_Ssend", "MPI_Rsend", "MPI_Isend", "MPI_Ibsend",
        "MPI_Issend", "MPI_Irsend", "MPI_Recv", "MPI_Irecv", "MPI_Wait"
    };
    char name[32];

    if (pz_int_count_form(region, name, sizeof(name)) != 0)
        return 0;
    if (!strcmp(name, "MPI_Sendrecv") || !strcmp(name, "MPI_Sendrecv_replace"))
        return 2;
    for (size_t i = 0; i < sizeof(one) / sizeof(*one); i++)
        if (!strcmp(name, one[i]))
            return 1;
    return 0;
}

/* The records a call to MPI_PROC_NULL leaves out. */
static int message_kind(uint8_t kind)
{
    return kind == PZ_REC_SEND || kind == PZ_REC_RECV || kind == PZ_REC_ISEND ||
           kind == PZ_REC_IRECV_REQUEST || kind == PZ_REC_IRECV ||
           kind == PZ_REC_ISEND_COMPLETE;
}

int sp_world_dim(const struct pz_scale_comm *c, int i)
{
    if (c->kind == PZ_SCALE_COMM_WORLD)
        return i;
    for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++)
        if ((c->keep >> d) & 1 && i-- == 0)
            return d;
    return -1;
}

int sp_grid_offset(const struct sp_event *e)
{
    return e->peer.kind == PZ_SCALE_PEER_OFFSET &&
           (e->comm.kind == PZ_SCALE_COMM_WORLD || e->comm.kind == PZ_SCALE_COMM_SLICE);
}

/* Does offset value `off` of a dimension of n processes, where the dimension is
 * ambiguous, name the same process as the template's `want`. */
static int same_process(int off, int want, int n)
{
    if (n == 1)
        return want >= -1 && want <= 1;
    return off == want || (off != 0 && want == -off);
}

/* Is e's offset ambiguous in the dimensions `ambiguous` of grid g (NULL: any value). */
static int ambiguous_offset(const struct sp_event *e, const struct pz_scale_grid *g,
                            uint8_t ambiguous)
{
    if (!sp_grid_offset(e))
        return 0;
    for (int i = 0; i < PZ_SCALE_MAX_DIMS; i++) {
        int d = sp_world_dim(&e->comm, i);

        if (d >= 0 && (ambiguous >> d) & 1 && (!g || g->dims[d] == 1 || e->peer.off[i] != 0))
            return 1;
    }
    return 0;
}

int sp_open(const struct sp_table *t, uint32_t sym, uint8_t ambiguous)
{
    const struct sp_sym *s = &t->syms[sym];
    uint32_t messages = 0;

    if (s->kind != SP_STEP)
        return 0;
    for (uint32_t i = 0; i < s->n; i++) {
        /* MPI_Wait's completion of any request counts: of a collective's too */
        messages += message_kind(t->events[s->first + i].kind) ||
                    !strcmp(s->region, "MPI_Wait");
        if (ambiguous && ambiguous_offset(&t->events[s->first + i], NULL, ambiguous))
            return 1;
    }
    return messages < message_events(s->region);
}

/* Does the process at e's offset from `at` exist (a peer without an offset does). */
static int peer_exists(const struct sp_event *e, const struct sp_at *at)
{
    if (!sp_grid_offset(e))
        return 1;
    for (int i = 0; i < PZ_SCALE_MAX_DIMS; i++) {
        int d = sp_world_dim(&e->comm, i), c;

        if (d < 0 || d >= at->grid->ndims || at->grid->periodic[d] || (at->ambiguous >> d) & 1)
            continue;
        c = at->coords[d] + e->peer.off[i];
        if (c < 0 || c >= at->grid->dims[d])
            return 0;
    }
    return 1;
}

/* May template event e be missing at `at`: a message record whose peer, or whose
 * request's poster's peer, does not exist there. */
static int may_miss(const struct sp_table *t, const struct sp_event *e, const struct sp_at *at)
{
    const struct sp_event *poster = NULL;

    if (!message_kind(e->kind))
        return 0;
    if (e->poster_sym != SP_NONE)
        poster = &t->events[t->syms[e->poster_sym].first + e->poster_event];
    return !peer_exists(e, at) || (poster && !peer_exists(poster, at));
}

static int align(const struct sp_table *t, uint32_t tsym, uint32_t rsym, const struct sp_at *at,
                 uint32_t upto, uint32_t *mapped, uint32_t *nmissing);

/* Is recorded event r template event e at `at`: their posters compatible steps (a poster
 * is an earlier step: the recursion ends). */
static int event_compatible(const struct sp_table *t, const struct sp_event *e,
                            const struct sp_event *r, const struct sp_at *at)
{
    struct sp_event a = *e, b = *r;
    uint32_t unused, nmissing;

    if (ambiguous_offset(r, at->grid, at->ambiguous) && sp_grid_offset(e))
        for (int i = 0; i < PZ_SCALE_MAX_DIMS; i++) {
            int d = sp_world_dim(&r->comm, i);

            if (d >= 0 && (at->ambiguous >> d) & 1 &&
                same_process(r->peer.off[i], e->peer.off[i], at->grid->dims[d]))
                b.peer.off[i] = e->peer.off[i];
        }
    a.poster_sym = b.poster_sym = 0;
    if (!same_event(&a, &b) || (e->poster_sym == SP_NONE) != (r->poster_sym == SP_NONE))
        return 0;
    return e->poster_sym == r->poster_sym ||
           align(t, e->poster_sym, r->poster_sym, at, SP_NONE, &unused, &nmissing);
}

/* Aligns rsym's events on tsym's in order, a template event that may be missing skipped
 * when it matches none: whether they are compatible, into *mapped the template index of
 * rsym's event upto, into *nmissing how many template events are missing. */
static int align(const struct sp_table *t, uint32_t tsym, uint32_t rsym, const struct sp_at *at,
                 uint32_t upto, uint32_t *mapped, uint32_t *nmissing)
{
    const struct sp_sym *a = &t->syms[tsym], *b = &t->syms[rsym];
    uint32_t j = 0;

    *nmissing = 0;
    if (a->kind != SP_STEP || b->kind != SP_STEP || a->step_kind != b->step_kind ||
        a->region != b->region || a->ends != b->ends || b->n > a->n)
        return 0;
    for (uint32_t i = 0; i < b->n; i++, j++) {
        const struct sp_event *r = &t->events[b->first + i];

        while (j < a->n && !event_compatible(t, &t->events[a->first + j], r, at)) {
            if (!may_miss(t, &t->events[a->first + j], at))
                return 0;
            j++;
            (*nmissing)++;
        }
        if (j == a->n)
            return 0;
        if (i == upto)
            *mapped = j;
    }
    for (; j < a->n; j++, (*nmissing)++)
        if (!may_miss(t, &t->events[a->first + j], at))
            return 0;
    /* a step without some of its messages has sizes of its own: its variant tells
       nothing */
    return *nmissing > 0 || a->variant == b->variant;
}

int sp_compatible(const struct sp_table *t, uint32_t tsym, uint32_t rsym,
                  const struct sp_at *at, int *missing)
{
    uint32_t nmissing = 0, unused;
    int ok = tsym == rsym || align(t, tsym, rsym, at, SP_NONE, &unused, &nmissing);

    if (missing)
        *missing = ok && nmissing > 0;
    return ok;
}

uint32_t sp_map_event(const struct sp_table *t, uint32_t tsym, uint32_t rsym,
                      const struct sp_at *at, uint32_t i)
{
    uint32_t j = SP_NONE, nmissing;

    if (tsym == rsym)
        return i;
    return align(t, tsym, rsym, at, i, &j, &nmissing) ? j : SP_NONE;
}

/* Step symbol sym's one event, if that is a send or a receive (else NULL). */
static const struct sp_event *lone_message(const struct sp_table *t, uint32_t sym, uint8_t kind)
{
    const struct sp_sym *s = &t->syms[sym];

    if (s->kind != SP_STEP || s->n != 1 || t->events[s->first].kind != kind)
        return NULL;
    return &t->events[s->first];
}

uint32_t sp_union(struct sp_table *t, uint32_t a, uint32_t b)
{
    const struct sp_sym *sa = &t->syms[a], *sb = &t->syms[b];
    const struct sp_event *send = lone_message(t, a, PZ_REC_SEND),
                          *recv = lone_message(t, b, PZ_REC_RECV);
    struct sp_event ev[2];
    struct sp_sym proto;

    if (sa->kind != SP_STEP || sb->kind != SP_STEP || sa->region != sb->region ||
        sa->step_kind != sb->step_kind || sa->ends != sb->ends ||
        message_events(sa->region) != 2)
        return SP_NONE;
    if (!send || !recv) {
        send = lone_message(t, b, PZ_REC_SEND);
        recv = lone_message(t, a, PZ_REC_RECV);
    }
    if (!send || !recv)
        return SP_NONE;
    ev[0] = *send;
    ev[1] = *recv;
    proto = *sa;
    proto.n = 2;
    proto.variant = 0;
    return sp_table_step(t, &proto, ev);
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
