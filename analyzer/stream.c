/* Analyzing a run given record by record (analysis.h): the records wait in a queue per
 * thread until no earlier record can come, then go to walk.c in OTF2's global reader's
 * order, by time and, at equal times, by location (OTF2_GlobalEvtReader.c's heap breaks
 * ties so), a location's records in their order.
 *
 * Each thread's times do not decrease, so no record earlier than the latest record of
 * every unfinished thread can still come: records before that watermark are safe.  It is
 * taken every `nthreads` records (a pass over the threads), and the merge keeps the
 * threads with waiting records in a heap keyed by their first record's time and
 * location, kept in the heap itself for the comparisons not to visit the queues.
 *
 * The analysis runs on a thread of its own, pipelined with whoever gives the records
 * (the replay): they are handed over in blocks, in the order given, and the analysis
 * takes them in that order, so its result does not depend on how the two threads are
 * scheduled.  Only the contract's checks are made at once, on the giver's side. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "reader.h"

/* A thread's records not yet analyzed, in a ring whose capacity is a power of two. */
struct queue {
    struct pz_rec *ring;   /* each with its predicted time as time */
    uint32_t head, count, cap;
};

/* A thread in the merge's heap, with the key of its first waiting record. */
struct head {
    uint64_t time;
    uint32_t order;        /* of its location among the threads' */
    int th;
};

/* A record handed to the analysis's thread (its time in rec.time), or a thread's end. */
struct item {
    struct pz_rec rec;
    int th;
    int done;
};

/* Records handed over at once: one lock and wake-up per block, not per record, and a
 * few blocks in flight for the two threads not to wait for each other's every turn. */
#define BLOCK_ITEMS 512
#define NBLOCKS 8

struct block {
    struct item items[BLOCK_ITEMS];
    uint32_t n;
};

/* The blocks between the giver and the analysis's thread, a ring: blocks `taken` to
 * `handed` (counts, modulo NBLOCKS) are full, `handed` is being filled. */
struct pipe {
    struct block *blocks;
    uint64_t handed, taken;
    int closing;                      /* nothing more comes once `handed` is taken */
    pthread_mutex_t lock;
    pthread_cond_t filled, emptied;
    pthread_t thread;
    int running;                      /* the thread was started */
    atomic_int failed;                /* the analysis failed: refuse what comes */
};

struct pz_analysis_stream {
    struct pipe pipe;
    uint64_t *given;                  /* of each thread: its latest record's time as given;
                                         UINT64_MAX once it is done (the giver's own) */
    struct reader r;
    struct pz_analysis analysis;
    OTF2_AttributeList *attributes;   /* reused for the records' attributes */
    struct queue *queues;             /* of each thread */
    uint64_t *latest;                 /* of each thread: its latest record's time;
                                         UINT64_MAX once it is done */
    uint32_t *order;                  /* of each thread: its location's rank by id */
    struct head *heap;                /* threads with records waiting, by their first */
    int nheap;
    int nthreads;
    uint64_t since_merge;             /* records given since the last merge */
};

static int before(const struct head *a, const struct head *b)
{
    return a->time != b->time ? a->time < b->time : a->order < b->order;
}

static void sift_down(struct pz_analysis_stream *s, int i)
{
    struct head h = s->heap[i];

    for (;;) {
        int l = 2 * i + 1, m = l;

        if (l >= s->nheap)
            break;
        if (l + 1 < s->nheap && before(&s->heap[l + 1], &s->heap[l]))
            m = l + 1;
        if (!before(&s->heap[m], &h))
            break;
        s->heap[i] = s->heap[m];
        i = m;
    }
    s->heap[i] = h;
}

