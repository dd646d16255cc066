/* Call sites numbered in a hash of addresses, locked because every thread writes its
 * own buffer out; the program's call of a binding found by unwinding through the
 * bindings' code, with the compiler's unwinder (the .eh_frame of every object). */
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>

#include "callsite.h"
#include "sites.h"
#include "unify.h"

int pz_record_sites;
struct pz_sites_bindings pz_sites_bindings;

static uintptr_t *sites;               /* by local number */
static uint32_t nsites, sites_cap;
static uint32_t *slots, nslots;        /* local number + 1, 0 when empty */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t slot_of(uintptr_t site, uint32_t n)
{
    return (uint32_t)((site * 0x9E3779B97F4A7C15u) >> 40) & (n - 1);
}

static int grow(void)
{
    uint32_t n = nslots ? 2 * nslots : 1024, *fresh = calloc(n, sizeof(*fresh));
    uintptr_t *more = realloc(sites, (n / 2) * sizeof(*more));

    if (!fresh || !more) {
        free(fresh);
        if (more)
            sites = more;
        return -1;
    }
    sites = more;
    sites_cap = n / 2;
    for (uint32_t i = 0; i < nsites; i++) {
        uint32_t s = slot_of(sites[i], n);

        while (fresh[s])
            s = (s + 1) & (n - 1);
        fresh[s] = i + 1;
    }
    free(slots);
    slots = fresh;
    nslots = n;
    return 0;
}

uint32_t pz_sites_number(uintptr_t site)
{
    uint32_t s, number = UINT32_MAX;

    pthread_mutex_lock(&lock);
    if (nsites + 1 > sites_cap && grow() != 0)
        goto out;
    for (s = slot_of(site, nslots); slots[s]; s = (s + 1) & (nslots - 1)) {
        if (sites[slots[s] - 1] == site) {
            number = slots[s] - 1;
            goto out;
        }
    }
    sites[nsites] = site;
    slots[s] = nsites + 1;
    number = nsites++;
out:
    pthread_mutex_unlock(&lock);
    return number;
}

uint32_t pz_sites_count(void)
{
    return nsites;
}

void pz_sites_identities(struct pz_callsites *cs, struct pz_strings *list)
{
    for (uint32_t i = 0; i < nsites; i++)
        pz_intervals_add_identity(list, cs, sites[i], 0, 0);
}

int pz_sites_unify(MPI_Comm comm, uint32_t *map, struct pz_interval_def **all,
                   uint32_t *nall)
{
    struct pz_callsites *cs = pz_callsites_open();
    struct pz_strings list = { 0 };
    char **texts;
    int rc;

    pz_sites_identities(cs, &list);
    pz_callsites_close(cs);
    rc = pz_unify_strings(comm, list.text ? list.text : "", (int)list.len, list.n, map, &texts,
                          nall);
    *all = pz_intervals_parse(texts, *nall);
    pz_free_strings(texts, *nall);
    free(list.text);
    return rc;
}

/* MPI's libraries by the name of their file: what every MPI implementation names its C
 * library and its Fortran and C++ bindings. */
static int is_mpi_library(const char *path)
{
    const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;

    return strncmp(name, "libmpi", 6) == 0 || strncmp(name, "libpmpi", 7) == 0;
}

/* Nonzero if a loaded segment of the object holds ADDRESS. */
static int holds(const struct dl_phdr_info *info, uintptr_t address)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;

        if (ph->p_type == PT_LOAD && address >= start && address - start < ph->p_memsz)
            return 1;
    }
    return 0;
}

static void add_code_of(struct pz_sites_bindings *b, const struct dl_phdr_info *info)
{
    for (int i = 0; i < info->dlpi_phnum && b->n < PZ_SITES_MAX_RANGES; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr, end = start + ph->p_memsz;

        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        if (b->n == 0 || start < b->lo)
            b->lo = start;
        if (end > b->hi)
            b->hi = end;
        b->range[b->n].start = start;
        b->range[b->n++].end = end;
    }
}

/* dl_iterate_phdr's callback.  The program itself (the object without a name) is never
 * a binding, even when the recorder is linked into it. */
static int add_if_binding(struct dl_phdr_info *info, size_t size, void *data)
{
    const char *name = info->dlpi_name;

    (void)size;
    if (name && name[0]
        && (is_mpi_library(name) || holds(info, (uintptr_t)&add_if_binding)))
        add_code_of(data, info);
    return 0;
}

/* Fills pz_sites_bindings in place: nobody reads its ranges before ready is set. */
static void find_bindings(void)
{
    dl_iterate_phdr(add_if_binding, &pz_sites_bindings);
    __atomic_store_n(&pz_sites_bindings.ready, 1, __ATOMIC_RELEASE);
}

/* _Unwind_Backtrace's callback: stops at the first frame outside the bindings.  The
 * first frames are the recorder's own: pz_sites_unwind_bindings, then the wrapper. */
static _Unwind_Reason_Code stop_outside_bindings(struct _Unwind_Context *frame, void *site)
{
    uintptr_t ip = (uintptr_t)_Unwind_GetIP(frame);

    if (ip == 0 || pz_sites_in_binding(ip))
        return _URC_NO_REASON;
    *(uintptr_t *)site = ip;
    return _URC_END_OF_STACK;
}

__attribute__((noinline)) uintptr_t pz_sites_unwind_bindings(uintptr_t return_address)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    uintptr_t site = return_address;

    pthread_once(&once, find_bindings);
    if (pz_sites_in_binding(return_address))
        _Unwind_Backtrace(stop_outside_bindings, &site);
    return site;
}
