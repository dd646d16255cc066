/* What every generated wrapper (wrappers_gen.c) calls: entering and leaving a traced
 * call, and the hooks of each call category of mpi_calls.tbl.  A pre hook runs before
 * the PMPI call and returns nonzero when it handled the call itself; a post hook runs
 * after it and adds the call's MPI events. */
#ifndef PZ_HOOKS_H
#define PZ_HOOKS_H

#include <limits.h>
#include <mpi.h>

#include "bytes.h"
#include "calls_gen.h"
#include "checkpoint.h"
#include "clock.h"
#include "requests.h"
#include "sites.h"
#include "thread.h"

/* Root argument of collectives that have none. */
#define PZ_NO_ROOT INT_MIN

/* Requests and statuses a wait/test call keeps on the stack before it allocates. */
#define PZ_INLINE_REQUESTS 16
#define PZ_ALLOCATED_REQUESTS 1u
#define PZ_ALLOCATED_STATUSES 2u

/* The MPI functions the wrapper defines are the only symbols it exports. */
#define PZ_EXPORT __attribute__((visibility("default")))

/* Inline in every wrapper, whatever the compiler's estimate of its size: the hot path
 * of the calls, where a function call costs more than the code it runs. */
#define PZ_ALWAYS_INLINE __attribute__((always_inline)) static inline

/* One traced call in progress. */
struct pz_call {
    struct pz_thread *thread;
    uint64_t enter, leave;
    uint64_t cpu_enter, cpu_leave;    /* thread CPU time, ns, if pz_record_cpu */
    uintptr_t site;                   /* return address into the program */
    enum pz_call_id id;               /* PZ_NCALLS: consumed (a marker), not recorded */
    int ret;
    /* what pre hooks keep for post hooks */
    uint32_t comm;                    /* communicator of a matched message (mrecv) */
    int source;                       /* the source its probe named (mrecv) */
    MPI_Status status;                /* stands in for MPI_STATUS_IGNORE */
    MPI_Request *requests;            /* the requests as they were before the call */
    const MPI_Request *program_requests;  /* the program's array of them (its variable) */
    MPI_Status *statuses;             /* stand-in for MPI_STATUSES_IGNORE */
    unsigned allocated;               /* PZ_ALLOCATED_*: what a pre hook allocated */
    int nrequests;
    MPI_Request inline_requests[PZ_INLINE_REQUESTS];
    MPI_Status inline_statuses[PZ_INLINE_REQUESTS];
};

/* Always inlined, so that the return address is the wrapper's: the program's call site. */
PZ_ALWAYS_INLINE int pz_call_enter(struct pz_call *c, enum pz_call_id id)
{
    struct pz_thread *t = pz_thread_current;

    if (__builtin_expect(t == NULL, 0) && (t = pz_thread_attach()) == NULL)
        return 0;
    if (t->busy)
        return 0;
    t->busy = 1;
    t->nitems = 0;
    c->thread = t;
    c->id = id;
    c->ret = MPI_SUCCESS;
    c->leave = 0;
    c->allocated = 0;
    c->site = (uintptr_t)__builtin_return_address(0);
    /* CPU time before the enter time and after the leave time: the CPU time of a gap
     * between two calls is then measured within the gap's wall-clock time */
    if (__builtin_expect(pz_record_cpu, 0))
        c->cpu_enter = pz_cpu_now();
    c->enter = pz_ticks();
    return 1;
}

/* Marks the moment the PMPI call returned: the call's leave time. */
static inline void pz_call_returned(struct pz_call *c)
{
    c->leave = pz_ticks();
    if (__builtin_expect(pz_record_cpu, 0))
        c->cpu_leave = pz_cpu_now();
}

/* Frees what a wait/test pre hook allocated (hooks_wait.c). */
void pz_call_release_requests(struct pz_call *c);

/* Finishes the record of the call and returns its result.  Inline: every call ends
 * here, and the common case is a few stores into the thread's buffer. */
