/* The memory a run of prognoz scale needs, estimated before it starts, against the
 * memory it may take: a count whose synthesis and replay cannot fit is refused at once
 * with one line, instead of running until the machine's memory is exhausted. */
#ifndef PZ_SCALE_MEMORY_H
#define PZ_SCALE_MEMORY_H

#include <stddef.h>
#include <stdint.h>

/* The bytes a process of a synthesized run takes while it is replayed and analysed
 * (its cursor, the engine's state, its records queued for the analysis and its
 * statistics): measured 31 to 58 KiB at 4096 and 16384 processes (bench/README.md,
 * "Memory"), taken with headroom. */
#define PZ_SCALE_BYTES_PER_PROCESS (64u * 1024u)

/* The memory the run at nprocs processes needs, in bytes: nprocs times
 * PZ_SCALE_BYTES_PER_PROCESS. */
uint64_t pz_scale_memory_needed(int nprocs);

/* The memory a run may take: its bytes and where that bound comes from
 * ("MemAvailable", "free pages", "ulimit -v", "ulimit -d"); bytes UINT64_MAX with
 * source NULL when nothing bounds it. */
struct pz_scale_memory {
    uint64_t bytes;
    const char *source;
};

/* The MemAvailable line of /proc/meminfo's text ("MemAvailable:  22000000 kB"), in
 * bytes into *bytes: 0, or -1 when the text has no such line. */
int pz_scale_meminfo_available(const char *text, uint64_t *bytes);

/* Lowers *m to bytes, from source, when bytes is smaller; UINT64_MAX (no limit) leaves
 * it as it is. */
void pz_scale_memory_bound(struct pz_scale_memory *m, uint64_t bytes, const char *source);

/* The memory this process may take now: the machine's available memory (MemAvailable
 * of /proc/meminfo, else the free pages sysconf counts) and the soft limits of its
 * address space and data (RLIMIT_AS, RLIMIT_DATA), the smallest. */
struct pz_scale_memory pz_scale_memory_available(void);

/* Whether the run at nprocs processes fits in m: 1, or 0 with one line in msg naming
 * the count, the estimate and the memory available, e.g. "the run at 4194304
 * processes needs about 256.0 GiB of memory (64 KiB a process), more than the 21.0 GiB
 * available (MemAvailable)". */
int pz_scale_memory_fits(int nprocs, const struct pz_scale_memory *m, char *msg, size_t len);

#endif
