/* The calls that complete whatever request is done (MPI_Waitany, MPI_Testany,
 * MPI_Waitsome, MPI_Testsome), made by a thread one after the other with no other MPI
 * call between them, each completing requests, form a pool: a program that takes its
 * receives as they arrive.  Which request each call completes is the timing's, not the
 * program's, so a call of a pool completes, among the requests the pool's calls
 * complete, the one(s) the model completes first; as many as it was recorded
 * completing.  Ties go to the call's recorded requests, then to the order in which the
 * recording completed them: a request done when the call starts ties with every other
 * such, so a machine where all are done keeps the recorded choice.  The model learns
 * most completions before they happen (an eager message's arrival when it is sent), so
 * a call that waits is woken when what it chooses happens, planned again each time a
 * completion learnt happens earlier: an item of kind 1 on the engine's ready queue,
 * which pz_any_due tells from one planned before.
 *
 * A request a call takes from a later call of the pool leaves that call, in its place,
 * a request the call was recorded completing: the later call's completion record is
 * swapped for the call's own, so that the predicted trace names in every call the
 * request completed there, with its source, tag and bytes.  The computation between
 * the calls stays where it was: it belongs to the position in the loop.
 *
 * A call chooses only where every request of the pool is one of the thread's posted,
 * nonpersistent point-to-point requests (not from MPI_PROC_NULL, not cancelled); else
 * it completes what it was recorded completing.  A call of another kind (an MPI_Wait, a
 * test that completed nothing, a post, a call that completed anything else) ends the
 * pool, as does a call of another function, or one completing sends where the others
 * completed receives or the reverse. */
#include <stdlib.h>
#include <string.h>

#include "calls_gen.h"
#include "engine_int.h"
#include "grow.h"

/* How far a pool is looked at: calls, this one included, records ahead, and the
 * requests the call chooses among (each completion learnt looks at all of them). */
#define POOL_CALLS 64
#define POOL_RECORDS 4096
#define POOL_REQUESTS 256

/* A record of the call in progress replaced by another: at its position in the call. */
struct replaced {
    size_t at;
    struct pz_rec rec;
};

/* A later call's completion record of request id that is to be replaced by rec. */
struct swap {
    uint64_t id;
    struct pz_rec rec;
};

/* A request the call in progress may complete. */
struct candidate {
    struct pz_rec rec;     /* its completion record */
    uint64_t slot;         /* the request id recorded where rec stands */
    size_t at;             /* own: rec's position in the call */
    int own;               /* recorded in the call (its position: at) */
    int request;           /* the model's */
    double done;           /* its completion, < 0 while not known */
    int chosen;
};

struct any_state {
    struct replaced *replaced;
    uint32_t nreplaced, capreplaced;
    struct swap *swaps;
    uint32_t nswaps, capswaps;
    struct candidate *cand;
    uint32_t ncand, capcand;
    int need;              /* completions the call in progress chooses; 0: it does not */
    double woken;          /* when the parked call is to end, -1 until known */
};

static int is_any_call(int call)
{
    return call == PZ_CALL_MPI_Waitany || call == PZ_CALL_MPI_Testany ||
           call == PZ_CALL_MPI_Waitsome || call == PZ_CALL_MPI_Testsome;
}

/* Whether kind completes a point-to-point request: what a pool's calls may hold. */
static int is_completion(uint8_t kind)
{
    return kind == PZ_REC_IRECV || kind == PZ_REC_ISEND_COMPLETE;
}

/* Thread th's state, made at its first call of the kind; NULL if memory ran out. */
static struct any_state *state_of(struct engine *e, int th)
{
    if (!e->any && !(e->any = calloc((size_t)e->nthreads, sizeof(*e->any)))) {
        pz_engine_fail(e, "out of memory");
        return NULL;
    }
    if (!e->any[th] && !(e->any[th] = calloc(1, sizeof(**e->any))))
        pz_engine_fail(e, "out of memory");
    return e->any[th];
}

