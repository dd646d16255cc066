/* Analyzing a run given record by record (analysis.h): the records wait until no
 * earlier record can come, then go to walk.c in OTF2's global reader's order, by time
 * and, at equal times, by location (OTF2_GlobalEvtReader.c's heap breaks ties so), a
 * location's records in their order.
 *
 * Each thread's times do not decrease, so no record earlier than the latest record of
 * every unfinished thread can still come: records before that watermark are safe.  It is
 * taken every `nthreads` records (a pass over the threads); the records waiting that are
 * earlier than it are then sorted at once and analyzed (time_order.h).
 *
 * The analysis runs on a thread of its own, pipelined with whoever gives the records
 * (the replay): they are handed over in blocks, in the order given, and the analysis
 * takes them in that order, so its result does not depend on how the two threads are
 * scheduled.  The records stay in their block until analyzed (no copy on the analysis's
 * side); a block whose records are all analyzed is given back to be filled again.  Only
 * the contract's checks are made at once, on the giver's side. */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "reader.h"
#include "time_order.h"

/* A record handed to the analysis's thread (its time in rec.time), or a thread's end. */
struct item {
    struct pz_rec rec;
    int th;
    int done;
};

/* Records handed over at once: one lock and wake-up per block, not per record, and a
 * few blocks in flight for the two threads not to wait for each other's every turn.  A
 * block is BLOCK_BYTES long and as aligned, so that a record's block is found from its
 * address. */
#define BLOCK_BYTES 65536u
#define NBLOCKS 8

struct block {
    struct block *next;        /* in a list of blocks to fill */
    struct block *made;        /* the block made before it, for the release */
    uint32_t n;                /* items filled */
    uint32_t unanalyzed;       /* the analysis's: its records not analyzed yet, and one
                                  while its items are being taken */
    struct item items[];
};

#define BLOCK_ITEMS ((BLOCK_BYTES - offsetof(struct block, items)) / sizeof(struct item))

/* The blocks between the giver and the analysis's thread: handed blocks `taken` to
 * `handed` (counts) in a ring, the giver filling its own. */
struct pipe {
    struct block *ring[NBLOCKS];
    uint64_t handed, taken;
    struct block *filling;            /* the giver's */
    struct block *made;               /* the last block made (the giver's) */
    struct block *empty;              /* blocks analyzed, to fill again */
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
    struct pz_time_order waiting;     /* the records not analyzed yet */
    struct block *analyzed;           /* blocks analyzed, not yet given back */
    uint64_t *latest;                 /* of each thread: its latest record's time;
                                         UINT64_MAX once it is done */
    uint32_t *rank;                   /* of each thread: its location's rank by id */
    int *thread_of;                   /* of each rank: its thread */
    int nthreads;
    uint64_t since_merge;             /* records given since the last merge */
};

static struct block *block_of(const struct item *it)
{
    return (struct block *)((uintptr_t)it & ~(uintptr_t)(BLOCK_BYTES - 1));
}

/* One record of b less waits: a block with none left is to be filled again. */
static void unwait(struct pz_analysis_stream *s, struct block *b)
{
    if (--b->unanalyzed == 0) {
        b->next = s->analyzed;
        s->analyzed = b;
    }
}

/* How many records ahead of the one analyzed the batch's records are fetched into the
 * caches: their blocks, their processes, then their processes' open regions. */
#define FETCH_FAR 16
#define FETCH_NEAR 8

static void fetch(struct pz_analysis_stream *s, const struct pz_order_entry *e, int near)
{
    int th = s->thread_of[pz_time_order_rank(&s->waiting, e)];

    pz_walk_prefetch(&s->r, th, &((const struct item *)e->item)->rec, near);
}

/* Analyzes, in order, the n records of a batch. */
static int analyze_batch(struct pz_analysis_stream *s, const struct pz_order_entry *batch,
                         uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const struct item *it = batch[i].item;

        if (i + FETCH_FAR < n)
            fetch(s, &batch[i + FETCH_FAR], 0);
        if (i + FETCH_NEAR < n)
            fetch(s, &batch[i + FETCH_NEAR], 1);
        if (pz_walk_record(&s->r, it->th, &it->rec, it->rec.time, s->attributes) != 0)
            return -1;
        unwait(s, block_of(it));
    }
    return 0;
}

