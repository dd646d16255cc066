/* prognoz: the command-line front end.  Subcommands in the style of git and perf. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "long_options.h"

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    { "record", pz_cmd_record, "run an MPI job with the recorder and write an OTF2 trace" },
    { "report", pz_cmd_report, "the characteristics of a recorded run, per interval" },
    { "predict", pz_cmd_predict, "the same run predicted on other clusters, per interval" },
    { "scale", pz_cmd_scale,
      "recordings at a few process counts extrapolated to others, and predicted" },
    { "calibrate", pz_cmd_calibrate,
      "measure a network (under mpiexec -n 2), write a machine file" },
    { "export", pz_cmd_export, "the run as SimGrid SMPI traces, or a Perfetto timeline" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
    fprintf(out, "usage: prognoz [--version] [--help] COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'prognoz COMMAND --help' describes a command, 'prognoz help COMMAND'"
                 " shows its manual.\n");
}

static const struct command *command_named(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(name, commands[i].name))
            return &commands[i];
    return NULL;
}

/* prognoz help [COMMAND]: the command's manual page when it is installed (man -l on
 * the installed file, so that it is this prognoz's page whatever MANPATH says), else,
 * or when man cannot be run, the command's --help. */
static int help(int argc, char **argv)
{
    const struct command *c;
    char page[4096];

    if (argc < 3) {
        usage(stdout);
        return 0;
    }
    c = command_named(argv[2]);
    if (!c) {
        fprintf(stderr, "prognoz help: '%s' is not a prognoz command; the commands:", argv[2]);
        for (size_t i = 0; i < NCOMMANDS; i++)
            fprintf(stderr, " %s", commands[i].name);
        fprintf(stderr, "\n");
        return 2;
    }
    if (snprintf(page, sizeof(page), "%s/man1/prognoz-%s.1", PZ_MANDIR, c->name) <
            (int)sizeof(page) &&
        access(page, R_OK) == 0) {
        fflush(stdout);
        execlp("man", "man", "-l", page, (char *)NULL);
    }
    return c->run(2, (char *[]){ (char *)c->name, "--help", NULL });
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("prognoz %s\n", PACKAGE_VERSION);
        return 0;
    }
    if (!strcmp(argv[1], "help"))
        return help(argc, argv);
    const struct command *c = command_named(argv[1]);
    if (c) {
        int n;
        char **args = pz_split_long_options(argc - 1, argv + 1, &n);

        if (!args) {
            fprintf(stderr, "prognoz: out of memory\n");
            return 1;
        }
        return c->run(n, args);
    }
    fprintf(stderr, "prognoz: '%s' is not a prognoz command\n", argv[1]);
    usage(stderr);
    return 2;
}