static void sift_up(struct pz_analysis_stream *s, int i)
{
    struct head h = s->heap[i];

    while (i > 0 && before(&h, &s->heap[(i - 1) / 2])) {
        s->heap[i] = s->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->heap[i] = h;
}

static const struct pz_rec *first(const struct queue *q)
{
    return &q->ring[q->head];
}

/* Analyzes, in order, every waiting record earlier than watermark. */
static int merge(struct pz_analysis_stream *s, uint64_t watermark)
{
    while (s->nheap && s->heap[0].time < watermark) {
        int th = s->heap[0].th;
        struct queue *q = &s->queues[th];
        const struct pz_rec *rec = first(q);

        if (pz_walk_record(&s->r, th, rec, rec->time, s->attributes) != 0)
            return -1;
        q->head = (q->head + 1) & (q->cap - 1);
        if (--q->count)
            s->heap[0].time = first(q)->time;
        else
            s->heap[0] = s->heap[--s->nheap];
        if (s->nheap)
            sift_down(s, 0);
    }
    return 0;
}

/* The time before which every record has come. */
static uint64_t watermark(const struct pz_analysis_stream *s)
{
    uint64_t w = UINT64_MAX;

    for (int th = 0; th < s->nthreads; th++)
        if (s->latest[th] < w)
            w = s->latest[th];
    return w;
}

/* Appends rec to q. */
static int push(struct queue *q, const struct pz_rec *rec)
{
    if (q->count == q->cap) {
        uint32_t cap = q->cap ? 2 * q->cap : 16;
        struct pz_rec *ring = malloc(cap * sizeof(*ring));

        if (!ring)
            return -1;
        for (uint32_t i = 0; i < q->count; i++)
            ring[i] = q->ring[(q->head + i) & (q->cap - 1)];
        free(q->ring);
        q->ring = ring;
        q->head = 0;
        q->cap = cap;
    }
    q->ring[(q->head + q->count++) & (q->cap - 1)] = *rec;
    return 0;
}

/* The analysis's side of thread th's record rec (its time in rec->time): into the
 * thread's queue, and the safe records analyzed once a pass. */
static int take_record(struct pz_analysis_stream *s, int th, const struct pz_rec *rec)
{
    struct queue *q = &s->queues[th];

    s->latest[th] = rec->time;
    if (push(q, rec) != 0) {
        pz_reader_fail(&s->r, "out of memory");
        return -1;
    }
    if (q->count == 1) {
        s->heap[s->nheap++] = (struct head){ rec->time, s->order[th], th };
        sift_up(s, s->nheap - 1);
    }
    if (++s->since_merge >= (uint64_t)s->nthreads) {
        s->since_merge = 0;
        return merge(s, watermark(s));
    }
    return 0;
}

/* The analysis's side of an item; after a failure, nothing more is analyzed. */
static void take(struct pz_analysis_stream *s, const struct item *it)
{
    if (s->r.file.error[0])
        return;
    if (it->done)
        s->latest[it->th] = UINT64_MAX;
    else if (take_record(s, it->th, &it->rec) != 0)
        atomic_store(&s->pipe.failed, 1);
}

/* The analysis's thread: takes the blocks in the order they were handed over. */
static void *analyze_blocks(void *arg)
{
    struct pz_analysis_stream *s = arg;
    struct pipe *p = &s->pipe;

    pthread_mutex_lock(&p->lock);
    for (;;) {
        const struct block *b;

        while (p->taken == p->handed && !p->closing)
            pthread_cond_wait(&p->filled, &p->lock);
        if (p->taken == p->handed)
            break;
        b = &p->blocks[p->taken % NBLOCKS];
        pthread_mutex_unlock(&p->lock);
        for (uint32_t i = 0; i < b->n; i++)
            take(s, &b->items[i]);
        pthread_mutex_lock(&p->lock);
        p->taken++;
        pthread_cond_signal(&p->emptied);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Hands the block being filled over (if it holds anything) and waits for room for the
 * next one, or with `settle` for the analysis to have taken every block: its state is
 * then the giver's to read and write until more is handed.  An analysis waiting for
 * blocks is woken when half the ring is full, not at every block: a wake-up is a system
 * call, and an analysis faster than the replay would otherwise need one per block. */
static void hand_over(struct pipe *p, int settle)
{
    pthread_mutex_lock(&p->lock);
    if (p->blocks[p->handed % NBLOCKS].n)
        p->handed++;
    if (settle || p->handed - p->taken >= NBLOCKS / 2)
        pthread_cond_signal(&p->filled);
    while (p->handed - p->taken >= (settle ? 1 : NBLOCKS))
        pthread_cond_wait(&p->emptied, &p->lock);
    pthread_mutex_unlock(&p->lock);
    p->blocks[p->handed % NBLOCKS].n = 0;
}

/* Gives the item to the analysis: to its thread, or at once without one. */
static void give(struct pz_analysis_stream *s, const struct item *it)
{
    struct pipe *p = &s->pipe;
    struct block *b;

    if (!p->running) {
        take(s, it);
        return;
    }
    b = &p->blocks[p->handed % NBLOCKS];
    b->items[b->n++] = *it;
    if (b->n == BLOCK_ITEMS)
        hand_over(p, 0);
}

int pz_analysis_stream_record(struct pz_analysis_stream *s, int th, const struct pz_rec *rec,
                              uint64_t time)
{
    struct item it = { .rec = *rec, .th = th };

    if (atomic_load_explicit(&s->pipe.failed, memory_order_relaxed))
        return -1;
    if (th < 0 || th >= s->nthreads || time < s->given[th] || s->given[th] == UINT64_MAX) {
        /* the records before it are analyzed first, as they were given */
        if (s->pipe.running)
            hand_over(&s->pipe, 1);
        pz_reader_fail(&s->r, "thread %d: a record out of time order or after its end", th);
        atomic_store(&s->pipe.failed, 1);
        return -1;
    }
    s->given[th] = time;
    it.rec.time = time;
    give(s, &it);
    return 0;
}

void pz_analysis_stream_done(struct pz_analysis_stream *s, int th)
{
    if (th >= 0 && th < s->nthreads) {
        s->given[th] = UINT64_MAX;
        give(s, &(struct item){ .th = th, .done = 1 });
    }
}

struct located {
    uint64_t location;
    int th;
};

static int by_location(const void *x, const void *y)
{
    const struct located *a = x, *b = y;

    return (a->location > b->location) - (a->location < b->location);
}

/* Each thread's order among the threads by location id: OTF2's order at equal times. */
static int rank_locations(struct pz_analysis_stream *s)
{
    size_t n = s->nthreads > 0 ? (size_t)s->nthreads : 1;
    struct located *threads = malloc(n * sizeof(*threads));

    s->order = malloc(n * sizeof(*s->order));
    if (!threads || !s->order) {
        free(threads);
        return -1;
    }
    for (int th = 0; th < s->nthreads; th++)
        threads[th] = (struct located){ s->r.defs.thread_location[th], th };
    qsort(threads, (size_t)s->nthreads, sizeof(*threads), by_location);
    for (int i = 0; i < s->nthreads; i++)
        s->order[threads[i].th] = (uint32_t)i;
    free(threads);
    return 0;
}

static void release(struct pz_analysis_stream *s)
{
    for (int th = 0; s->queues && th < s->nthreads; th++)
        free(s->queues[th].ring);
    free(s->queues);
    free(s->latest);
    free(s->order);
    free(s->heap);
    free(s->given);
    free(s->pipe.blocks);
    pthread_mutex_destroy(&s->pipe.lock);
    pthread_cond_destroy(&s->pipe.filled);
    pthread_cond_destroy(&s->pipe.emptied);
    if (s->attributes)
        OTF2_AttributeList_Delete(s->attributes);
    pz_reader_release(&s->r);
    free(s);
}

/* Without a thread of its own (none could be made), the analysis takes each record as
 * it is given: the same result, later. */
static void start_thread(struct pz_analysis_stream *s)
{
    s->pipe.blocks[0].n = 0;
    s->pipe.running = pthread_create(&s->pipe.thread, NULL, analyze_blocks, s) == 0;
}

/* Hands over what is left, and waits for the analysis's thread to have taken it all. */
static void stop_thread(struct pipe *p)
{
    if (!p->running)
        return;
    pthread_mutex_lock(&p->lock);
    if (p->blocks[p->handed % NBLOCKS].n)
        p->handed++;
    p->closing = 1;
    pthread_cond_signal(&p->filled);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    p->running = 0;
}

struct pz_analysis_stream *pz_analysis_stream_open(struct pz_defs *defs, const char *name,
                                                   char *err, size_t errlen)
{
    struct pz_analysis_stream *s = calloc(1, sizeof(*s));
    size_t n;

    if (!s) {
        snprintf(err, errlen, "%s: out of memory", name);
        pz_defs_release(defs);
        return NULL;
    }
    pthread_mutex_init(&s->pipe.lock, NULL);
    pthread_cond_init(&s->pipe.filled, NULL);
    pthread_cond_init(&s->pipe.emptied, NULL);
    s->r.a = &s->analysis;
    s->r.defs = *defs;
    memset(defs, 0, sizeof(*defs));
    snprintf(s->r.file.path, sizeof(s->r.file.path), "%s", name);
    s->nthreads = s->r.defs.nthreads;
    n = s->nthreads > 0 ? (size_t)s->nthreads : 1;
    s->queues = calloc(n, sizeof(*s->queues));
    s->latest = calloc(n, sizeof(*s->latest));
    s->heap = malloc(n * sizeof(*s->heap));
    s->given = calloc(n, sizeof(*s->given));
    s->pipe.blocks = malloc(NBLOCKS * sizeof(*s->pipe.blocks));
    s->attributes = OTF2_AttributeList_New();
    if (!s->queues || !s->latest || !s->heap || !s->given || !s->pipe.blocks ||
        !s->attributes ||
        rank_locations(s) != 0 || pz_reader_keep(&s->r, name) != 0)
        pz_reader_fail(&s->r, "out of memory");
    else
        pz_reader_begin(&s->r);
    if (!s->r.file.error[0])
        start_thread(s);
    if (s->r.file.error[0]) {
        struct pz_analysis a = s->analysis;

        snprintf(err, errlen, "%s", s->r.file.error);
        release(s);
        pz_analysis_free(&a);
        return NULL;
    }
    return s;
}

int pz_analysis_stream_close(struct pz_analysis_stream *s, struct pz_analysis *a, char *err,
                             size_t errlen)
{
    int rc;

    memset(a, 0, sizeof(*a));
    if (!s)
        return 0;
    stop_thread(&s->pipe);
    if (!s->r.file.error[0] && merge(s, UINT64_MAX) == 0)
        pz_reader_end(&s->r);
    rc = s->r.file.error[0] ? -1 : 0;
    if (rc)
        snprintf(err, errlen, "%s", s->r.file.error);
    *a = s->analysis;
    release(s);
    if (rc)
        pz_analysis_free(a);
    return rc;
}
