/* What the Perfetto export's files share (perfetto.h): the JSON writer that counts what
 * it wrote and turns the trace's ticks into the timeline's microseconds
 * (perfetto_out.c), and the messages waiting for their other end (perfetto_flows.c). */
#ifndef PZ_PERFETTO_INT_H
#define PZ_PERFETTO_INT_H

#include <stdint.h>
#include <stdio.h>

#include "match.h"

/* --- the JSON file */

struct pz_pf_out {
    FILE *f;
    uint64_t bytes;          /* written so far */
    int events;              /* events written: a comma precedes every one after the first */
    double resolution;       /* the trace's ticks per second */
    uint64_t offset;         /* the tick of time 0: the clock's global offset */
    int failed;              /* a write failed */
};

void pz_pf_printf(struct pz_pf_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* s as a JSON string: quoted, '"' and '\\' escaped, control characters as \uXXXX. */
void pz_pf_string(struct pz_pf_out *o, const char *s);

/* The time of tick t in ns since the offset, rounded (a monotonic function of t, so
 * that a flow inside a call stays inside it). */
int64_t pz_pf_ns(const struct pz_pf_out *o, uint64_t t);

/* ns as microseconds with three decimals: exact, whatever its size. */
void pz_pf_us(struct pz_pf_out *o, int64_t ns);

/* Starts an event of phase ph on track (pid, tid) at ns: `{"ph":"X","pid":1,"tid":1,"ts":
 * 1.000`, after a comma and a newline when it is not the first; the caller adds its
 * fields and closes it with "}". */
void pz_pf_event(struct pz_pf_out *o, const char *ph, int pid, int tid, int64_t ns);

/* --- messages */

/* One end of a message: the track and time of the call that sent or received it. */
struct pz_pf_end {
    int pid, tid;
    int64_t ns;
};

/* The ends read whose other end is not read yet, matched as MPI matches messages
 * (model/match.h: the oldest of the same communicator, processes and tag). */
struct pz_pf_flows {
    struct pz_match match;
    struct pz_pf_end *ends;  /* an unmatched end is ends[its request] */
    int *next_free;          /* of each slot of ends: the next free one, or -1 */
    int nends, capends, free;
};

/* 0, or -1 if memory ran out. */
int pz_pf_flows_init(struct pz_pf_flows *fl, int nprocs);

/* The end `me` of a message of key (a send if is_send): 1 and the other end in
 * *partner if it was read already, else 0 (kept), or -1 if memory ran out. */
int pz_pf_flows_take(struct pz_pf_flows *fl, struct pz_match_key key, int is_send,
                     const struct pz_pf_end *me, struct pz_pf_end *partner);

/* Messages of which one end only was read. */
uint32_t pz_pf_flows_unmatched(const struct pz_pf_flows *fl);

void pz_pf_flows_release(struct pz_pf_flows *fl);

#endif
