/* Interval markers: the boundaries they mark become records of the calling thread; the
 * intervals of the process are numbered by (begin call site, id, kind) in a small hash. */
#include <pthread.h>
#include <stdlib.h>

#include "comms.h"
#include "hooks.h"
#include "markers.h"
#include "prognoz.h"

/* The call site of the next interval marker of the calling thread, for marker functions
 * in libraries (the Fortran markers), which would otherwise be their own call site. */
PZ_EXPORT void prognoz_marker_site(void *site)
{
    if (pz_thread_current)
        pz_thread_current->next_site = (uintptr_t)site;
}

struct interval {
    uintptr_t site;
    unsigned id;
    int sequential;
};

static struct interval *intervals;      /* by local number */
static uint32_t nintervals, intervals_cap;
static uint32_t *slots;                 /* local number + 1, 0 when empty */
static uint32_t nslots;
static struct pz_misuse_note *misuses;
static uint32_t nmisuses, misuses_cap;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

int pz_is_marker(int peer, int tag, MPI_Comm comm)
{
    uint32_t ref;
    int rank;

    if (!pz_is_marker_tag(tag))
        return 0;
    if (peer == MPI_ANY_SOURCE)
        return 1;
    ref = pz_comm_ref(comm);
    if (ref == PZ_COMM_UNKNOWN)
        PMPI_Comm_rank(comm, &rank);
    else
        rank = pz_comm_get(ref)->rank;
    return peer == rank;
}

static uint32_t slot_of(const struct interval *v, uint32_t n)
{
    uint32_t kind = (uint32_t)v->sequential << 16;

    return (uint32_t)((v->site * 0x9E3779B97F4A7C15u) >> 40 ^ v->id ^ kind) & (n - 1);
}

static int same(const struct interval *a, const struct interval *b)
{
    return a->site == b->site && a->id == b->id && a->sequential == b->sequential;
}

/* Doubles the hash of intervals; caller holds the lock. */
static int rehash(void)
{
    uint32_t n = nslots ? 2 * nslots : 256, *fresh = calloc(n, sizeof(*fresh));

    if (!fresh)
        return -1;
    for (uint32_t i = 0; i < nintervals; i++) {
        uint32_t s = slot_of(&intervals[i], n);

        while (fresh[s])
            s = (s + 1) & (n - 1);
        fresh[s] = i + 1;
    }
    free(slots);
    slots = fresh;
    nslots = n;
    return 0;
}

/* The local number of interval v, new if needed. */
static int64_t interval_number(const struct interval *v)
{
    int64_t found = -1;
    uint32_t s;

    pthread_mutex_lock(&lock);
    if (2 * (nintervals + 1) > nslots && rehash() != 0)
        goto out;
    for (s = slot_of(v, nslots); slots[s]; s = (s + 1) & (nslots - 1)) {
        if (same(&intervals[slots[s] - 1], v)) {
            found = slots[s] - 1;
            goto out;
        }
    }
    if (nintervals == intervals_cap) {
        uint32_t cap = intervals_cap ? 2 * intervals_cap : 64;
        struct interval *grown = realloc(intervals, cap * sizeof(*grown));

        if (!grown)
            goto out;
        intervals = grown;
        intervals_cap = cap;
    }
    intervals[nintervals] = *v;
    slots[s] = nintervals + 1;
    found = nintervals++;
out:
    pthread_mutex_unlock(&lock);
    return found;
}

static void note(enum pz_misuse kind, uintptr_t site, unsigned id, uint32_t interval)
{
    pthread_mutex_lock(&lock);
    if (nmisuses == misuses_cap) {
        uint32_t cap = misuses_cap ? 2 * misuses_cap : 16;
        struct pz_misuse_note *grown = realloc(misuses, cap * sizeof(*grown));

        if (!grown) {
            pthread_mutex_unlock(&lock);
            return;
        }
        misuses = grown;
        misuses_cap = cap;
    }
    misuses[nmisuses++] = (struct pz_misuse_note){ kind, site, id, interval };
    pthread_mutex_unlock(&lock);
}

/* The record of an interval's begin or end; with PROGNOZ_CPU_TIME=1 the thread's CPU
 * time follows it, so that the CPU time of a computation is known on each side of a
 * marker inside it. */
