/* Hooks of point-to-point calls: blocking and nonblocking sends and receives, and the
 * matched-probe family. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "comms.h"
#include "hooks.h"
#include "markers.h"
#include "requests.h"

/* Sizes of predefined datatypes, which never change, so that most calls need not ask
 * MPI; derived datatypes may be freed and their handles reused, so they are always
 * asked.  A slot holds handle + 1 and the size, or -1 for a derived type. */
#define TYPE_SLOTS 64
static _Atomic uint64_t type_sizes[TYPE_SLOTS];

static int type_size(MPI_Datatype type)
{
    uint32_t handle = (uint32_t)MPI_Type_c2f(type);
    _Atomic uint64_t *slot = &type_sizes[(handle * 2654435761u) >> 26];
    uint64_t known = atomic_load_explicit(slot, memory_order_relaxed);
    int size = 0, ni, na, nd, combiner;

    if ((uint32_t)(known >> 32) == handle + 1 && (int32_t)known >= 0)
        return (int32_t)known;
    PMPI_Type_size(type, &size);
    if ((uint32_t)(known >> 32) != handle + 1) {
        PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
        atomic_store_explicit(slot, (uint64_t)(handle + 1) << 32 |
                                        (uint32_t)(combiner == MPI_COMBINER_NAMED ? size : -1),
                              memory_order_relaxed);
    }
    return size;
}

uint64_t pz_bytes(int count, MPI_Datatype type)
{
    if (count <= 0 || type == MPI_DATATYPE_NULL)
        return 0;
    return (uint64_t)count * (uint64_t)type_size(type);
}

uint64_t pz_received_bytes(const MPI_Status *status)
{
    int n = 0;

    PMPI_Get_count(status, MPI_BYTE, &n);
    return n > 0 ? (uint64_t)n : 0;
}

int pz_stand_in_status(struct pz_call *c, MPI_Status **status)
{
    if (*status == MPI_STATUS_IGNORE)
        *status = &c->status;
    return 0;
}

static void add_send(struct pz_call *c, enum pz_item_kind kind, int count, MPI_Datatype type,
                     int peer, int tag, MPI_Comm comm)
{
    struct pz_item *it;

    if (peer == MPI_PROC_NULL || !(it = pz_call_item(c, kind)))
        return;
    it->comm = pz_comm_ref(comm);
    it->peer = peer;
    it->tag = tag;
    it->bytes = pz_bytes(count, type);
}

void pz_add_received(struct pz_call *c, uint32_t comm, const MPI_Status *status)
{
    struct pz_item *it;

    if (status->MPI_SOURCE == MPI_PROC_NULL || !(it = pz_call_item(c, PZ_ITEM_RECV)))
        return;
    it->comm = comm;
    it->peer = status->MPI_SOURCE;
    it->tag = status->MPI_TAG;
    if (sizeof(*status) <= 3 * sizeof(uint64_t)) {
        memcpy(&it->bytes, status, sizeof(*status));
        it->flags = PZ_ITEM_KEEPS_STATUS;
    } else {
        it->bytes = pz_received_bytes(status);
    }
}

/* A marker half (markers.h): marks the boundary instead of calling MPI; the call is not
 * recorded as an MPI call. */
static int consume_marker(struct pz_call *c, int tag)
{
    pz_marker(c->thread, tag, c->enter, c->site);
    c->id = PZ_NCALLS;
    c->ret = MPI_SUCCESS;
    return 1;
}

/* Rank of the process in comm: the source a marker's receive reports. */
static int self_rank(MPI_Comm comm)
{
    int rank;

    PMPI_Comm_rank(comm, &rank);
    return rank;
}

int pz_pre_send(struct pz_call *c, int peer, int tag, MPI_Comm comm)
{
    return pz_is_marker(peer, tag, comm) && consume_marker(c, tag);
}

void pz_post_send(struct pz_call *c, int count, MPI_Datatype type, int peer, int tag,
                  MPI_Comm comm)
{
    add_send(c, PZ_ITEM_SEND, count, type, peer, tag, comm);
}

int pz_pre_recv(struct pz_call *c, int peer, int tag, MPI_Comm comm, MPI_Status **status)
{
    if (pz_is_marker(peer, tag, comm)) {
        if (*status != MPI_STATUS_IGNORE)
            pz_marker_status(*status, self_rank(comm), tag);
        return consume_marker(c, tag);
    }
    return pz_stand_in_status(c, status);
}

void pz_post_recv(struct pz_call *c, MPI_Comm comm, MPI_Status *status)
{
    pz_add_received(c, pz_comm_ref(comm), status);
}

int pz_pre_sendrecv(struct pz_call *c, int peer, int tag, int rpeer, int rtag, MPI_Comm comm,
                    MPI_Status **status)
{
    if (tag == rtag && pz_is_marker(peer, tag, comm) && pz_is_marker(rpeer, rtag, comm)) {
        if (*status != MPI_STATUS_IGNORE)
            pz_marker_status(*status, self_rank(comm), tag);
        consume_marker(c, tag);
        return consume_marker(c, tag);   /* both halves of the pair */
    }
    return pz_stand_in_status(c, status);
}