const struct pz_rec *pz_any_record(struct engine *e, int th, size_t i)
{
    const struct any_state *s = e->any ? e->any[th] : NULL;

    for (uint32_t j = 0; s && j < s->nreplaced; j++)
        if (s->replaced[j].at == i)
            return &s->replaced[j].rec;
    return pz_trace_in_peek(e->in, th, i);
}

/* Record i of the call becomes rec, keeping its recorded times. */
static int replace(struct engine *e, int th, struct any_state *s, size_t at, struct pz_rec rec)
{
    const struct pz_rec *slot = pz_trace_in_peek(e->in, th, at);
    uint32_t j = 0;

    rec.time = slot->time;
    rec.cpu = slot->cpu;
    while (j < s->nreplaced && s->replaced[j].at != at)
        j++;
    if (j == s->nreplaced &&
        pz_grow((void **)&s->replaced, &s->capreplaced, j, sizeof(*s->replaced)) != 0) {
        pz_engine_fail(e, "out of memory");
        return -1;
    }
    s->replaced[j] = (struct replaced){ at, rec };
    s->nreplaced += j == s->nreplaced;
    return 0;
}

static struct swap *find_swap(struct any_state *s, uint64_t id)
{
    for (uint32_t j = 0; j < s->nswaps; j++)
        if (s->swaps[j].id == id)
            return &s->swaps[j];
    return NULL;
}

/* The later completion record of request id is to be rec. */
static int set_swap(struct engine *e, struct any_state *s, uint64_t id, struct pz_rec rec)
{
    struct swap *w = find_swap(s, id);

    if (w) {
        w->rec = rec;
        return 0;
    }
    if (pz_grow((void **)&s->swaps, &s->capswaps, s->nswaps, sizeof(*s->swaps)) != 0) {
        pz_engine_fail(e, "out of memory");
        return -1;
    }
    s->swaps[s->nswaps++] = (struct swap){ id, rec };
    return 0;
}

/* The call's completion records that an earlier call's choice swapped are replaced. */
static void apply_swaps(struct engine *e, int th, struct any_state *s)
{
    size_t len = e->threads[th].call_len;

    for (size_t i = 1; i + 1 < len && s->nswaps; i++) {
        const struct pz_rec *r = pz_trace_in_peek(e->in, th, i);
        struct swap *w;

        if (!is_completion(r->kind) || !(w = find_swap(s, r->request)))
            continue;
        if (replace(e, th, s, i, w->rec) != 0)
            return;
        *w = s->swaps[--s->nswaps];
    }
}

static int add_candidate(struct engine *e, struct any_state *s, struct candidate c)
{
    if (pz_grow((void **)&s->cand, &s->capcand, s->ncand, sizeof(*s->cand)) != 0) {
        pz_engine_fail(e, "out of memory");
        return -1;
    }
    c.done = -1;
    c.chosen = 0;
    s->cand[s->ncand++] = c;
    return 0;
}

/* What a call of a pool is: its function and the kinds of requests it completes (bit 0
 * receives, bit 1 sends).  A pool's calls are all alike: the recording does not say
 * which array each call was given, and a loop over the receives followed by one over
 * the sends must not lend a receive's call a send. */
struct pool_sig {
    int call, kinds;
};

static int same_sig(struct pool_sig a, struct pool_sig b)
{
    return a.call == b.call && a.kinds == b.kinds;
}

/* The length (Enter to Leave) of the MPI call whose Enter is record `at` of thread th
 * if it is a call of a pool: of the kind, completing requests and nothing else, with
 * its signature in *sig; else 0. */