static void boundary(struct pz_thread *t, uint16_t kind, uint32_t interval, uint64_t when)
{
    struct pz_record r = { .enter = when, .leave = when, .call = kind, .aux = interval };
    uint64_t cpu;

    t->nitems = 0;
    if (!pz_record_cpu) {
        pz_thread_commit(t, &r);
        return;
    }
    cpu = pz_cpu_now();
    r.aux |= PZ_MARKER_CPU;
    pz_thread_commit_call(t, &r, &cpu);
}

static void begin(struct pz_thread *t, const struct interval *v, uint64_t when)
{
    int64_t n = interval_number(v);
    unsigned id = v->id;

    if (n < 0)
        return;
    if (t->nopen == t->open_cap) {
        uint32_t cap = t->open_cap ? 2 * t->open_cap : 16;
        uint64_t *grown = realloc(t->open, cap * sizeof(*grown));

        if (!grown)
            return;
        t->open = grown;
        t->open_cap = cap;
    }
    t->open[t->nopen++] = (uint64_t)id << 32 | (uint32_t)n;
    boundary(t, PZ_RECORD_BEGIN, (uint32_t)n, when);
}

/* Ends the innermost open interval with id; the ones inside it end with it. */
static void end(struct pz_thread *t, unsigned id, uint64_t when, uintptr_t site)
{
    uint32_t depth = t->nopen;

    while (depth > 0 && t->open[depth - 1] >> 32 != id)
        depth--;
    if (depth == 0) {
        note(PZ_MISUSE_END_UNOPENED, site, id, 0);
        return;
    }
    while (t->nopen >= depth) {
        uint32_t n = (uint32_t)t->open[--t->nopen];

        if (t->nopen >= depth)
            note(PZ_MISUSE_END_SKIPS, site, id, n);
        boundary(t, PZ_RECORD_END, n, when);
    }
}

void pz_marker(struct pz_thread *t, int tag, uint64_t when, uintptr_t site)
{
    uint32_t bits = (uint32_t)tag;

    if (t->pending_marker == tag) {   /* the second half of the pair */
        t->pending_marker = 0;
        return;
    }
    t->pending_marker = tag;
    if (t->next_site) {
        site = t->next_site;
        t->next_site = 0;
    }
    if ((bits & 0xFF) == 0xBB) {
        end(t, bits >> 8 & 0xFFFF, when, site);
    } else {
        struct interval v = { site, bits >> 8 & 0xFFFF, (bits & 0xFF) == 0xCC };

        begin(t, &v, when);
    }
}

void pz_markers_close_all(struct pz_thread *t, uint64_t when)
{
    while (t->nopen > 0) {
        uint32_t n = (uint32_t)t->open[--t->nopen];

        note(PZ_MISUSE_OPEN_AT_END, intervals[n].site, intervals[n].id, n);
        boundary(t, PZ_RECORD_END, n, when);
    }
}

uint32_t pz_markers_count(void)
{
    return nintervals;
}

uintptr_t pz_markers_site(uint32_t i)
{
    return intervals[i].site;
}

unsigned pz_markers_id(uint32_t i)
{
    return intervals[i].id;
}

int pz_markers_sequential(uint32_t i)
{
    return intervals[i].sequential;
}

uint32_t pz_markers_misuses(const struct pz_misuse_note **notes)
{
    *notes = misuses;
    return nmisuses;
}

void pz_marker_status(MPI_Status *status, int source, int tag)
{
    status->MPI_SOURCE = source;
    status->MPI_TAG = tag;
    status->MPI_ERROR = MPI_SUCCESS;
    PMPI_Status_set_elements(status, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(status, 0);
}

/* A marker's request is a generalized request, complete from the start, whose status
 * is that of a zero-length message from the process itself; source and tag ride in its
 * extra state. */
static int marker_query(void *extra, MPI_Status *status)
{
    uint64_t packed = (uint64_t)(uintptr_t)extra;

    pz_marker_status(status, (int)(uint32_t)(packed >> 32), (int)(uint32_t)packed);
    return MPI_SUCCESS;
}

static int marker_free(void *extra)
{
    (void)extra;
    return MPI_SUCCESS;
}

static int marker_cancel(void *extra, int complete)
{
    (void)extra, (void)complete;
    return MPI_SUCCESS;
}

int pz_marker_request(int source, int tag, MPI_Request *request)
{
    void *extra = (void *)(uintptr_t)((uint64_t)(uint32_t)source << 32 | (uint32_t)tag);
    int rc = PMPI_Grequest_start(marker_query, marker_free, marker_cancel, extra, request);

    return rc == MPI_SUCCESS ? PMPI_Grequest_complete(*request) : rc;
}
