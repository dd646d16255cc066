/* The fuzz targets' inputs through the normal build: every machine file of
 * fuzz/corpus/machine and fuzz/regressions/machine read by pz_machine_load, and every
 * traces.def of fuzz/corpus/defs and fuzz/regressions/defs read and analyzed as the
 * global definitions of the seed trace (fuzz/seed_trace.h).  An input that once
 * crashed, hung or leaked must now be read to the end: an error is fine, a crash or a
 * timeout fails the test. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "seed_trace.h"
#include "trace_builder.h"

typedef void read_input(const char *path);

/* Calls read on every file of PZ_FUZZ_DIR/sub/kind; the number of files. */
static int each_input(const char *sub, const char *kind, read_input *read)
{
    char dir[4096], path[8192];
    struct dirent *e;
    DIR *d;
    int n = 0;

    snprintf(dir, sizeof(dir), "%s/%s/%s", PZ_FUZZ_DIR, sub, kind);
    if (!(d = opendir(dir)))
        return 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        read(path);
        n++;
    }
    closedir(d);
    return n;
}

static void load_machine(const char *path)
{
    struct pz_machine m;
    char err[1024] = "";

    pz_machine_defaults(&m);
    if (pz_machine_load(path, &m, err, sizeof(err)) != 0)
        cr_expect_neq(err[0], '\0', "%s: refused without a message", path);
    pz_machine_release(&m);
}

Test(fuzz_regressions, machine_files, .timeout = 60)
{
    int n = each_input("corpus", "machine", load_machine);

    n += each_input("regressions", "machine", load_machine);
    cr_assert_gt(n, 0, "no machine input under %s", PZ_FUZZ_DIR);
}

static char *trace_dir;

static void read_defs(const char *path)
{
    unsigned char data[1 << 16];
    FILE *f = fopen(path, "rb");
    size_t len;

    cr_assert_not_null(f, "cannot open %s", path);
    len = fread(data, 1, sizeof(data), f);
    fclose(f);
    cr_assert_eq(pz_fuzz_read_defs(trace_dir, data, len), 0,
                 "cannot write %s's bytes as %s/traces.def", path, trace_dir);
}

static void remove_trace(void)
{
    if (trace_dir)
        tb_remove(trace_dir);
    free(trace_dir);
}

Test(fuzz_regressions, trace_definitions, .fini = remove_trace, .timeout = 120)
{
    int n;

    trace_dir = tb_tempdir();
    cr_assert_not_null(trace_dir, "cannot make a temporary directory");
    cr_assert_eq(pz_fuzz_seed_trace(trace_dir), 0, "cannot write the seed trace");
    n = each_input("corpus", "defs", read_defs);
    n += each_input("regressions", "defs", read_defs);
    cr_assert_gt(n, 0, "no traces.def input under %s", PZ_FUZZ_DIR);
}