PZ_ALWAYS_INLINE int pz_call_leave(struct pz_call *c)
{
    struct pz_thread *t = c->thread;
    struct pz_record *r;
    struct pz_item *items_at;
    unsigned char *tail;
    size_t items = (size_t)t->nitems * sizeof(struct pz_item);
    uint32_t aux = (pz_record_sites ? PZ_AUX_SITE : 0) | (pz_record_cpu ? PZ_AUX_CPU : 0);
    size_t need = sizeof(*r) + items + pz_record_trailer(aux);

    if (__builtin_expect(c->allocated != 0, 0))
        pz_call_release_requests(c);
    if (__builtin_expect(c->id == PZ_NCALLS, 0)) {
        t->busy = 0;
        return c->ret;
    }
    if (__builtin_expect(t->used + need > t->cap, 0) && !pz_thread_make_room(t, need)) {
        t->busy = 0;
        return c->ret;
    }
    r = (struct pz_record *)(t->buf + t->used);
    r->enter = c->enter;
    r->leave = c->leave ? c->leave : pz_ticks();
    r->call = (uint16_t)c->id;
    r->nitems = (uint16_t)t->nitems;
    r->aux = aux;
    /* item by item: a copy of variable size would be a call into libc's memcpy */
    items_at = (struct pz_item *)(r + 1);
    for (uint32_t i = 0; i < t->nitems; i++)
        __builtin_memcpy(&items_at[i], &t->items[i], sizeof(struct pz_item));
    tail = (unsigned char *)(r + 1) + items;
    if (aux & PZ_AUX_SITE) {
        uintptr_t site = pz_sites_program_call(c->site);

        __builtin_memcpy(tail, &site, sizeof(site));
        tail += sizeof(site);
    }
    if (__builtin_expect(aux & PZ_AUX_CPU, 0)) {
        uint64_t cpu[2] = { c->cpu_enter, c->leave ? c->cpu_leave : pz_cpu_now() };

        __builtin_memcpy(tail, cpu, sizeof(cpu));
    }
    t->used += need;
    if (__builtin_expect(t->flush_start != 0, 0))
        pz_thread_mark_flush(t);
    if (__builtin_expect(pz_checkpoint_may_be_due(r->leave), 0))
        pz_checkpoint(t);
    t->busy = 0;
    return c->ret;
}

/* A new MPI event of the call; NULL (and the event is dropped) if memory ran out. */
static inline struct pz_item *pz_call_item(struct pz_call *c, enum pz_item_kind kind)
{
    struct pz_item *it = pz_thread_new_item(c->thread);

    if (it) {
        it->kind = (uint8_t)kind;
        it->flags = 0;
        it->send_counts = it->recv_counts = PZ_NO_COUNTS;
    }
    return it;
}

/* Keeps status in a receive's item it (record.h): what it received is asked of MPI
 * when the record is written out. */
static inline void pz_item_keep_status(struct pz_item *it, const MPI_Status *status)
{
    _Static_assert(sizeof(*status) <= PZ_ITEM_STATUS_ROOM, "an MPI_Status fits in an item");
    __builtin_memcpy(&it->bytes, status, sizeof(*status));
    it->flags = PZ_ITEM_KEEPS_STATUS;
}

/* Points *status at the call's own status when the program passed MPI_STATUS_IGNORE. */
static inline int pz_stand_in_status(struct pz_call *c, MPI_Status **status)
{
    if (*status == MPI_STATUS_IGNORE)
        *status = &c->status;
    return 0;
}

/* Records an MPI event of request r: its post or its completion; returns its item, NULL
 * if it was dropped.  Inline: nonblocking calls and their completions record one each. */
static inline struct pz_item *pz_add_request_event(struct pz_call *c,
                                                   const struct pz_request *r,
                                                   enum pz_item_kind kind)
{
    struct pz_item *it = pz_call_item(c, kind);

    if (!it)
        return NULL;
    it->collective = r->collective;
    it->comm = r->comm;
    it->peer = r->peer;
    it->tag = r->tag;
    it->bytes = r->bytes;
    it->bytes_received = r->bytes_received;
    it->request = r->id;
    it->send_counts = r->send_counts;
    it->recv_counts = r->recv_counts;
    return it;
}

