/* Inside the communication model: the state comsys.c (point-to-point protocols, events),
 * comsys_coll.c (collectives run as point-to-point messages), comsys_progress.c
 * (progress only in calls) and comsys_core.c (requests, scheduling) share. */
#ifndef PZ_COMSYS_INT_H
#define PZ_COMSYS_INT_H

#include <stdint.h>

#include "comsys.h"
#include "match.h"
#include "network.h"
#include "radix.h"

/* Collectives match their messages in a context of their own per communicator. */
#define PZ_COLL_CONTEXT 0x40000000

enum req_kind { REQ_SEND, REQ_RECV, REQ_COLL, REQ_FREE, REQ_RMA };

/* The simulation's own events: a post, a request-to-send arriving, a clear-to-send
 * arriving, a collective's round; with progress only in calls, a clear-to-send and a
 * rendezvous' data that waited for their process's next call; a one-sided Get's
 * request arriving at its target; a lock request and a lock's release arriving at
 * theirs. */
enum cs_event { EV_POST, EV_RTS, EV_CTS, EV_ROUND, EV_CTS_GO, EV_DATA_GO, EV_COLL_SEND,
                EV_RMA_REPLY, EV_LOCK_ARRIVE, EV_LOCK_RELEASE };

/* The kind of a group of rounds in the events' queue (struct round_group), given out as
 * its rounds (EV_ROUND), never as an event of its own. */
#define EV_ROUNDS (EV_LOCK_RELEASE + 1)

struct request {
    double posted, done;       /* done < 0 while unknown */
    double arrival;            /* eager sends: when the data arrives */
    double bytes;
    struct pz_match_key key;
    int owner;                 /* the process that posted it */
    int partner;               /* the matched request, -1 */
    int next;                  /* in the free list */
    int agent;                 /* the collective part that posted it, -1 */
    int to;                    /* a collective's send: its receiver's place in procs */
    uint8_t kind, mode;
    uint8_t queued, watched, released, rts_arrived;
    uint8_t has_data;          /* a receive matched with a send: bytes are the send's */
    int then, next_then;       /* requests posted when this one completes: the first, and
                                  the next after this one of its request's (index + 1;
                                  0: none) */
};

struct coll_cache;

struct pz_coll_schedule;

/* Schedules of collectives a communicator keeps for its members to share: a few, so
 * that an instance whose members have a few shapes of rounds shares too, and looking
 * one up stays cheap where members share nothing. */
#define COMM_SHARED 4

struct comm {
    int size;
    int *procs;                /* an intercommunicator's: the low group, then the high */
    int low_size;              /* of an intercommunicator, the low group's size; else 0 */
    unsigned *seq;             /* per rank: collectives it posted on this communicator */
    struct coll_cache *cache;  /* per rank: its last collective's schedule (comsys_coll.c),
                                  NULL until the first */
    struct pz_coll_schedule *shared[COMM_SHARED];   /* the schedules made last, that
                                                       members share (comsys_coll.c) */
    int *home;                 /* per place in procs: the agent that holds the messages to
                                  it (comsys_coll.c), -1 until one comes; NULL until the
                                  first collective */
    int plain;                 /* the machine makes a collective's eager message between
                                  two processes no more than its transfer (comsys_coll.c,
                                  plain_machine) */
};

struct agent;
struct in_calls;
struct resume;
struct sending;
struct turns;
struct pz_cs_locks;

/* Events due at the time the simulation has reached, in the order they were asked for:
 * cheaper than the heap for the many that are due at once (rounds of collectives whose
 * messages had already arrived).  The capacity is a power of two. */
struct due_now {
    struct pz_heap_item *items;
    uint32_t head, count, cap;
};

/* Rounds of collectives due at one time after now and pushed with no other event of
 * that time between them (comsys_rounds.c): one item of the events' queue (EV_ROUNDS),
 * whose rounds are taken one by one, in the order they were pushed, when it comes.
 * Each would have followed the one before in the queue, so the events and their order
 * are the same; the queue's push and pop of each but the first are saved. */
