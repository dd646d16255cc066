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

#endif
