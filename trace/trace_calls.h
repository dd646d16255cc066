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
