/* Call sites to source file and line: return addresses captured here, whose lines are
 * known from __LINE__, in libc, in the vDSO and nowhere; and, through the helper
 * callsite_probe, in a non-PIE executable, in one without debug information, in one
 * whose debug information is a separate file, and the cost of a few thousand
 * addresses. */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "callsite.h"

struct site {
    uintptr_t return_address;
    unsigned line;
};

static volatile uintptr_t captured;

/* A real call (noinline) of this very function (noclone): its return address lies in
 * the caller, after the call instruction. */
__attribute__((noinline, noclone)) static void capture(void)
{
    captured = (uintptr_t)__builtin_return_address(0);
}

/* The call ends its line: the return address is the first instruction of the next line,
 * the byte before it the call.  Reading `captured` after the call keeps the call from
 * becoming a jump (tail call). */
__attribute__((noinline, noclone)) static struct site call_here(void)
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

__attribute__((noinline, noclone)) static struct site call_inlined(void)
{
    unsigned line = inlined_capture();

    return (struct site){ captured, line };
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');

    return slash ? slash + 1 : path;
}

static void assert_unknown(struct pz_callsites *cs, uintptr_t address)
{
    struct pz_source_loc loc = { "stale", 7, "stale" };

    cr_assert_eq(pz_callsites_resolve(cs, address, &loc), -1, "address %#lx",
                 (unsigned long)address);
    cr_assert_str_eq(loc.file, "??");
    cr_assert_eq(loc.line, 0);
    cr_assert_null(loc.function);
}

Test(callsite, a_call_in_this_file_is_its_line)
{
    struct site s = call_here();
    struct pz_callsites *cs = pz_callsites_open();
    struct pz_source_loc loc;

    cr_assert_not_null(cs);
    cr_assert_eq(pz_callsites_resolve(cs, s.return_address, &loc), 0);
    cr_assert_str_eq(base_name(loc.file), base_name(__FILE__));
    cr_assert_eq(loc.line, s.line);
    cr_assert_str_eq(loc.function, "call_here");
    pz_callsites_close(cs);
}

Test(callsite, inlined_code_gives_the_line_of_the_call_and_the_function_it_is_in)
{
    struct site s = call_inlined();
    struct pz_callsites *cs = pz_callsites_open();
    struct pz_source_loc loc;

    cr_assert_eq(pz_callsites_resolve(cs, s.return_address, &loc), 0);
    cr_assert_str_eq(base_name(loc.file), base_name(__FILE__));
    cr_assert_eq(loc.line, s.line, "the line inside inlined_capture");
    cr_assert_str_eq(loc.function, "call_inlined");
    pz_callsites_close(cs);
}

/* With libc's debug information installed (libc6-dbg) the line in glibc's sources,
 * otherwise libc's path, which dladdr tells independently. */
Test(callsite, an_address_in_libc_is_in_libc)
{
    int (*volatile fn)(const char *, ...) = printf;
    struct pz_callsites *cs = pz_callsites_open();
    struct pz_source_loc loc;
    Dl_info info;

    cr_assert(dladdr((void *)fn, &info) && info.dli_fname);
    cr_assert(strstr(base_name(info.dli_fname), "libc.so"), "printf in %s", info.dli_fname);
    cr_assert_eq(pz_callsites_resolve(cs, (uintptr_t)fn + 4, &loc), 0);
    cr_assert_str_eq(loc.function, "printf", "not an alias such as _IO_printf");
    if (loc.line == 0)
        cr_assert_str_eq(base_name(loc.file), base_name(info.dli_fname));
    else
        cr_assert_str_eq(base_name(loc.file), "printf.c");
    pz_callsites_close(cs);
}

/* The vDSO has neither a file nor debug information: its name from the load map. */
Test(callsite, an_object_without_debug_information_is_named_by_its_path)
{
    uintptr_t vdso = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
    struct pz_callsites *cs;
    struct pz_source_loc loc;

    if (!vdso)
        cr_skip_test("no vDSO (under valgrind, for one)");
    cs = pz_callsites_open();
    cr_assert_eq(pz_callsites_resolve(cs, vdso + 16, &loc), 0);
    cr_assert_str_eq(loc.file, "[vdso]");
    cr_assert_eq(loc.line, 0);
    pz_callsites_close(cs);
}

Test(callsite, addresses_outside_every_object_are_unknown)
{
    int on_stack;
    char *on_heap = malloc(64);
    struct pz_callsites *cs = pz_callsites_open();

    assert_unknown(cs, 0);
    assert_unknown(cs, 1);
    assert_unknown(cs, (uintptr_t)&on_stack);
    assert_unknown(cs, (uintptr_t)on_heap);
    assert_unknown(cs, UINTPTR_MAX);
    assert_unknown(NULL, call_here().return_address);
    pz_callsites_close(cs);
    pz_callsites_close(NULL);
    free(on_heap);
}

Test(callsite, strings_stay_valid_until_close)
{
    struct site s = call_here();
    struct pz_callsites *cs = pz_callsites_open();
    struct pz_source_loc first, other;
    char file[PATH_MAX];

    pz_callsites_resolve(cs, s.return_address, &first);
    cr_assert_lt(snprintf(file, sizeof(file), "%s", first.file), (int)sizeof(file));
    pz_callsites_resolve(cs, (uintptr_t)&printf + 4, &other);
    pz_callsites_resolve(cs, call_inlined().return_address, &other);
    pz_callsites_resolve(cs, 0, &other);
    cr_assert_str_eq(first.file, file);
    cr_assert_str_eq(first.function, "call_here");
    pz_callsites_close(cs);
}

