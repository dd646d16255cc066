/* Hooks of point-to-point calls: the interval markers that the inline hooks of sends
 * and receives find (hooks_p2p.h), Sendrecv, and the matched-probe family. */
#include <pthread.h>

#include "hooks_p2p.h"

/* pz_is_marker, with its first test inline: nearly every call fails it. */
static inline int is_marker(int peer, int tag, MPI_Comm comm)
{
    return pz_is_marker_tag(tag) && pz_is_marker(peer, tag, comm);
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

int pz_pre_send_marker(struct pz_call *c, int peer, int tag, MPI_Comm comm)
{
    return pz_is_marker(peer, tag, comm) && consume_marker(c, tag);
}

int pz_pre_recv_marker(struct pz_call *c, int peer, int tag, MPI_Comm comm,
                       MPI_Status *status)
{
    if (!pz_is_marker(peer, tag, comm))
        return 0;
    if (status != MPI_STATUS_IGNORE)
        pz_marker_status(status, self_rank(comm), tag);
    return consume_marker(c, tag);
}

int pz_pre_sendrecv(struct pz_call *c, int peer, int tag, int rpeer, int rtag, MPI_Comm comm,
                    MPI_Status **status)
{
    if (tag == rtag && is_marker(peer, tag, comm) && is_marker(rpeer, rtag, comm)) {
        if (*status != MPI_STATUS_IGNORE)
            pz_marker_status(*status, self_rank(comm), tag);
        consume_marker(c, tag);
        return consume_marker(c, tag);   /* both halves of the pair */
    }
    return pz_stand_in_status(c, status);
}

void pz_post_sendrecv(struct pz_call *c, MPI_Count count, MPI_Datatype type, int peer, int tag,
                      int rpeer, MPI_Comm comm, MPI_Status *status)
{
    pz_add_send(c, count, type, peer, tag, comm);
    pz_add_received(c, pz_comm_ref(comm), status, rpeer);
}

int pz_pre_sendrecv_replace(struct pz_call *c, int peer, int tag, int rpeer, int rtag,
                            MPI_Comm comm, MPI_Status **status)
{
    return pz_pre_sendrecv(c, peer, tag, rpeer, rtag, comm, status);
}

void pz_post_sendrecv_replace(struct pz_call *c, MPI_Count count, MPI_Datatype type, int peer,
                              int tag, int rpeer, MPI_Comm comm, MPI_Status *status)
{
    pz_post_sendrecv(c, count, type, peer, tag, rpeer, comm, status);
}

int pz_pre_isend_marker(struct pz_call *c, int peer, int tag, MPI_Comm comm,
                        MPI_Request *request)
{
    if (!pz_is_marker(peer, tag, comm))
        return 0;
    consume_marker(c, tag);
    c->ret = pz_marker_request(self_rank(comm), tag, request);
    return 1;
}

/* Matched messages between a matched probe and their receive: their communicator, and
 * the source the probe named (the receive's, for the trace: MPI_ANY_SOURCE or not). */
#define MAX_MESSAGES 256
static struct {
    MPI_Message message;
    uint32_t comm;
    int source;
} messages[MAX_MESSAGES];
static int nmessages;
static pthread_mutex_t messages_lock = PTHREAD_MUTEX_INITIALIZER;

static void message_matched(MPI_Message message, uint32_t comm, int source)
{
    pthread_mutex_lock(&messages_lock);
    if (nmessages < MAX_MESSAGES) {
        messages[nmessages].message = message;
        messages[nmessages].source = source;
        messages[nmessages++].comm = comm;
    }
    pthread_mutex_unlock(&messages_lock);
}

/* The communicator of the matched message into c->comm, the source its probe named into
 * c->source (when the message is unknown, MPI_PROC_NULL: not marked as MPI_ANY_SOURCE). */
static void message_received(struct pz_call *c, MPI_Message message)
{
    c->comm = PZ_COMM_UNKNOWN;
    c->source = MPI_PROC_NULL;
    pthread_mutex_lock(&messages_lock);
    for (int i = 0; i < nmessages; i++) {
        if (messages[i].message == message) {
            c->comm = messages[i].comm;
            c->source = messages[i].source;
            messages[i] = messages[--nmessages];
            break;
        }
    }
    pthread_mutex_unlock(&messages_lock);
}

int pz_pre_mprobe(struct pz_call *c, MPI_Status **status)
{
    return pz_stand_in_status(c, status);
}

void pz_post_mprobe(struct pz_call *c, int peer, MPI_Comm comm, int *flag, MPI_Message *message,
                    MPI_Status *status)
{
    (void)c;
    (void)status;
    if ((!flag || *flag) && *message != MPI_MESSAGE_NO_PROC)
        message_matched(*message, pz_comm_ref(comm), peer);
}

int pz_pre_mrecv(struct pz_call *c, MPI_Message *message, MPI_Status **status)
{
    message_received(c, *message);
    return pz_stand_in_status(c, status);
}

void pz_post_mrecv(struct pz_call *c, MPI_Status *status)
{
    pz_add_received(c, c->comm, status, c->source);
}

int pz_pre_imrecv(struct pz_call *c, MPI_Message *message)
{
    message_received(c, *message);
    return 0;
}

void pz_post_imrecv(struct pz_call *c, MPI_Request *request)
{
    struct pz_request r = { .kind = PZ_REQ_RECV, .comm = c->comm, .peer = c->source,
                            .tag = MPI_ANY_TAG };

    pz_posted(c, &r, request);
}

void pz_post_isendrecv(struct pz_call *c, MPI_Count count, MPI_Datatype type, int peer, int tag,
                       int rpeer, int rtag, MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm,
                       MPI_Request *request)
{
    uint32_t ref = pz_comm_ref(comm);
    struct pz_request send = { .kind = PZ_REQ_SEND, .comm = ref, .peer = peer, .tag = tag,
                               .bytes = pz_bytes(count, type),
                               .pair = rpeer != MPI_PROC_NULL ? PZ_PAIR_SEND : PZ_PAIR_NONE };
    struct pz_request recv = { .kind = PZ_REQ_RECV, .comm = ref, .peer = rpeer, .tag = rtag,
                               .pair = PZ_PAIR_RECV };

    recv.bytes = rtype == MPI_DATATYPE_NULL ? send.bytes : pz_bytes(rcount, rtype);

    if (peer != MPI_PROC_NULL)
        pz_posted(c, &send, request);
    if (rpeer != MPI_PROC_NULL)
        pz_posted(c, &recv, request);
}
