/* A model of MPI communication on a machine, usable on its own (000's CComSys): post
 * sends, receives and collectives with the times the processes post them, and learn
 * when each completes.  The replay engine (engine.h) drives it from a trace; a program
 * can drive it with no trace at all (share/examples/comsys.c, docs/comsys.md).
 *
 * It is a discrete-event simulation of its own: every transfer is asked of the network
 * at the moment it is ready, in time order, so contention is charged in the order it
 * happens.  Protocols as MPICH implements them:
 *
 *   eager (standard sends up to eager_threshold, and every buffered send): the data
 *     leaves at the send's post, the send completes at once, the receive when the data
 *     has arrived and the receive was posted;
 *   rendezvous (larger standard sends, every synchronous send): a request-to-send goes at
 *     the post; when it has arrived and the receive is posted a clear-to-send goes back;
 *     the data leaves the machine's rendezvous_overhead after that arrives; both
 *     complete when the data has arrived.  With the machine's rendezvous_first_fragment
 *     (Open MPI's ob1) that many of its bytes travel with the request, as an eager
 *     message's would, waiting at the receiver until the receive is posted, and only
 *     the rest follows the clear-to-send (a message they hold whole is received when
 *     the clear-to-send goes, its send complete when it arrives).
 *
 * The machine's overheads (the CPU time a process spends inside MPI on a message)
 * occupy the process, one after the other: a send's before its message leaves (the
 * send is posted that much later, and an eager send completes then; the caller learns
 * when its process is free again from pz_comsys_cpu_free), a receive's when the process
 * takes its data (pz_comsys_deliver, called by the receive or the wait that completes
 * it).  A collective's messages take them as the member's part of the algorithm sends
 * them and as their data arrives.
 *
 * Messages from one sender to one receiver with one tag and communicator are matched in
 * the order they were posted (give a wildcard receive the source and tag it matched).
 * A collective is posted by each member with its own start time and runs as the
 * point-to-point messages of the machine's MPI's algorithm (coll.h), in the background
 * of the member: it completes when the member's part of the algorithm is done.
 *
 * Time only moves forward: an operation may not be posted earlier than the simulation
 * has advanced (pz_comsys_now); such a post fails. */
#ifndef PZ_COMSYS_H
#define PZ_COMSYS_H

#include "coll.h"
#include "machine.h"

/* What this installed header declares is libprognoz-comsys's API: exported, while the
 * library's other functions stay hidden. */
#pragma GCC visibility push(default)

struct pz_comsys;

enum pz_send_mode {
    PZ_SEND_STANDARD,      /* MPI_Send, Isend, Rsend: eager or rendezvous by size */
    PZ_SEND_SYNCHRONOUS,   /* MPI_Ssend, Issend: always rendezvous */
    PZ_SEND_BUFFERED,      /* MPI_Bsend, Ibsend: always eager */
};

/* Called once for each watched request (pz_comsys_watch) when its completion time
 * becomes known: the process that owns it (sender, receiver, collective member), the
 * request, and the time. */
typedef void (*pz_comsys_notify)(void *ud, int proc, int request, double done);

/* A communication system for nprocs processes on machine m (kept by reference);
 * NULL if memory ran out. */
struct pz_comsys *pz_comsys_new(const struct pz_machine *m, int nprocs);
void pz_comsys_free(struct pz_comsys *cs);

void pz_comsys_set_notify(struct pz_comsys *cs, pz_comsys_notify fn, void *ud);

/* With the machine's progress = in_calls, the MPI library moves a rendezvous along only
 * inside MPI calls: the receiver's clear-to-send and the sender's data wait, when their
 * time comes while the process computes, for its next call.  The caller tells when each
 * process enters an MPI call (at, not before pz_comsys_now; the number returned names
 * the call) and when it leaves it; a process never told about counts as always in a
 * call.  With progress = background enter returns -1.  Whatever the progress, the time
 * a process spends out of MPI calls is what it computed: on a machine with a resume
 * overhead (docs/machines.md), its next message pays for it. */
