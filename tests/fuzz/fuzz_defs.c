/* libFuzzer target: the input as the global definitions (traces.def) of the small valid
 * trace of seed_trace.h, written once into a temporary directory; each input replaces
 * traces.def, and the trace is then read and analyzed.  Reading changes none of the
 * trace's other files.  Errors are expected; a crash, a hang or a leak is a bug. */
#include <stdint.h>
#include <stdlib.h>

#include "seed_trace.h"
#include "trace_builder.h"

static char *dir;

static void remove_dir(void)
{
    tb_remove(dir);
    free(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    if (!(dir = tb_tempdir()) || pz_fuzz_seed_trace(dir) != 0)
        abort();
    atexit(remove_dir);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (pz_fuzz_read_defs(dir, data, size) != 0)
        abort();
    return 0;
}
