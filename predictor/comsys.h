/* A model of MPI point-to-point communication on a machine, usable on its own: post
 * sends and receives with the times the processes post them, and learn when each
 * completes.  The replay engine drives it from a trace; a program can drive it with no
 * trace at all (share/examples/comsys.c).  Protocols as MPICH implements them:
 *
 *   eager (bytes <= eager_threshold): the data leaves at the send's post; the send
 *     completes at once, the receive when both the data has arrived and it was posted;
 *   rendezvous (larger, and every synchronous send): a request-to-send (no payload)
 *     goes at the send's post; when the receive is posted and the request has arrived,
 *     a clear-to-send goes back; the data leaves when that arrives; both complete when
 *     the data has arrived.
 *
 * Messages from one sender to one receiver with one tag and communicator are matched in
 * the order they were posted; a wildcard receive is given the source the trace records. */
#ifndef PZ_COMSYS_H
#define PZ_COMSYS_H

#include "machine.h"

struct pz_comsys;

/* A communication system for nprocs processes on machine m (kept by reference);
 * NULL if memory ran out. */
struct pz_comsys *pz_comsys_new(const struct pz_machine *m, int nprocs);
void pz_comsys_free(struct pz_comsys *cs);

/* Posts a send of bytes from src to dst at time `at`; synchronous forces rendezvous.
 * Returns a request number (>= 0), or -1 if memory ran out. */
int pz_comsys_send(struct pz_comsys *cs, int src, int dst, int tag, int comm, double bytes,
                   int synchronous, double at);

/* Posts the receive by dst of the next message from src with tag on comm at `at`. */
int pz_comsys_recv(struct pz_comsys *cs, int dst, int src, int tag, int comm, double at);

/* When request completes; a negative value while it cannot be known yet (its partner
 * is not posted). */
double pz_comsys_done(const struct pz_comsys *cs, int request);

/* Requests whose partner was never posted (a trace that cannot complete). */
int pz_comsys_pending(const struct pz_comsys *cs);

#endif
