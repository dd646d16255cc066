/* Outstanding requests: what a nonblocking operation was, kept from its post to its
 * completion so that the completing wait or test can record it. */
#ifndef PZ_REQUESTS_H
#define PZ_REQUESTS_H

#include <mpi.h>
#include <stdint.h>

/* PZ_REQ_IO: a nonblocking MPI-IO operation, comm its local handle reference
 * (handles.h); PZ_REQ_RMA: a request-based one-sided operation (MPI_Rput...), comm
 * its local window reference. */
enum pz_request_kind { PZ_REQ_SEND, PZ_REQ_RECV, PZ_REQ_COLL, PZ_REQ_IO, PZ_REQ_RMA };

/* The halves of an MPI_Isendrecv, posted under one handle: the send, whose completion
 * is followed by that of the handle's next request, the receive.  MPICH completes it as
 * a schedule and leaves the status alone: the receive's source, tag and size are those
 * it was posted with (the status's only for MPI_ANY_SOURCE and MPI_ANY_TAG). */
enum pz_pair { PZ_PAIR_NONE, PZ_PAIR_SEND, PZ_PAIR_RECV };

struct pz_request {
    uint64_t id;               /* request id in the trace, new for every activation */
    uint8_t kind;              /* enum pz_request_kind */
    uint8_t persistent;
    uint8_t active;            /* a persistent request between Start and completion */
    uint8_t cancelled;         /* MPI_Cancel was called on it */
    uint8_t collective;        /* enum pz_coll_op */
    uint8_t pair;              /* PZ_PAIR_*: a half of MPI_Isendrecv */
    uint32_t comm;             /* local communicator reference */
    int32_t peer, tag;         /* destination or source as posted, tag as posted */
    uint64_t bytes, bytes_received;
    uint32_t send_counts, recv_counts;   /* per-peer byte lists of v collectives */
};

/* The requests one thread posted; created with the thread (thread.h). */
struct pz_request_table;

struct pz_request_table *pz_request_table_new(void);

/* Where the program holds the handles it passes to a wait, test, start, cancel or free
 * call: the call's array of n request variables (for a call of one request, its
 * variable, n = 1), and the handles they held when the call began (MPI overwrites
 * those it completes).  Slot i of the call is at[i]. */
struct pz_request_slots {
    const MPI_Request *at;
    const MPI_Request *handles;
    int n;
};

/* Each function below looks in the table own of the calling thread first, then in the
 * other threads' tables.  Under MPI_THREAD_MULTIPLE the tables are locked.
 *
 * A request is kept under its handle and the address of the program's variable it was
 * posted with (the request argument of MPI_Isend, MPI_Send_init...): MPI gives one
 * handle to several requests (MPICH: every send that completed at once, and every send
 * to MPI_PROC_NULL, which is not recorded), and the variable tells them apart.  Slot i
 * of a call takes, among the requests of its handle, the oldest posted at at[i]; if
 * there is none, the oldest that no other slot of the call holding the same handle
 * claims as the oldest posted at its own variable (so a program that copied its
 * handles into another array completes them oldest first). */

/* Remembers r, posted with the program's variable request, which holds its handle, in
 * own, after the requests the handle already stands for. */
void pz_requests_add(struct pz_request_table *own, const MPI_Request *request,
                     const struct pz_request *r);

/* A nonblocking operation r posted with variable request by own's thread (the caller):
 * gives r a new request id of this process, makes it active and adds it to own. */
void pz_requests_post(struct pz_request_table *own, const MPI_Request *request,
                      struct pz_request *r);

/* Looks slot i of s up: 1 and *out (its request) if it is known and active, else 0. */
int pz_requests_find(struct pz_request_table *own, const struct pz_request_slots *s, int i,
                     struct pz_request *out);

/* Completion of slot i of s: like pz_requests_find, and then forgets a nonpersistent
 * request and makes a persistent one inactive. */
int pz_requests_complete(struct pz_request_table *own, const struct pz_request_slots *s,
                         int i, struct pz_request *out);

/* Start of the persistent request of slot i of s: makes it active under a new id; 1 and
 * *out if known. */
int pz_requests_start(struct pz_request_table *own, const struct pz_request_slots *s, int i,
                      struct pz_request *out);

/* MPI_Cancel on slot i of s. */
void pz_requests_cancel(struct pz_request_table *own, const struct pz_request_slots *s, int i);

/* MPI_Request_free on slot i of s. */
void pz_requests_remove(struct pz_request_table *own, const struct pz_request_slots *s, int i);

#endif
