/* The subcommands of prognoz; each takes its own argv (argv[0] is its name) and returns
 * the process exit status. */
#ifndef PZ_COMMANDS_H
#define PZ_COMMANDS_H

int pz_cmd_record(int argc, char **argv);
int pz_cmd_report(int argc, char **argv);
int pz_cmd_predict(int argc, char **argv);
int pz_cmd_calibrate(int argc, char **argv);
int pz_cmd_export(int argc, char **argv);
int pz_cmd_scale(int argc, char **argv);

#endif