/* Point-to-point (hooks_p2p.c; send, recv, isend and irecv inline in hooks_p2p.h); the
 * pre hooks consume interval markers (markers.h) */
int pz_pre_sendrecv(struct pz_call *c, int peer, int tag, int rpeer, int rtag, MPI_Comm comm,
                    MPI_Status **status);
void pz_post_sendrecv(struct pz_call *c, MPI_Count count, MPI_Datatype type, int peer, int tag,
                      int rpeer, MPI_Comm comm, MPI_Status *status);
int pz_pre_sendrecv_replace(struct pz_call *c, int peer, int tag, int rpeer, int rtag,
                            MPI_Comm comm, MPI_Status **status);
void pz_post_sendrecv_replace(struct pz_call *c, MPI_Count count, MPI_Datatype type, int peer,
                              int tag, int rpeer, MPI_Comm comm, MPI_Status *status);
/* MPI_Isendrecv(_replace): an Isend and an Irecv under one request, completed together
 * (requests.h, enum pz_pair); rtype is MPI_DATATYPE_NULL for the _replace form, whose
 * receive has the send's count and type */
void pz_post_isendrecv(struct pz_call *c, MPI_Count count, MPI_Datatype type, int peer, int tag,
                       int rpeer, int rtag, MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm,
                       MPI_Request *request);
int pz_pre_mprobe(struct pz_call *c, MPI_Status **status);
void pz_post_mprobe(struct pz_call *c, int peer, MPI_Comm comm, int *flag, MPI_Message *message,
                    MPI_Status *status);
int pz_pre_mrecv(struct pz_call *c, MPI_Message *message, MPI_Status **status);
void pz_post_mrecv(struct pz_call *c, MPI_Status *status);
int pz_pre_imrecv(struct pz_call *c, MPI_Message *message);
void pz_post_imrecv(struct pz_call *c, MPI_Request *request);

/* Persistent requests, wait and test (hooks_wait.c) */
int pz_pre_wait(struct pz_call *c, MPI_Request *request, MPI_Status **status);
void pz_post_wait(struct pz_call *c, int *flag, MPI_Status *status);
int pz_pre_waitall(struct pz_call *c, int n, MPI_Request *requests, MPI_Status **statuses);
void pz_post_waitall(struct pz_call *c, int n, int *flag, MPI_Status *statuses);
int pz_pre_waitany(struct pz_call *c, int n, MPI_Request *requests, MPI_Status **status);
void pz_post_waitany(struct pz_call *c, int *index, int *flag, MPI_Status *status);
int pz_pre_waitsome(struct pz_call *c, int n, MPI_Request *requests, MPI_Status **statuses);
void pz_post_waitsome(struct pz_call *c, int *outcount, int *indices, MPI_Status *statuses);
void pz_post_psend_init(struct pz_call *c, MPI_Count count, MPI_Datatype type, int peer, int tag,
                        MPI_Comm comm, MPI_Request *request);
void pz_post_precv_init(struct pz_call *c, int peer, int tag, MPI_Comm comm,
                        MPI_Request *request);
void pz_post_start(struct pz_call *c, MPI_Request *request);
void pz_post_startall(struct pz_call *c, int n, MPI_Request *requests);
int pz_pre_request_free(struct pz_call *c, MPI_Request *request);
int pz_pre_cancel(struct pz_call *c, MPI_Request *request);

/* Collectives: pz_post_coll, inline (hooks_coll.h) */

/* Communicators (hooks_comm.c) */
void pz_post_comm_new(struct pz_call *c, MPI_Comm comm, MPI_Comm *newcomm);
/* MPI_Comm_idup(_with_info): newcomm is registered without being used (comms.h) */
void pz_post_comm_idup(struct pz_call *c, MPI_Comm comm, MPI_Comm *newcomm);
int pz_pre_comm_free(struct pz_call *c, MPI_Comm *comm);

#endif
