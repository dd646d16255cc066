/* An index of the records that complete requests far ahead in each thread's stream
 * (trace_calls.h's pz_call_completion): a program that posts thousands of receives
 * before completing them would otherwise have each post's completion searched for
 * through the thousands of calls between, the replay quadratic in the requests
 * outstanding.  Internal to the trace layer. */
#ifndef PZ_TRACE_AHEAD_H
#define PZ_TRACE_AHEAD_H

#include <stddef.h>
#include <stdint.h>

#include "trace_in.h"

struct pz_ahead;

/* An empty index of nthreads threads; NULL without memory. */
struct pz_ahead *pz_ahead_new(int nthreads);
void pz_ahead_free(struct pz_ahead *x);

/* Thread th's stream dropped n records (pz_trace_in_consume). */
void pz_ahead_consumed(struct pz_ahead *x, int th, size_t n);

/* What pz_call_completion returns, the first record of thread th `from` or more places
 * ahead of kind a or b that completes request id, found through the index: each record
 * of kind a or b passed on the way is indexed by its request, for the lookups after.
 * *failed is set (and NULL returned) if memory ran out; the caller then searches. */
const struct pz_rec *pz_ahead_find(struct pz_ahead *x, struct pz_trace_in *t, int th,
                                   size_t from, uint64_t id, uint8_t a, uint8_t b,
                                   int *failed);

#endif