static size_t pool_call_at(struct engine *e, int th, size_t at, struct pool_sig *sig)
{
    const struct pz_rec *r = pz_trace_in_peek(e->in, th, at);
    const struct pz_region_info *call;
    uint32_t region;

    if (!r || r->kind != PZ_REC_ENTER)
        return 0;
    region = r->region;
    call = pz_trace_in_region(e->in, region);
    if (call->kind != PZ_REGION_MPI || !is_any_call(call->call))
        return 0;
    *sig = (struct pool_sig){ call->call, 0 };
    for (size_t i = at + 1; i < at + POOL_RECORDS && (r = pz_trace_in_peek(e->in, th, i)); i++) {
        if (r->kind == PZ_REC_LEAVE && r->region == region)
            return sig->kinds ? i - at + 1 : 0;
        if (is_completion(r->kind))
            sig->kinds |= r->kind == PZ_REC_IRECV ? 1 : 2;
        else if (r->kind != PZ_REC_FLUSH)
            return 0;
    }
    return 0;
}

/* Whether record r lies between two MPI calls without ending a pool: an interval's or
 * the program's region entered or left, a flush. */
static int between_calls(struct engine *e, const struct pz_rec *r)
{
    if (r->kind == PZ_REC_FLUSH)
        return 1;
    return (r->kind == PZ_REC_ENTER || r->kind == PZ_REC_LEAVE) &&
           pz_trace_in_region(e->in, r->region)->kind != PZ_REGION_MPI;
}

/* The call's own completions as candidates. */
static int own_candidates(struct engine *e, int th, struct any_state *s)
{
    size_t len = e->threads[th].call_len;

    for (size_t i = 1; i + 1 < len; i++) {
        struct pz_rec r = *pz_any_record(e, th, i);

        if (is_completion(r.kind) &&
            add_candidate(e, s, (struct candidate){ .rec = r, .slot = r.request, .at = i,
                                                    .own = 1 }) != 0)
            return -1;
    }
    return 0;
}

/* The completions of the pool's later calls (of signature sig), each as the swaps have
 * made it. */
static int later_candidates(struct engine *e, int th, struct any_state *s, struct pool_sig sig)
{
    size_t p = e->threads[th].call_len, len;
    const struct pz_rec *r;
    struct pool_sig next;

    for (int calls = 1; calls < POOL_CALLS && p < POOL_RECORDS;) {
        if (!(r = pz_trace_in_peek(e->in, th, p)))
            return 0;
        if (between_calls(e, r)) {
            p++;
            continue;
        }
        if (!(len = pool_call_at(e, th, p, &next)) || !same_sig(next, sig) ||
            s->ncand + (len - 2) > POOL_REQUESTS)
            return 0;
        for (size_t i = p + 1; i + 1 < p + len; i++) {
            struct pz_rec rec = *pz_trace_in_peek(e->in, th, i);
            struct swap *w = find_swap(s, rec.request);

            if (is_completion(rec.kind) &&
                add_candidate(e, s, (struct candidate){ .rec = w ? w->rec : rec,
                                                        .slot = rec.request }) != 0)
                return -1;
        }
        p += len;
        calls++;
    }
    return 0;
}

/* The slots of the candidates' ids in model_requests: twice the most candidates. */
#define ID_SLOTS (2 * POOL_REQUESTS)

static unsigned id_slot(uint64_t id)
{
    return (unsigned)((id * 0x9e3779b97f4a7c15u) >> 55) & (ID_SLOTS - 1);   /* 9 bits */
}

/* Sets each candidate's model request; 0, or -1 if one is not a request that can be
 * chosen (not posted by this thread, from MPI_PROC_NULL, cancelled, persistent) or the
 * call's own are more than a pool holds.  One pass over the thread's posted operations,
 * the candidates' ids in a small table: a program may have thousands outstanding. */
