/* Helper of test_callsite: resolves call sites of its own, so that the test can see how
 * the resolver does in executables built otherwise than the test itself (non-PIE,
 * stripped of debug information), and what it costs.
 *
 *   callsite_probe          one line per call site:
 *                           "EXPECTED_LINE<TAB>RC<TAB>LINE<TAB>FUNCTION<TAB>FILE"
 *                           (FUNCTION "-" when unknown); first a plain call, then a call
 *                           from a function inlined into probe_inlined
 *   callsite_probe bench N  resolves N addresses spread evenly over the code of every
 *                           loaded object and prints "N KNOWN WITH_LINE MILLISECONDS"
 *                           (open, resolve, close) */
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "callsite.h"

struct site {
    uintptr_t return_address;
    unsigned line;
};

static volatile uintptr_t captured;

/* A real call (noinline), of this very function (noclone): its return address lies in
 * the caller, after the call instruction. */
__attribute__((noinline, noclone)) static void capture(void)
{
    captured = (uintptr_t)__builtin_return_address(0);
}

/* The call ends its line: the return address is the first instruction of the next line,
 * the byte before it the call.  Reading `captured` after the call keeps the call from
 * becoming a jump (tail call). */
__attribute__((noinline, noclone)) static struct site probe_plain(void)
{
    struct site s = { 0, __LINE__ + 1 };
    capture();
    s.return_address = captured;
    return s;
}

static inline __attribute__((always_inline)) unsigned inlined_capture(void)
{
    capture();
    return __LINE__ - 1;
}

__attribute__((noinline, noclone)) static struct site probe_inlined(void)
{
    unsigned line = inlined_capture();

    return (struct site){ captured, line };
}

static void print_site(struct pz_callsites *cs, struct site s)
{
    struct pz_source_loc loc;
    int rc = pz_callsites_resolve(cs, s.return_address, &loc);

    printf("%u\t%d\t%u\t%s\t%s\n", s.line, rc, loc.line, loc.function ? loc.function : "-",
           loc.file);
}

static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

struct segments {
    uintptr_t start[256], size[256];
    size_t n, total;
};

/* The executable segments of every object, the vDSO included. */
static int add_code(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct segments *s = arg;

    (void)size;
    for (int i = 0; i < info->dlpi_phnum && s->n < 256; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || ph->p_memsz == 0)
            continue;
        s->start[s->n] = info->dlpi_addr + ph->p_vaddr;
        s->size[s->n] = ph->p_memsz;
        s->total += ph->p_memsz;
        s->n++;
    }
    return 0;
}

/* Address number k of n, spread evenly over the segments' bytes. */
static uintptr_t spread(const struct segments *s, size_t k, size_t n)
{
    size_t offset = (size_t)((double)k / (double)n * (double)s->total);

    for (size_t i = 0; i < s->n; i++) {
        if (offset < s->size[i])
            return s->start[i] + offset;
        offset -= s->size[i];
    }
    return s->start[0];
}

static int bench(size_t n)
{
    static struct segments code;
    size_t known = 0, with_line = 0;
    double t0 = now_ms();
    struct pz_callsites *cs = pz_callsites_open();

    if (!cs)
        return 1;
    dl_iterate_phdr(add_code, &code);
    for (size_t k = 0; k < n; k++) {
        struct pz_source_loc loc;

        /* + 1: the resolver looks at the byte before a return address */
        known += pz_callsites_resolve(cs, spread(&code, k, n) + 1, &loc) == 0;
        with_line += loc.line > 0;
    }
    pz_callsites_close(cs);
    printf("%zu %zu %zu %.1f\n", n, known, with_line, now_ms() - t0);
    return 0;
}

int main(int argc, char **argv)
{
    struct pz_callsites *cs;
    struct site plain, inlined;

    if (argc == 3 && !strcmp(argv[1], "bench"))
        return bench(strtoul(argv[2], NULL, 10));
    plain = probe_plain();
    inlined = probe_inlined();
    cs = pz_callsites_open();
    if (!cs)
        return 1;
    print_site(cs, plain);
    print_site(cs, inlined);
    pz_callsites_close(cs);
    return 0;
}
