/* "--option=value" split in two (long_options.h). */
#define _XOPEN_SOURCE 700
#include <stdlib.h>
#include <string.h>

#include "long_options.h"

/* Whether arg is "--NAME=VALUE" with a NAME. */
static const char *equals_of(const char *arg)
{
    const char *eq = strchr(arg, '=');

    return arg[0] == '-' && arg[1] == '-' && eq && eq > arg + 2 ? eq : NULL;
}

char **pz_split_long_options(int argc, char **argv, int *out_argc)
{
    char **out = malloc((2 * (size_t)argc + 1) * sizeof(*out));
    int n = 0, options = 1;

    if (!out)
        return NULL;
    for (int i = 0; i < argc; i++) {
        const char *eq = options && i > 0 ? equals_of(argv[i]) : NULL;

        options &= strcmp(argv[i], "--") != 0;
        if (!eq) {
            out[n++] = argv[i];
            continue;
        }
        if (!(out[n++] = strndup(argv[i], (size_t)(eq - argv[i])))) {
            free(out);
            return NULL;
        }
        out[n++] = (char *)eq + 1;
    }
    out[n] = NULL;
    *out_argc = n;
    return out;
}
