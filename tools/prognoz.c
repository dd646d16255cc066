/* prognoz: the command-line front end.  Subcommands in the style of git and perf. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

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

static void usage(FILE *out)
{
    fprintf(out, "usage: prognoz [--version] [--help] COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'prognoz COMMAND --help' describes a command.\n");
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
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "prognoz: '%s' is not a prognoz command\n", argv[1]);
    usage(stderr);
    return 2;
}
