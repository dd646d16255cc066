/* What the analyzer's and the predictor's benchmarks both read of a trace before their
 * bare OTF2 read: the reader, and the locations with the events the definitions
 * announce. */
#ifndef PZ_BENCH_LOCATIONS_H
#define PZ_BENCH_LOCATIONS_H

#include <stdint.h>
#include <otf2/otf2.h>

struct locations {
    OTF2_LocationRef *id;
    uint64_t n, cap, events;
};

/* An OTF2 reader of the anchor file with serial collective callbacks; NULL if it
 * cannot be opened. */
OTF2_Reader *open_trace(const char *anchor);

/* The locations of the trace from its global definitions; -1 if it cannot be read. */
int read_locations(OTF2_Reader *otf, struct locations *l);

/* Events the definitions announce; 0 if the trace cannot be read. */
uint64_t announced_events(const char *anchor);

#endif
