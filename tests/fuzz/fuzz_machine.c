/* libFuzzer target: the input as a machine file, read by pz_machine_load (which takes a
 * path, so the input goes to a file of a temporary directory first) and, once read,
 * written back.  Errors are expected; a crash, a hang or a leak is a bug. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "machine.h"

static char dir[] = "/tmp/pz-fuzz-machine-XXXXXX";
static char path[sizeof(dir) + 16];
static FILE *devnull;

static void remove_dir(void)
{
    unlink(path);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    if (!mkdtemp(dir) || !(devnull = fopen("/dev/null", "w")))
        abort();
    atexit(remove_dir);
    snprintf(path, sizeof(path), "%s/fuzz.conf", dir);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct pz_machine m;
    char err[1024];
    FILE *f = fopen(path, "wb");

    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    pz_machine_defaults(&m);
    if (pz_machine_load(path, &m, err, sizeof(err)) == 0)
        pz_machine_write(devnull, &m);
    pz_machine_release(&m);
    return 0;
}