static int model_requests(const struct thread *k, struct any_state *s)
{
    int table[ID_SLOTS];
    char got[POOL_REQUESTS] = { 0 };   /* the first posted of an id, as a search finds */
    uint32_t found = 0;

    if (s->ncand > POOL_REQUESTS)
        return -1;
    memset(table, -1, sizeof(table));
    for (uint32_t j = 0; j < s->ncand; j++) {
        unsigned h = id_slot(s->cand[j].rec.request);

        for (; table[h] >= 0; h = (h + 1) & (ID_SLOTS - 1))
            if (s->cand[table[h]].rec.request == s->cand[j].rec.request)
                return -1;   /* one request twice: no choice to make */
        table[h] = (int)j;
    }
    for (int i = 0; i < k->npending && found < s->ncand; i++) {
        const struct pending *p = &k->pending[i];

        for (unsigned h = id_slot(p->id); table[h] >= 0; h = (h + 1) & (ID_SLOTS - 1)) {
            struct candidate *c = &s->cand[table[h]];

            if (c->rec.request != p->id || got[table[h]])
                continue;
            if (p->request < 0 || p->persistent)
                return -1;
            c->request = p->request;
            got[table[h]] = 1;
            found++;
            break;
        }
    }
    return found == s->ncand ? 0 : -1;
}

static int no_choice(struct any_state *s)
{
    s->ncand = 0;
    return 0;
}

/* Whether the call chooses: it is of a pool with more requests than it completes, all
 * of them requests that can be chosen.  Sets the candidates and need. */
static int gather(struct engine *e, int th, struct any_state *s)
{
    struct pool_sig sig;
    uint32_t own;

    if (!pool_call_at(e, th, 0, &sig) || own_candidates(e, th, s) != 0)
        return no_choice(s);
    own = s->ncand;
    if (later_candidates(e, th, s, sig) != 0 || s->ncand == own ||
        model_requests(&e->threads[th], s) != 0)
        return no_choice(s);
    s->need = (int)own;
    return 1;
}

int pz_any_begin(struct engine *e, int th, const struct pz_region_info *call)
{
    struct any_state *s = e->any ? e->any[th] : NULL;

    if (s && s->nswaps)
        apply_swaps(e, th, s);
    if (!is_any_call(call->call) || !(s = state_of(e, th)))
        return 0;
    return gather(e, th, s);
}

int pz_any_completes(uint8_t kind)
{
    return is_completion(kind);
}

/* When the call has candidate c: at its start if c was done by then. */
static double key_of(const struct candidate *c, double start)
{
    return c->done > start ? c->done : start;
}

/* When the call has s->need of its candidates, as far as the model knows them; -1 if
 * it knows fewer.  The model learns a completion when the operation is matched or its
 * transfer begins, often before it happens; one it learns later may happen earlier. */
static double due_of(const struct any_state *s, double start)
{
    double due = -1;

    for (uint32_t j = 0; j < s->ncand; j++) {
        double key = key_of(&s->cand[j], start);
        int earlier = 0, same = 0;

        if (s->cand[j].done < 0)
            continue;
        for (uint32_t i = 0; i < s->ncand; i++) {
            if (s->cand[i].done < 0)
                continue;
            earlier += key_of(&s->cand[i], start) < key;
            same += key_of(&s->cand[i], start) == key;
        }
        if (earlier < s->need && earlier + same >= s->need)
            due = key;
    }
    return due;
}

/* Wakes parked thread th when its call has what it chooses, or earlier than planned if
 * a completion learnt since happens earlier.  The queue's item of kind 1 is checked
 * when it comes (pz_any_due): one planned before is then no longer due. */
static void plan_wake(struct engine *e, int th, struct any_state *s)
{
    const struct thread *k = &e->threads[th];
    double due = due_of(s, k->call_start);

    if (due < 0)
        return;
    if (k->wake > due)
        due = k->wake;
    if (s->woken >= 0 && s->woken <= due)
        return;
    s->woken = due;
    if (pz_radix_push(&e->ready, due, 1, th) != 0)
        pz_engine_fail(e, "out of memory");
}

void pz_any_wait(struct engine *e, int th)
{
    struct any_state *s = e->any[th];
    struct thread *k = &e->threads[th];

    for (uint32_t j = 0; j < s->ncand; j++) {
        struct candidate *c = &s->cand[j];

        c->done = pz_comsys_done(e->cs, c->request);
        if (c->done < 0) {
            if (pz_engine_set_waiter(e, th, c->request) != 0)
                return;
            c->done = pz_comsys_watch(e->cs, c->request);
        }
    }
    /* done by the start: none learnt later can come before them (they tie) */
    if (due_of(s, k->call_start) == k->call_start)
        return;
    k->outstanding++;   /* until pz_any_due */
    s->woken = -1;
    plan_wake(e, th, s);
}