/* libdw must not write to the program's stderr, also where it finds no debug
 * information (the vDSO, objects without it) or no object. */
Test(callsite, nothing_is_written_on_stderr)
{
    FILE *sink = tmpfile();
    int saved = dup(2);
    struct stat written;
    struct pz_source_loc loc;
    struct pz_callsites *cs;

    cr_assert(sink && saved >= 0);
    fflush(stderr);
    dup2(fileno(sink), 2);
    cs = pz_callsites_open();
    pz_callsites_resolve(cs, call_here().return_address, &loc);
    pz_callsites_resolve(cs, (uintptr_t)&printf + 4, &loc);
    pz_callsites_resolve(cs, (uintptr_t)getauxval(AT_SYSINFO_EHDR) + 16, &loc);
    pz_callsites_resolve(cs, (uintptr_t)&loc, &loc);
    pz_callsites_close(cs);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    cr_assert_eq(fstat(fileno(sink), &written), 0);
    cr_assert_eq(written.st_size, 0, "libdw wrote on stderr");
    fclose(sink);
}

/* The helpers are built next to this program (tests/unit/). */
static void helper_path(const char *name, char *path, size_t size)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    char *slash;

    cr_assert(n > 0);
    self[n] = '\0';
    slash = strrchr(self, '/');
    *slash = '\0';
    cr_assert_lt(snprintf(path, size, "%s/%s", self, name), (int)size);
}

struct probe_line {
    unsigned expected, line;
    int rc;
    char function[256], file[PATH_MAX];
};

/* Runs a helper without arguments and reads its two lines: a plain call, an inlined one. */
static void run_probe(const char *name, char *path, size_t size, struct probe_line out[2])
{
    char command[PATH_MAX + 16];
    FILE *p;

    helper_path(name, path, size);
    cr_assert_lt(snprintf(command, sizeof(command), "'%s' 2>&1", path), (int)sizeof(command));
    p = popen(command, "r");
    cr_assert_not_null(p);
    for (int i = 0; i < 2; i++)
        cr_assert_eq(fscanf(p, "%u\t%d\t%u\t%255[^\t]\t%4095[^\n]\n", &out[i].expected,
                            &out[i].rc, &out[i].line, out[i].function, out[i].file), 5,
                     "line %d of %s", i + 1, name);
    cr_assert_eq(fgetc(p), EOF, "%s says more than two lines", name);
    cr_assert_eq(pclose(p), 0, "%s failed", name);
}

Test(callsite, a_non_pie_executable_is_resolved_like_a_pie_one)
{
    char path[PATH_MAX];
    struct probe_line l[2];

    run_probe("callsite_probe_nopie", path, sizeof(path), l);
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(l[i].rc, 0);
        cr_assert_str_eq(base_name(l[i].file), "callsite_probe.c");
        cr_assert_eq(l[i].line, l[i].expected, "call %d", i + 1);
    }
    cr_assert_str_eq(l[0].function, "probe_plain");
    cr_assert_str_eq(l[1].function, "probe_inlined");
}

/* Debug information stripped, symbol table kept: the executable's path, line 0, and
 * still the function. */
Test(callsite, an_executable_without_debug_information_gives_its_path)
{
    char path[PATH_MAX], real[PATH_MAX];
    struct probe_line l[2];

    run_probe("callsite_probe_stripped", path, sizeof(path), l);
    cr_assert_not_null(realpath(path, real));
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(l[i].rc, 0);
        cr_assert_str_eq(l[i].file, real);
        cr_assert_eq(l[i].line, 0);
    }
    cr_assert_str_eq(l[0].function, "probe_plain");
    cr_assert_str_eq(l[1].function, "probe_inlined");
}

/* Debug information in a separate file that the executable's .gnu_debuglink names, in
 * the same directory (objcopy --only-keep-debug): lines as if it were inside. */
Test(callsite, a_separate_debug_file_is_found_by_its_debuglink)
{
    char path[PATH_MAX];
    struct probe_line l[2];

    run_probe("callsite_probe_split", path, sizeof(path), l);
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(l[i].rc, 0);
        cr_assert_str_eq(base_name(l[i].file), "callsite_probe.c");
        cr_assert_eq(l[i].line, l[i].expected, "call %d", i + 1);
    }
    cr_assert_str_eq(l[0].function, "probe_plain");
}

/* Every address in some object's code is known, 5000 of them, from reading the load map
 * to freeing everything (how long it takes is the benchmark's to measure, not a test's:
 * the time is only logged). */
Test(callsite, thousands_of_addresses_are_all_known)
{
    char path[PATH_MAX], command[PATH_MAX + 16];
    size_t n, known, with_line;
    double ms;
    FILE *p;

    helper_path("callsite_probe", path, sizeof(path));
    cr_assert_lt(snprintf(command, sizeof(command), "'%s' bench 5000", path),
                 (int)sizeof(command));
    p = popen(command, "r");
    cr_assert_not_null(p);
    cr_assert_eq(fscanf(p, "%zu %zu %zu %lf", &n, &known, &with_line, &ms), 4);
    cr_assert_eq(pclose(p), 0);
    cr_assert_eq(n, 5000);
    cr_assert_eq(known, n, "addresses in code but not in any module: %zu", n - known);
    cr_assert_gt(with_line, 0);
    cr_log_info("%zu addresses (%zu with a line) in %.1f ms", n, with_line, ms);
}
