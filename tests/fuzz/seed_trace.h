/* The small valid trace the definitions fuzz target and the regression test read a
 * traces.def into: written once per run by trace_builder.h, so that only the global
 * definitions vary from one input to the next. */
#ifndef PZ_FUZZ_SEED_TRACE_H
#define PZ_FUZZ_SEED_TRACE_H

#include <stddef.h>

/* Writes the seed trace into the existing directory dir: 0, or -1. */
int pz_fuzz_seed_trace(const char *dir);

/* Replaces dir/traces.def by the len bytes of data, then reads the trace's definitions
 * and analyzes it with pz_analyze; errors are expected and ignored.  0, or -1 if
 * traces.def cannot be written. */
int pz_fuzz_read_defs(const char *dir, const unsigned char *data, size_t len);

#endif
