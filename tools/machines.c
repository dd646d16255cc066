/* Machine files by path or by the name of a shipped one, so that
 * `prognoz predict DIR --machine gigabit-switch` works wherever prognoz is installed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machines.h"

#ifndef PZ_MACHINES_DIR
#define PZ_MACHINES_DIR "share/machines"
#endif

const char *pz_machines_dir(void)
{
    const char *dir = getenv("PROGNOZ_MACHINES");

    return dir && *dir ? dir : PZ_MACHINES_DIR;
}

/* The shipped machine named name, if there is one: its path in buf. */
static const char *shipped(const char *name, char *buf, size_t len)
{
    static const char *const forms[] = { "%s/%s", "%s/%s.conf" };

    if (strchr(name, '/') || access(name, F_OK) == 0)
        return NULL;
    for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
        if (snprintf(buf, len, forms[i], pz_machines_dir(), name) < (int)len &&
            access(buf, R_OK) == 0)
            return buf;
    return NULL;
}

int pz_load_machine(const char *what, struct pz_machine *m, char *err, size_t errlen)
{
    char path[4096];
    const char *named = shipped(what, path, sizeof(path));

    pz_machine_defaults(m);
    return pz_machine_load(named ? named : what, m, err, errlen);
}
