/* The memory a run of prognoz scale needs and the memory it may take (scale_memory.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "scale_memory.h"

uint64_t pz_scale_memory_needed(int nprocs)
{
    return nprocs > 0 ? (uint64_t)nprocs * PZ_SCALE_BYTES_PER_PROCESS : 0;
}

int pz_scale_meminfo_available(const char *text, uint64_t *bytes)
{
    static const char key[] = "MemAvailable:";

    const char *line = text;

    while (line && strncmp(line, key, sizeof(key) - 1) != 0)
        if ((line = strchr(line, '\n')))
            line++;
    if (line) {
        unsigned long long kib;
        char unit[4];

        if (sscanf(line + sizeof(key) - 1, "%llu %3s", &kib, unit) != 2 || strcmp(unit, "kB"))
            return -1;
        *bytes = (uint64_t)kib * 1024;
        return 0;
    }
    return -1;
}

void pz_scale_memory_bound(struct pz_scale_memory *m, uint64_t bytes, const char *source)
{
    if (bytes != UINT64_MAX && bytes < m->bytes) {
        m->bytes = bytes;
        m->source = source;
    }
}

/* Bounds m by the machine's available memory: MemAvailable (what can be had without
 * swapping, the page cache given back included), else the free pages. */
static void machine_available(struct pz_scale_memory *m)
{
    char text[8192];
    FILE *f = fopen("/proc/meminfo", "r");
    size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
    uint64_t bytes;
    long pages, size;

    if (f)
        fclose(f);
    text[n] = '\0';
    if (pz_scale_meminfo_available(text, &bytes) == 0) {
        pz_scale_memory_bound(m, bytes, "MemAvailable");
        return;
    }
    pages = sysconf(_SC_AVPHYS_PAGES);
    size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0)
        pz_scale_memory_bound(m, (uint64_t)pages * (uint64_t)size, "free pages");
}

/* A resource's soft limit in bytes, UINT64_MAX when unlimited or unknown. */
static uint64_t soft_limit(int resource)
{
    struct rlimit rl;

    if (getrlimit(resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return UINT64_MAX;
    return (uint64_t)rl.rlim_cur;
}

struct pz_scale_memory pz_scale_memory_available(void)
{
    struct pz_scale_memory m = { UINT64_MAX, NULL };

    machine_available(&m);
    pz_scale_memory_bound(&m, soft_limit(RLIMIT_AS), "ulimit -v");
    pz_scale_memory_bound(&m, soft_limit(RLIMIT_DATA), "ulimit -d");
    return m;
}

/* bytes in GiB with one decimal, or MiB below 1 GiB, into buf. */
static const char *human(uint64_t bytes, char *buf, size_t len)
{
    if (bytes >= (uint64_t)1 << 30)
        snprintf(buf, len, "%.1f GiB", (double)bytes / (double)((uint64_t)1 << 30));
    else
        snprintf(buf, len, "%.1f MiB", (double)bytes / (double)(1 << 20));
    return buf;
}

int pz_scale_memory_fits(int nprocs, const struct pz_scale_memory *m, char *msg, size_t len)
{
    uint64_t need = pz_scale_memory_needed(nprocs);
    char a[32], b[32];

    if (need <= m->bytes)
        return 1;
    snprintf(msg, len, "the run at %d processes needs about %s of memory (%u KiB a process), "
             "more than the %s available (%s)", nprocs, human(need, a, sizeof(a)),
             PZ_SCALE_BYTES_PER_PROCESS / 1024, human(m->bytes, b, sizeof(b)),
             m->source ? m->source : "no bound");
    return 0;
}
