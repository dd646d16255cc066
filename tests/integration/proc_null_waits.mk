# Completions of requests sharing one handle, in the order of the program's array:
# programs/proc_null_waits.c, recorded by integration/proc_null_waits.sh.
check_PROGRAMS += programs/proc_null_waits
programs_proc_null_waits_SOURCES = programs/proc_null_waits.c
programs_proc_null_waits_CPPFLAGS = $(MPI_CFLAGS)
programs_proc_null_waits_CFLAGS = $(PZ_CFLAGS)
programs_proc_null_waits_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/proc_null_waits.sh
EXTRA_DIST += integration/proc_null_waits.sh
