/* What the replay and the SimGrid export both need to know about the MPI calls of a
 * thread's record stream (trace_in.h): where a call ends, which later record completes
 * a request, the process behind a communicator's rank, the collective a record describes
 * and its per-rank counts. */
#ifndef PZ_TRACE_CALLS_H
#define PZ_TRACE_CALLS_H

#include <stddef.h>
#include <stdint.h>

#include "coll.h"
#include "trace_in.h"

/* Records of the call whose Enter (of region) is thread th's next record, to its Leave
 * included; the rest of the stream if the trace was cut. */
size_t pz_call_length(struct pz_trace_in *t, int th, uint32_t region);

/* Whether call is MPI_Init or MPI_Init_thread, which a prediction (the replay and the
 * SimGrid export) makes instantaneous, every process leaving it at once at the latest
 * start of any (pz_call_init_start): its recorded time is the process manager's start
 * and the recorder's own, which say nothing of the machine predicted, and MPICH's
 * MPI_Init ends in its process manager's barrier; so a predicted run is the program
 * from the end of MPI_Init, the span a user times. */
int pz_call_starts_mpi(const struct pz_region_info *call);

/* The latest Enter of MPI_Init among the threads whose first record is one, 0 if none
 * is: the time at which a prediction makes every process leave MPI_Init at once. */
uint64_t pz_call_init_start(struct pz_trace_in *t);

/* The record of thread th, `from` records ahead or further, that completes request id
 * with kind a or b; NULL if the trace never completes it. */
const struct pz_rec *pz_call_completion(struct pz_trace_in *t, int th, size_t from,
                                        uint64_t id, enum pz_rec_kind a, enum pz_rec_kind b);

/* The process behind rank `rank` of communicator comm, as process p (whichever of its
 * threads calls) sees it (defs.h's pz_comm_process): p itself as rank 0 of
 * MPI_COMM_SELF, a process of the other group on an intercommunicator; -1 if the
 * communicator or the rank is not defined. */
int pz_call_process(const struct pz_trace_in *t, int p, uint32_t comm, uint32_t rank);

/* The collective the model predicts an OTF2 collective operation as (Alltoallw as
 * Alltoallv: calls_gen.h's pz_colls); -1 for the operations that are not collectives of
 * data (handles, windows). */
int pz_call_coll_op(uint8_t otf2_op, enum pz_coll_op *out);

/* "8,16,24" (prognoz:send_bytes, recv_bytes): the bytes of each of size ranks into v;
 * 0, or -1 if s is NULL or not such a list. */
int pz_call_counts(const char *s, double *v, int size);

#endif
