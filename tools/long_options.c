/* "--option=value" split in two (long_options.h). */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "long_options.h"

/* Whether arg is "--NAME=VALUE" with a NAME. */
static const char *equals_of(const char *arg)
{
    const char *eq = strchr(arg, '=');

    return arg[0] == '-' && arg[1] == '-' && eq && eq > arg + 2 ? eq : NULL;
}

/* The last split: each argument made, and for the "=VALUE" ones the option before. */
static char **split;
static const char **option_of;
static int nsplit;

char **pz_split_long_options(int argc, char **argv, int *out_argc)
{
    char **out = malloc((2 * (size_t)argc + 1) * sizeof(*out));
    const char **options_of = calloc(2 * (size_t)argc + 1, sizeof(*options_of));
    int n = 0, options = 1;

    if (!out || !options_of) {
        free(out);
        free(options_of);
        return NULL;
    }
    for (int i = 0; i < argc; i++) {
        const char *eq = options && i > 0 ? equals_of(argv[i]) : NULL;

        options &= strcmp(argv[i], "--") != 0;
        if (!eq) {
            out[n++] = argv[i];
            continue;
        }
        if (!(out[n++] = strndup(argv[i], (size_t)(eq - argv[i])))) {
            free(out);
            free(options_of);
            return NULL;
        }
        options_of[n] = out[n - 1];
        out[n++] = (char *)eq + 1;
    }
    out[n] = NULL;
    *out_argc = n;
    split = out;
    option_of = options_of;
    nsplit = n;
    return out;
}

const char *pz_long_option_of(const char *arg)
{
    for (int i = 0; i < nsplit; i++)
        if (split[i] == arg)
            return option_of[i];
    return NULL;
}

void pz_unexpected_argument(const char *cmd, const char *arg)
{
    const char *option = pz_long_option_of(arg);

    if (option)
        fprintf(stderr, "prognoz %s: %s takes no value (%s=%s)\n", cmd, option, option, arg);
    else
        fprintf(stderr, "prognoz %s: unexpected argument '%s'\n", cmd, arg);
}