int pz_comsys_enter(struct pz_comsys *cs, int proc, double at);
void pz_comsys_leave(struct pz_comsys *cs, int proc, int call, double at);

/* Makes every collective of op on an intracommunicator use algo instead of the
 * machine's choice. */
void pz_comsys_force(struct pz_comsys *cs, const struct pz_coll_algo *algo);

/* Posts a send of bytes from process src to dst (0 to nprocs - 1) at time `at`.  comm is
 * any number >= 0 below 2^30 that tells communicators apart.  Returns a request (>= 0),
 * or -1 if a process is out of range, memory ran out or `at` is in the simulation's
 * past. */
int pz_comsys_send(struct pz_comsys *cs, int src, int dst, int tag, int comm, double bytes,
                   enum pz_send_mode mode, double at);

/* Posts the receive by dst of the next message from src with tag on comm at `at`. */
int pz_comsys_recv(struct pz_comsys *cs, int dst, int src, int tag, int comm, double at);

/* Defines a communicator for collectives: procs[i] is the process of its rank i.
 * Returns its number (>= 0, usable as comm above), or -1 if memory ran out. */
int pz_comsys_comm(struct pz_comsys *cs, int size, const int *procs);

/* Defines an intercommunicator for collectives between a low group and a high group
 * (MPICH's low group: the one whose rank 0 has the lower process number):
 * low_procs[i] is the process of rank i of the low group, high_procs[i] of the high
 * one.  Returns its number (>= 0, usable as comm above), or -1 if memory ran out. */
int pz_comsys_intercomm(struct pz_comsys *cs, int low_size, const int *low_procs,
                        int high_size, const int *high_procs);

/* Posts member c->me's part of a collective on communicator comm at `at` (members post
 * their instances on one communicator in the same order).  c's arrays are copied.  On
 * an intercommunicator c describes it as coll.h says, c->low naming the member's group;
 * every member of both groups posts each instance, MPI_PROC_NULL ones included.
 * Returns a request, or -1. */
int pz_comsys_collective(struct pz_comsys *cs, int comm, const struct pz_coll *c, double at);

/* One-sided operations (MPI_Put, MPI_Accumulate, MPI_Get and their kin), as MPICH's
 * ch4 moves them over a network with no remote memory access of its own: the origin's
 * process sends its data (Put) or a request for it (Get, whose data the target's
 * process sends back as soon as the request arrives) without the target's program
 * taking part, through the network like a message, with no receive to match and no
 * CPU overhead. */
enum pz_rma_kind {
    PZ_RMA_PUT,    /* bytes from the origin to the target (Put, Accumulate) */
    PZ_RMA_GET,    /* a request of no bytes to the target, then bytes back (Get) */
};

/* Posts a one-sided transfer of kind between processes origin and target at `at`.
 * Returns a request of the origin's, complete when the last byte has arrived (at the
 * target for a Put, back at the origin for a Get): the synchronization call that
 * completes the operation waits for it.  -1 if a process is out of range, memory ran
 * out or `at` is in the simulation's past. */
int pz_comsys_rma(struct pz_comsys *cs, enum pz_rma_kind kind, int origin, int target,
                  double bytes, double at);

/* pz_comsys_rma, the transfer starting at `at` or when request `after` (of the
 * origin's) completes, whichever is later; after < 0: at `at`. */
int pz_comsys_rma_after(struct pz_comsys *cs, enum pz_rma_kind kind, int origin, int target,
                        double bytes, double at, int after);

/* The signals of generalized active target synchronization (MPI_Win_post, MPI_Win_start,
 * MPI_Win_complete, MPI_Win_wait), as MPICH's ch4 sends them between the processes'
 * MPI libraries: a message of no bytes through the network, with no CPU overhead and
 * no receive of the program to match.  channel (0 to 2^30 - 1) tells kinds of signals
 * apart (a window's posts from its completions).  pz_comsys_signal sends one from
 * process `from` to `to` at `at`: a request, complete when it has arrived.
 * pz_comsys_signal_wait is process proc's wait, from `at`, for the next signal of
 * channel from process `from` that no earlier wait took: a request, complete when that
 * signal has arrived, at `at` if it had already.  -1 if a process or the channel is
 * out of range, memory ran out or `at` is in the simulation's past. */