/* Analyzes, in order, every waiting record earlier than watermark. */
static int merge(struct pz_analysis_stream *s, uint64_t watermark)
{
    do {
        int64_t n = pz_time_order_take(&s->waiting, watermark);

        if (n < 0) {
            pz_reader_fail(&s->r, "out of memory");
            return -1;
        }
        if (analyze_batch(s, s->waiting.batch, (uint32_t)n) != 0)
            return -1;
    } while (pz_time_order_before(&s->waiting, watermark));
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

/* The analysis's side of a record of block b: it waits, and the safe records are
 * analyzed once a pass. */
static int take_record(struct pz_analysis_stream *s, struct block *b, const struct item *it)
{
    s->latest[it->th] = it->rec.time;
    b->unanalyzed++;
    if (pz_time_order_add(&s->waiting, it->rec.time, s->rank[it->th], it) != 0) {
        pz_reader_fail(&s->r, "out of memory");
        return -1;
    }
    if (++s->since_merge >= (uint64_t)s->nthreads) {
        s->since_merge = 0;
        return merge(s, watermark(s));
    }
    return 0;
}

/* The analysis's side of a block; after a failure, nothing more is analyzed. */
static void take_block(struct pz_analysis_stream *s, struct block *b)
{
    b->unanalyzed = 1;
    for (uint32_t i = 0; i < b->n && !s->r.file.error[0]; i++) {
        const struct item *it = &b->items[i];

        if (it->done)
            s->latest[it->th] = UINT64_MAX;
        else if (take_record(s, b, it) != 0)
            atomic_store(&s->pipe.failed, 1);
    }
    if (!s->r.file.error[0])
        unwait(s, b);
}

/* The blocks analyzed to the giver, to be filled again (under the pipe's lock, or with
 * no thread of the analysis's). */
static void give_back(struct pz_analysis_stream *s)
{
    while (s->analyzed) {
        struct block *b = s->analyzed;

        s->analyzed = b->next;
        b->next = s->pipe.empty;
        s->pipe.empty = b;
    }
}

/* The analysis's thread: takes the blocks in the order they were handed over. */
static void *analyze_blocks(void *arg)
{
    struct pz_analysis_stream *s = arg;
    struct pipe *p = &s->pipe;

    pthread_mutex_lock(&p->lock);
    for (;;) {
        struct block *b;

        while (p->taken == p->handed && !p->closing)
            pthread_cond_wait(&p->filled, &p->lock);
        if (p->taken == p->handed)
            break;
        b = p->ring[p->taken % NBLOCKS];
        pthread_mutex_unlock(&p->lock);
        take_block(s, b);
        pthread_mutex_lock(&p->lock);
        give_back(s);
        p->taken++;
        pthread_cond_signal(&p->emptied);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* A block analyzed, to fill again; NULL if none. */
static struct block *reuse(struct pipe *p)
{
    struct block *b = p->empty;

    if (b) {
        p->empty = b->next;
        b->n = 0;
    }
    return b;
}

/* A new block to fill, NULL out of memory (the giver's). */
static struct block *make(struct pipe *p)
{
    struct block *b = aligned_alloc(BLOCK_BYTES, BLOCK_BYTES);

    if (b) {
        b->made = p->made;
        p->made = b;
        b->n = 0;
    }
    return b;
}

/* Hands the block being filled over (if it holds anything) and waits for room for the
 * next one, or with `settle` for the analysis to have taken every block: its state is
 * then the giver's to read and write until more is handed.  An analysis waiting for
 * blocks is woken when half the ring is full, not at every block: a wake-up is a system
 * call, and an analysis faster than the replay would otherwise need one per block.
 * Without a thread of the analysis's, the block is analyzed at once.  0, or -1 when no
 * block is left to fill (out of memory). */
static int hand_over(struct pz_analysis_stream *s, int settle)
{
    struct pipe *p = &s->pipe;

    if (!p->running) {
        if (p->filling && p->filling->n) {
            take_block(s, p->filling);
            give_back(s);
            p->filling = NULL;
        }
        if (!p->filling)
            p->filling = reuse(p);
    } else {
        pthread_mutex_lock(&p->lock);
        if (p->filling && p->filling->n) {
            p->ring[p->handed++ % NBLOCKS] = p->filling;
            p->filling = NULL;
        }
        if (settle || p->handed - p->taken >= NBLOCKS / 2)
            pthread_cond_signal(&p->filled);
        while (p->handed - p->taken >= (settle ? 1u : (unsigned)NBLOCKS))
            pthread_cond_wait(&p->emptied, &p->lock);
        if (!p->filling)
            p->filling = reuse(p);
        pthread_mutex_unlock(&p->lock);
    }
    if (!p->filling)
        p->filling = make(p);
    return p->filling ? 0 : -1;
}

/* The giver's side of an item.  Out of memory, the analysis fails once it has taken
 * what came before. */
static int give(struct pz_analysis_stream *s, const struct item *it)
{
    struct pipe *p = &s->pipe;

    if (!p->filling)
        return -1;
    p->filling->items[p->filling->n++] = *it;
    if (p->filling->n < BLOCK_ITEMS || hand_over(s, 0) == 0)
        return 0;
    hand_over(s, 1);
    pz_reader_fail(&s->r, "out of memory");
    atomic_store(&p->failed, 1);
    return -1;
}

int pz_analysis_stream_record(struct pz_analysis_stream *s, int th, const struct pz_rec *rec,
                              uint64_t time)
{
    struct item it = { .rec = *rec, .th = th };

    if (atomic_load_explicit(&s->pipe.failed, memory_order_relaxed))
        return -1;
    if (th < 0 || th >= s->nthreads || time < s->given[th] || s->given[th] == UINT64_MAX) {
        /* the records before it are analyzed first, as they were given */
        hand_over(s, 1);
        pz_reader_fail(&s->r, "thread %d: a record out of time order or after its end", th);
        atomic_store(&s->pipe.failed, 1);
        return -1;
    }
    s->given[th] = time;
    it.rec.time = time;
    return give(s, &it);
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

/* Each thread's order among the threads by location id: OTF2's order at equal times;
 * and the thread of each rank. */
static int rank_locations(struct pz_analysis_stream *s)
{
    size_t n = s->nthreads > 0 ? (size_t)s->nthreads : 1;
    struct located *threads = malloc(n * sizeof(*threads));

    s->rank = malloc(n * sizeof(*s->rank));
    s->thread_of = malloc(n * sizeof(*s->thread_of));
    if (!threads || !s->rank || !s->thread_of) {
        free(threads);
        return -1;
    }
    for (int th = 0; th < s->nthreads; th++)
        threads[th] = (struct located){ s->r.defs.thread_location[th], th };
    qsort(threads, (size_t)s->nthreads, sizeof(*threads), by_location);
    for (int i = 0; i < s->nthreads; i++) {
        s->rank[threads[i].th] = (uint32_t)i;
        s->thread_of[i] = threads[i].th;
    }
    free(threads);
    return 0;
}

static void release(struct pz_analysis_stream *s)
{
    for (struct block *b = s->pipe.made, *made; b; b = made) {
        made = b->made;
        free(b);
    }
    pz_time_order_free(&s->waiting);
    free(s->latest);
    free(s->rank);
    free(s->thread_of);
    free(s->given);
    pthread_mutex_destroy(&s->pipe.lock);
    pthread_cond_destroy(&s->pipe.filled);
    pthread_cond_destroy(&s->pipe.emptied);
    if (s->attributes)
        OTF2_AttributeList_Delete(s->attributes);
    pz_reader_release(&s->r);
    free(s);
}

/* Without a thread of its own (none could be made), the analysis takes each block as it
 * is filled: the same result, later. */
static void start_thread(struct pz_analysis_stream *s)
{
    s->pipe.running = pthread_create(&s->pipe.thread, NULL, analyze_blocks, s) == 0;
}

/* Hands over what is left, and waits for the analysis's thread to have taken it all. */
static void stop_thread(struct pz_analysis_stream *s)
{
    struct pipe *p = &s->pipe;

    if (!p->running) {
        if (p->filling && p->filling->n)
            take_block(s, p->filling);
        return;
    }
    pthread_mutex_lock(&p->lock);
    if (p->filling && p->filling->n) {
        p->ring[p->handed++ % NBLOCKS] = p->filling;
        p->filling = NULL;
    }
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
    s->latest = calloc(n, sizeof(*s->latest));
    s->given = calloc(n, sizeof(*s->given));
    s->attributes = OTF2_AttributeList_New();
    if (pz_time_order_init(&s->waiting, (uint32_t)n, (uint32_t)n) != 0 || !s->latest || !s->given ||
        !(s->pipe.filling = make(&s->pipe)) || !s->attributes ||
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
    stop_thread(s);
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