struct round_group {
    uint64_t key;              /* the rounds' time (pz_heap_bits) */
    int *agents;
    int n, cap, next;          /* next: the round to take */
    int next_free;             /* in the free list: the next + 1; 0: none */
};

/* Groups still taking rounds, by a hash of their time: a time's push finds its group
 * there, or none, and any other event of that time closes it.  A power of two. */
#define OPEN_GROUPS 256

struct round_groups {
    struct round_group *all;
    int n, cap, free;          /* free: the first of the free list + 1; 0: none */
    int open[OPEN_GROUPS];     /* the open group of a slot's time + 1; 0: none */
    int current;               /* the group being taken + 1; 0: none */
};

struct pz_comsys {
    const struct pz_machine *machine;
    struct pz_network *net;
    int nprocs;
    int *node;                 /* node of each process */
    double *cpu_free;          /* per process: the end of the MPI overheads it has taken on */
    double now;
    struct pz_radix events;    /* events after now */
    struct due_now now_queue;
    struct round_groups groups;   /* rounds grouped among the events after now */
    struct pz_match match;
    struct request *req;
    int nreq, capreq, free_req;
    struct comm *comms;
    int ncomms;
    struct agent *agents;
    int nagents, capagents, free_agent;
    const struct pz_coll_algo *forced[PZ_COLL_NOPS];
    pz_comsys_notify notify;
    void *notify_ud;
    struct in_calls *progress;      /* per process, with progress = in_calls only */
    struct resume *resume;          /* per process, with a resume overhead only */
    struct sending *sending;        /* per process, with a duplex overhead only */
    struct turns *turns;            /* per node, with duplex factors only */
    struct pz_cs_locks *locks;      /* passive target locks (comsys_lock.c), NULL until
                                       the first */
    int pending, failed;
    unsigned long long messages;
};

/* Requests and events (comsys_core.c). */

/* A new request (all fields zero but partner, agent = -1, done = -1); -1 if memory ran
 * out.  Pointers into cs->req are invalid after it. */
int pz_cs_new_request(struct pz_comsys *cs);

/* Process p takes on an overhead of CPU time o from time t: when it is done, after the
 * overheads it took on before.  An overhead of 0 neither waits nor occupies. */
double pz_cs_occupy(struct pz_comsys *cs, int p, double t, double o);

/* Whether processes p and q are on one node. */
int pz_cs_same_node(const struct pz_comsys *cs, int p, int q);

/* Whether the message from process `from` to `to` is its process's own work: a message
 * to oneself on a machine with self_segments, which hold its whole cost.  It goes
 * eagerly at any size and occupies its process for pz_self_time as the sender's
 * overhead would, from its post on (so that the process's next message leaves after
 * it, as a transport that sends it through its own loopback does), then arrives at
 * once; the receiver pays nothing. */
int pz_cs_self_work(const struct pz_comsys *cs, int from, int to);

/* The CPU time the sender, or the receiver, of a message of bytes from process `from` to
 * `to` spends on it (cost.h): for a process's own work (pz_cs_self_work) the sender
 * pz_self_time, the receiver nothing. */
double pz_cs_send_overhead(const struct pz_comsys *cs, int from, int to, double bytes);
double pz_cs_recv_overhead(const struct pz_comsys *cs, int from, int to, double bytes);

/* Schedules an event of the model at time t (not before cs->now). */
void pz_cs_push(struct pz_comsys *cs, double t, enum cs_event kind, int id);

/* Rounds grouped in the events' queue (comsys_rounds.c).  push_round: schedules agent's
 * round at t, after now: in the open group of t, else as a new group; 0, or -1 if
 * memory ran out.  close: an event of time t is pushed, not a round: the group of t
 * (if one is open) takes no more.  take: the next round of the group being taken into
 * *ev (its time now), 1; 0 if none is being taken.  begin: ev, an EV_ROUNDS just
 * popped, becomes its first round, the group the one being taken.  free: the groups'
 * memory. */