int pz_comsys_signal(struct pz_comsys *cs, int from, int to, int channel, double at);
int pz_comsys_signal_wait(struct pz_comsys *cs, int proc, int from, int channel, double at);

/* pz_comsys_signal posted ahead of its time: the caller may still post operations of
 * other processes before `at` (a call's end, when the next operations of the others
 * are not posted yet); it leaves at `at`, after those. */
int pz_comsys_signal_ahead(struct pz_comsys *cs, int from, int to, int channel, double at);

/* Passive target locks (MPI_Win_lock, MPI_Win_unlock) as MPICH's ch4 keeps them at the
 * target: pz_comsys_lock sends origin's request for the lock of `channel` (a window;
 * >= 0) at target at `at`, a message of no bytes; the target grants the requests in
 * the order they arrive, each as soon as no other holder conflicts (shared locks
 * share, an exclusive one is alone), and the grant, of no bytes, travels back: the
 * request is complete when it arrives.  pz_comsys_unlock sends the release at `at`:
 * complete when it has arrived at the target, which frees the lock then; it is posted
 * ahead of its time as pz_comsys_signal_ahead is (an unlock's end).  No CPU
 * overhead.  -1 if a process is out of range, memory ran out or `at` is in the
 * simulation's past. */
int pz_comsys_lock(struct pz_comsys *cs, int origin, int target, int channel, int exclusive,
                   double at);
int pz_comsys_unlock(struct pz_comsys *cs, int origin, int target, int channel, double at);

/* Cancels an unmatched receive or send: it completes at once, at the time the
 * simulation has reached; a matched one is not affected. */
void pz_comsys_cancel(struct pz_comsys *cs, int request);

/* The process that owns request, complete, takes it at `at`: when it is done with it,
 * i.e. max(at, completion) and, for a receive that got a message, the receiver's
 * overhead after that and after the overheads the process took on before.  Call it
 * once per request, before releasing it. */
double pz_comsys_deliver(struct pz_comsys *cs, int request, double at);

/* When the overheads process proc has taken on so far end (0 if none). */
double pz_comsys_cpu_free(const struct pz_comsys *cs, int proc);

/* When request completes, or a negative value while that is not known yet. */
double pz_comsys_done(const struct pz_comsys *cs, int request);

/* Asks to be notified when request completes.  Returns its completion time when that
 * is known already (no notification follows), else -1. */
double pz_comsys_watch(struct pz_comsys *cs, int request);

/* The caller needs request no more: it is reused once it completes. */
void pz_comsys_release(struct pz_comsys *cs, int request);

/* Runs the simulation until the completion times of the n requests are known and
 * returns the latest of them and `at`; -1 if one can never complete (its partner was
 * never posted). */
double pz_comsys_wait(struct pz_comsys *cs, int n, const int *requests, double at);

/* The simulation's own events: the time of the next one (INFINITY if none), and
 * processing it.  A driver that posts operations itself (the replay engine) processes
 * the events due before each post. */
double pz_comsys_next(const struct pz_comsys *cs);
void pz_comsys_step(struct pz_comsys *cs);

/* The time the simulation has reached. */
double pz_comsys_now(const struct pz_comsys *cs);

/* Posted sends and receives whose partner was never posted, and collective parts still
 * waiting for members (a trace that cannot complete). */
int pz_comsys_pending(const struct pz_comsys *cs);

/* Messages sent so far, those of collectives' algorithms included. */
unsigned long long pz_comsys_messages(const struct pz_comsys *cs);

/* Set when memory ran out inside the simulation (its results are then incomplete). */
int pz_comsys_failed(const struct pz_comsys *cs);

#pragma GCC visibility pop

#endif
