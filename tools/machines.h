/* Machine files by path or by the name of one prognoz ships. */
#ifndef PZ_TOOLS_MACHINES_H
#define PZ_TOOLS_MACHINES_H

#include <stddef.h>

#include "machine.h"

/* Loads the machine `what` into m (over the defaults): a file, or, when no such file
 * exists and `what` has no '/', the shipped machine of that name (NAME or NAME.conf in
 * $PROGNOZ_MACHINES, else in the installed share/prognoz/machines).  Returns 0, or -1
 * with a one-line message in err. */
int pz_load_machine(const char *what, struct pz_machine *m, char *err, size_t errlen);

/* The directory of the shipped machines. */
const char *pz_machines_dir(void);

#endif