void pz_post_sendrecv(struct pz_call *c, int count, MPI_Datatype type, int peer, int tag,
                      MPI_Comm comm, MPI_Status *status)
{
    add_send(c, PZ_ITEM_SEND, count, type, peer, tag, comm);
    pz_add_received(c, pz_comm_ref(comm), status);
}

int pz_pre_sendrecv_replace(struct pz_call *c, int peer, int tag, int rpeer, int rtag,
                            MPI_Comm comm, MPI_Status **status)
{
    return pz_pre_sendrecv(c, peer, tag, rpeer, rtag, comm, status);
}

void pz_post_sendrecv_replace(struct pz_call *c, int count, MPI_Datatype type, int peer,
                              int tag, MPI_Comm comm, MPI_Status *status)
{
    pz_post_sendrecv(c, count, type, peer, tag, comm, status);
}

/* Remembers a posted send or receive under its request and records its post. */
static void posted(struct pz_call *c, struct pz_request *r, MPI_Request request)
{
    r->id = pz_requests_new_id();
    r->active = 1;
    pz_requests_add(c->thread->requests, request, r);
    pz_add_request_event(c, r, r->kind == PZ_REQ_SEND ? PZ_ITEM_ISEND : PZ_ITEM_IRECV_REQUEST);
}

int pz_pre_isend(struct pz_call *c, int peer, int tag, MPI_Comm comm, MPI_Request *request)
{
    if (!pz_is_marker(peer, tag, comm))
        return 0;
    consume_marker(c, tag);
    c->ret = pz_marker_request(self_rank(comm), tag, request);
    return 1;
}

void pz_post_isend(struct pz_call *c, int count, MPI_Datatype type, int peer, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    struct pz_request r = { .kind = PZ_REQ_SEND, .comm = pz_comm_ref(comm), .peer = peer,
                            .tag = tag, .bytes = pz_bytes(count, type) };

    if (peer != MPI_PROC_NULL)
        posted(c, &r, *request);
}

int pz_pre_irecv(struct pz_call *c, int peer, int tag, MPI_Comm comm, MPI_Request *request)
{
    return pz_pre_isend(c, peer, tag, comm, request);
}

void pz_post_irecv(struct pz_call *c, int peer, int tag, MPI_Comm comm, MPI_Request *request)
{
    struct pz_request r = { .kind = PZ_REQ_RECV, .comm = pz_comm_ref(comm), .peer = peer,
                            .tag = tag };

    if (peer != MPI_PROC_NULL)
        posted(c, &r, *request);
}

/* Matched messages between a matched probe and their receive: their communicator. */
#define MAX_MESSAGES 256
static struct {
    MPI_Message message;
    uint32_t comm;
} messages[MAX_MESSAGES];
static int nmessages;
static pthread_mutex_t messages_lock = PTHREAD_MUTEX_INITIALIZER;

static void message_matched(MPI_Message message, uint32_t comm)
{
    pthread_mutex_lock(&messages_lock);
    if (nmessages < MAX_MESSAGES) {
        messages[nmessages].message = message;
        messages[nmessages++].comm = comm;
    }
    pthread_mutex_unlock(&messages_lock);
}

static uint32_t message_received(MPI_Message message)
{
    uint32_t comm = PZ_COMM_UNKNOWN;

    pthread_mutex_lock(&messages_lock);
    for (int i = 0; i < nmessages; i++) {
        if (messages[i].message == message) {
            comm = messages[i].comm;
            messages[i] = messages[--nmessages];
            break;
        }
    }
    pthread_mutex_unlock(&messages_lock);
    return comm;
}

int pz_pre_mprobe(struct pz_call *c, MPI_Status **status)
{
    return pz_stand_in_status(c, status);
}

void pz_post_mprobe(struct pz_call *c, MPI_Comm comm, int *flag, MPI_Message *message,
                    MPI_Status *status)
{
    (void)c;
    (void)status;
    if ((!flag || *flag) && *message != MPI_MESSAGE_NO_PROC)
        message_matched(*message, pz_comm_ref(comm));
}

int pz_pre_mrecv(struct pz_call *c, MPI_Message *message, MPI_Status **status)
{
    c->comm = message_received(*message);
    return pz_stand_in_status(c, status);
}

void pz_post_mrecv(struct pz_call *c, MPI_Status *status)
{
    pz_add_received(c, c->comm, status);
}

int pz_pre_imrecv(struct pz_call *c, MPI_Message *message)
{
    c->comm = message_received(*message);
    return 0;
}

void pz_post_imrecv(struct pz_call *c, MPI_Request *request)
{
    struct pz_request r = { .kind = PZ_REQ_RECV, .comm = c->comm, .peer = MPI_ANY_SOURCE,
                            .tag = MPI_ANY_TAG };

    posted(c, &r, *request);
}