int pz_any_done(struct engine *e, int th, int request, double t)
{
    struct any_state *s = e->any ? e->any[th] : NULL;
    uint32_t j = 0;

    if (!s || !s->need)
        return 0;
    while (j < s->ncand && (s->cand[j].request != request || s->cand[j].done >= 0))
        j++;
    if (j == s->ncand)
        return 0;
    s->cand[j].done = t;
    if (e->threads[th].state == THREAD_PARKED)
        plan_wake(e, th, s);
    return 1;
}

int pz_any_due(struct engine *e, int th, double at)
{
    struct any_state *s = e->any ? e->any[th] : NULL;
    struct thread *k = &e->threads[th];

    if (!s || !s->need || k->state != THREAD_PARKED || at != s->woken)
        return 0;
    k->outstanding = 0;
    return 1;
}

/* Whether candidate a comes before b: completed earlier, then recorded in the call,
 * then recorded earlier (their order in the list). */
static int before(const struct candidate *a, const struct candidate *b, double start)
{
    double ka = key_of(a, start), kb = key_of(b, start);

    if (ka != kb)
        return ka < kb;
    if (a->own != b->own)
        return a->own;
    return a < b;
}

/* The first of the candidates known and not chosen yet. */
static struct candidate *next_done(struct any_state *s, double start)
{
    struct candidate *best = NULL;

    for (uint32_t j = 0; j < s->ncand; j++) {
        struct candidate *c = &s->cand[j];

        if (c->done >= 0 && !c->chosen && (!best || before(c, best, start)))
            best = c;
    }
    return best;
}

/* The records: each own request not chosen gives its place in the call to a chosen
 * one of a later call (in the order the recording completed them), and takes that
 * one's place there. */
static void exchange(struct engine *e, int th, struct any_state *s)
{
    uint32_t next = 0;

    for (uint32_t j = 0; j < s->ncand && s->cand[j].own; j++) {
        const struct candidate *own = &s->cand[j], *later;

        if (own->chosen)
            continue;
        while (next < s->ncand && (s->cand[next].own || !s->cand[next].chosen))
            next++;
        if (next == s->ncand)
            return;
        later = &s->cand[next++];
        if (replace(e, th, s, own->at, later->rec) != 0 ||
            set_swap(e, s, later->slot, own->rec) != 0)
            return;
    }
}

void pz_any_choose(struct engine *e, int th)
{
    struct any_state *s = e->any ? e->any[th] : NULL;
    struct thread *k = &e->threads[th];

    if (!s || !s->need)
        return;
    for (int i = 0; i < s->need; i++) {
        struct candidate *c = next_done(s, k->call_start);

        if (!c)   /* cannot be: the call ended when it knew enough of them */
            break;
        c->chosen = 1;
        k->wake = pz_comsys_deliver(e->cs, c->request, k->wake);
        pz_comsys_release(e->cs, c->request);
        pz_engine_take(k, c->rec.request);
    }
    for (uint32_t j = 0; j < s->ncand; j++)
        if (s->cand[j].done < 0 && s->cand[j].request < e->nwaiters)
            e->waiter[s->cand[j].request] = -1;   /* its notice, when it comes, is for nobody */
    exchange(e, th, s);
}

void pz_any_end(struct engine *e, int th)
{
    struct any_state *s = e->any ? e->any[th] : NULL;

    if (s)
        s->nreplaced = s->ncand = 0, s->need = 0;
}

void pz_any_free(struct engine *e)
{
    for (int th = 0; e->any && th < e->nthreads; th++) {
        if (!e->any[th])
            continue;
        free(e->any[th]->replaced);
        free(e->any[th]->swaps);
        free(e->any[th]->cand);
        free(e->any[th]);
    }
    free(e->any);
}
