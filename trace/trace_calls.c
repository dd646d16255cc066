/* The MPI calls of a thread's record stream. */
#include <stdlib.h>

#include "calls_gen.h"
#include "trace_calls.h"

size_t pz_call_length(struct pz_trace_in *t, int th, uint32_t region)
{
    const struct pz_rec *r;
    size_t i;

    for (i = 1; (r = pz_trace_in_peek(t, th, i)); i++)
        if (r->kind == PZ_REC_LEAVE && r->region == region)
            return i + 1;
    return i;
}

int pz_call_starts_mpi(const struct pz_region_info *call)
{
    return call->call == PZ_CALL_MPI_Init || call->call == PZ_CALL_MPI_Init_thread;
}

uint64_t pz_call_init_start(struct pz_trace_in *t)
{
    uint64_t latest = 0;

    for (int th = 0; th < pz_trace_in_nthreads(t); th++) {
        const struct pz_rec *first = pz_trace_in_peek(t, th, 0);

        if (first && first->kind == PZ_REC_ENTER &&
            pz_call_starts_mpi(pz_trace_in_region(t, first->region)) && first->time > latest)
            latest = first->time;
    }
    return latest;
}

/* The records searched one by one before the index of completions ahead is used: most
 * requests complete within a few calls of their post. */
#define NEAR_RECORDS 256

/* The search itself, records from..to-1 (to 0: to the end). */
static const struct pz_rec *search(struct pz_trace_in *t, int th, size_t from, size_t to,
                                   uint64_t id, enum pz_rec_kind a, enum pz_rec_kind b)
{
    const struct pz_rec *r;

    for (size_t i = from; (!to || i < to) && (r = pz_trace_in_peek(t, th, i)); i++)
        if ((r->kind == a || r->kind == b) && r->request == id)
            return r;
    return NULL;
}

const struct pz_rec *pz_call_completion(struct pz_trace_in *t, int th, size_t from,
                                        uint64_t id, enum pz_rec_kind a, enum pz_rec_kind b)
{
    const struct pz_rec *r = search(t, th, from, from + NEAR_RECORDS, id, a, b);
    int failed = 0;

    if (r || !pz_trace_in_peek(t, th, from + NEAR_RECORDS))
        return r;
    r = pz_trace_in_completion_ahead(t, th, from, id, (uint8_t)a, (uint8_t)b, &failed);
    return failed ? search(t, th, from, 0, id, a, b) : r;
}

int pz_call_process(const struct pz_trace_in *t, int p, uint32_t comm, uint32_t rank)
{
    return pz_comm_process(pz_trace_in_comm_def(t, comm), rank, p);
}

int pz_call_coll_op(uint8_t otf2_op, enum pz_coll_op *out)
{
    for (int op = 0; op < PZ_COLL_NKINDS; op++)
        if (pz_colls[op].otf2_op == otf2_op) {
            *out = pz_colls[op].predicted_as;
            return 0;
        }
    return -1;
}

int pz_call_counts(const char *s, double *v, int size)
{
    for (int i = 0; i < size; i++) {
        char *end;

        if (!s)
            return -1;
        v[i] = strtod(s, &end);
        if (end == s || (*end != ',' && *end != '\0') || (*end == '\0' && i + 1 < size))
            return -1;
        s = *end ? end + 1 : NULL;
    }
    return 0;
}
