/* Where a run's trace is written and how it replaces the trace already in DIR.  The new
 * trace is written into a folder of its own in DIR (DIR/.prognoz-new-XXXXXX) and moved
 * into place only once complete, so that a run that dies leaves the previous trace
 * intact (and its partial one in that folder).  Nothing prognoz did not write is ever
 * deleted.  Rank 0 only; internal to the wrapper. */
#ifndef PZ_TRACE_DIR_H
#define PZ_TRACE_DIR_H

/* Makes dir (and its parents) and a new empty folder in it for this run's trace, whose
 * path goes to stage (PATH_MAX bytes).  Returns 0, or an errno value with stage "". */
int pz_trace_dir_stage(const char *dir, char *stage);

/* Removes stage and the archive files in it, when no trace could be opened there. */
void pz_trace_dir_unstage(const char *stage);

/* Once every process has closed the archive in stage: puts stage's traces.otf2,
 * traces.def and traces/ in place of dir's and removes stage.  Of an old dir/traces/,
 * the event and definition files prognoz writes (N.evt, N.def) are removed; if
 * anything else is in it, the folder is moved aside to dir/traces.kept-XXXXXX and one
 * warning says so.  Returns 0, or -1 after a warning (the new trace then stays in
 * stage). */
int pz_trace_dir_install(const char *stage, const char *dir);

#endif