int pz_cs_rounds_push(struct pz_comsys *cs, double t, int agent);
void pz_cs_rounds_close(struct pz_comsys *cs, double t);
int pz_cs_rounds_take(struct pz_comsys *cs, struct pz_heap_item *ev);
void pz_cs_rounds_begin(struct pz_comsys *cs, struct pz_heap_item *ev);
void pz_cs_rounds_free(struct pz_comsys *cs);

/* The protocols (comsys.c). */

/* Processes a posted send or receive at cs->now: matching and the protocol's start. */
void pz_cs_start(struct pz_comsys *cs, int r);

/* Takes request r posted at `at` now, or when the simulation reaches `at`; returns r. */
int pz_cs_post(struct pz_comsys *cs, int r, double at);

/* Whether a standard send of bytes from process `from` to `to` goes eagerly: up to the
 * eager threshold, and a process's own work (pz_cs_self_work) of any size. */
int pz_cs_eager_size(const struct pz_comsys *cs, int from, int to, double bytes);

/* One transfer between processes, ready now: when its last byte arrives (one to
 * oneself: pz_self_time through memory, on no link). */
double pz_cs_transfer(struct pz_comsys *cs, int from, int to, double bytes);

/* A protocol's control message between processes, leaving now: when it arrives
 * (pz_network_control: a message of 0 bytes' time, on no link's turn; one to oneself:
 * pz_self_time of 0 bytes).  The control
 * messages: a rendezvous's request and clear to send, RMA's lock requests, grants and
 * releases, a get's request, and the signals of post/start/complete/wait. */
double pz_cs_control(const struct pz_comsys *cs, int from, int to);

/* Fixes request r's completion time and tells whoever waits for it. */
void pz_cs_complete(struct pz_comsys *cs, int r, double t);

/* One-sided transfers (comsys_rma.c): request r of kind REQ_RMA starting now, and a
 * Get's request arrived at its target (EV_RMA_REPLY). */
void pz_cs_rma_start(struct pz_comsys *cs, int r);
void pz_cs_rma_reply(struct pz_comsys *cs, int r);

/* Posts request r at `at` (not before cs->now) as an event, whatever the caller posts
 * before `at` afterwards; returns r (comsys_rma.c). */
int pz_cs_post_ahead(struct pz_comsys *cs, int r, double at);

/* Request r completed at t: the requests waiting for it are posted then (comsys_rma.c). */
void pz_cs_rma_then(struct pz_comsys *cs, int r, double t);

/* Passive target locks (comsys_lock.c): whether REQ_RMA request q is a lock request or
 * a release; one starting now; one arrived at its target (EV_LOCK_ARRIVE,
 * EV_LOCK_RELEASE); freeing the locks. */
int pz_cs_is_lock(const struct request *q);
void pz_cs_lock_start(struct pz_comsys *cs, int r);
void pz_cs_lock_arrived(struct pz_comsys *cs, int r);
void pz_cs_lock_released(struct pz_comsys *cs, int r);
void pz_cs_locks_free(struct pz_comsys *cs);

/* Progress only in calls (comsys_progress.c).  pz_cs_progress_now: whether process p
 * may take step kind (EV_CTS_GO, EV_DATA_GO) of request now; if not, the step is
 * scheduled for p's next MPI call. */
int pz_cs_progress_init(struct pz_comsys *cs);
void pz_cs_progress_free(struct pz_comsys *cs);
int pz_cs_progress_now(struct pz_comsys *cs, int p, enum cs_event kind, int request);

/* The resume overhead (comsys_resume.c): kept only when the machine has one (init
 * returns -1 if memory ran out); process p enters and leaves an MPI call at `at`.
 * resume_occupy is pz_cs_occupy for p's message to or from peer posted at `at` with its
 * overhead o: without a resume overhead, that; with one, p pays first what it owes for
 * what it computed since its last message (nothing the next time), and the message
 * waits for p's CPU even if it costs nothing itself, so that the messages of a call
 * leave in their order. */
