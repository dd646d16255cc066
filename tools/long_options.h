/* GNU-style "--option=value" for every command: the argument is split into "--option"
 * and "value" before the command's parser sees it, so each parser knows only the
 * two-argument form. */
#ifndef PZ_TOOLS_LONG_OPTIONS_H
#define PZ_TOOLS_LONG_OPTIONS_H

/* A copy of argv[0..argc-1] (NULL-terminated) where every "--NAME=VALUE" before a "--"
 * argument is two arguments, "--NAME" and "VALUE"; the arguments after "--" (a command
 * to run) are left as they are.  *out_argc is the new count.  NULL when out of memory.
 * The copy lives as long as the process. */
char **pz_split_long_options(int argc, char **argv, int *out_argc);

/* The option ("--NAME") whose "=VALUE" arg is, when arg is such a value of the last
 * split (the very pointer), else NULL.  A parser that meets such a value where it
 * expects an option or an operand met an option that takes no value. */
const char *pz_long_option_of(const char *arg);

/* Reports arg, which command cmd's parser did not expect, on stderr: as "--NAME takes
 * no value" when arg was the value of "--NAME=VALUE", else as unexpected. */
void pz_unexpected_argument(const char *cmd, const char *arg);

#endif
