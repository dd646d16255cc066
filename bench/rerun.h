/* The benchmark programs measure each mode in a fresh process (its own peak memory and
 * CPU time): they run themselves again with arguments that pick the mode. */
#ifndef PZ_BENCH_RERUN_H
#define PZ_BENCH_RERUN_H

/* Runs this program (/proc/self/exe) with the arguments argv (argv[0] included, NULL at
 * the end) and waits for it; 0 if it exited with status 0.  who names the program in
 * the messages of a failed fork or exec. */
int pz_bench_rerun(char *const argv[], const char *who);

#endif