int pz_cs_resume_init(struct pz_comsys *cs);
void pz_cs_resume_free(struct pz_comsys *cs);
void pz_cs_resume_enter(struct pz_comsys *cs, int p, double at);
void pz_cs_resume_leave(struct pz_comsys *cs, int p, double at);
double pz_cs_resume_occupy(struct pz_comsys *cs, int p, int peer, double at, double o);

/* The duplex overhead (comsys_duplex.c): kept only when the machine has one (init
 * returns -1 if memory ran out).  send_occupy is resume_occupy for p's send of bytes to
 * peer posted at `at`, its overhead o its pz_cs_send_overhead: with a duplex overhead,
 * o grows by duplex_overhead times the fraction of it that overlaps peer's latest send
 * on its way, when that was to p: from the start of its overhead until its data arrives
 * (until the end of its overhead while the simulation does not know when).
 * Point-to-point sends (whatever their protocol) and collectives' sends take their
 * overheads through it alike.  It returns when the message leaves: the end of the
 * overhead less the send's tail (pz_send_tail_time; a process's own work, send_tail;
 * at most the overhead), the process staying busy until the end.
 * arrives notes that the data of a message from `from` to `to` arrives at
 * arrival (from's latest send to `to` is on its way at least until then); it returns
 * arrival, and is called where each message's data is sent. */
int pz_cs_duplex_init(struct pz_comsys *cs);
void pz_cs_duplex_free(struct pz_comsys *cs);
double pz_cs_send_occupy(struct pz_comsys *cs, int p, int peer, double at, double bytes);
double pz_cs_duplex_arrives(struct pz_comsys *cs, int from, int to, double arrival);

/* The duplex factors (comsys_turns.c): kept only when the machine has them (init
 * returns -1 if memory ran out).  arrives gives when the data of a message of bytes
 * from process `from` to `to`, on its way from start (both its ends there) and arriving
 * at arrival alone, arrives: later by its size's factor - 1 times its overlap with the
 * latest message the other way at its nodes; between processes of one node, at
 * arrival.  Called where each message's data is sent, in the order of the simulation. */
int pz_cs_turns_init(struct pz_comsys *cs);
void pz_cs_turns_free(struct pz_comsys *cs);
double pz_cs_turns_arrives(struct pz_comsys *cs, int from, int to, double bytes,
                           double start, double arrival);

/* Collectives (comsys_coll.c): a part's messages completing, and its next round due;
 * freeing the agents and the communicators' schedules. */
void pz_cs_agent_message_done(struct pz_comsys *cs, int agent, double t);
/* A receive of agent's round from process src arrived at t: its receiver's overhead,
 * then done. */
void pz_cs_agent_received(struct pz_comsys *cs, int agent, int src, double t);
void pz_cs_agent_round(struct pz_comsys *cs, int agent);
void pz_cs_coll_free(struct pz_comsys *cs);

/* A message of agent's round, posted now (key: in the collective context), by the
 * protocols of comsys.c; agent_message_done tells the agent when it completes.  `to` is
 * the receiver's place in the communicator's procs. */
void pz_cs_coll_send(struct pz_comsys *cs, int agent, int to, struct pz_match_key key,
                     double bytes);
void pz_cs_coll_recv(struct pz_comsys *cs, int agent, int to, struct pz_match_key key);

/* The same send posted at t (not before now: its sender's overhead delayed it). */
void pz_cs_coll_send_at(struct pz_comsys *cs, int agent, int to, struct pz_match_key key,
                        double bytes, double t);

/* Matches item, a message of key in the collective context of a communicator, to its
 * receiver at place `to` of the communicator's procs, as the match table (match.h)
 * would: with the oldest unmatched item of its key if that is of the other kind (1, that
 * one in *partner), else kept unmatched (0); -1 if memory ran out (cs->failed is set).
 * The messages to a member wait in its home agent, whose round they complete, rather
 * than in the table; cs->pending counts them alike. */
int pz_cs_coll_match(struct pz_comsys *cs, int to, struct pz_match_key key,
                     struct pz_match_item item, struct pz_match_item *partner);

#endif
