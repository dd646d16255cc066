# The wait states of a nonblocking collective on a real 2-rank run: programs/nbc_wait.c,
# whose report integration/nbc_waits.sh checks.
check_PROGRAMS += programs/nbc_wait
programs_nbc_wait_SOURCES = programs/nbc_wait.c
programs_nbc_wait_CPPFLAGS = $(MPI_CFLAGS)
programs_nbc_wait_CFLAGS = $(PZ_CFLAGS)
programs_nbc_wait_LDADD = $(MPI_LIBS)
TESTS += integration/nbc_waits.sh
EXTRA_DIST += integration/nbc_waits.sh
