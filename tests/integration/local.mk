# Integration tests: included by tests/Makefile.am.  Each test is a shell script that
# runs one of the MPI programs of tests/programs under mpiexec with the wrapper
# preloaded and checks the trace with otf2-print (helpers in integration/lib.sh).

check_PROGRAMS += \
	programs/p2p \
	programs/coll

programs_p2p_SOURCES = programs/p2p.c
programs_p2p_CPPFLAGS = $(MPI_CFLAGS)
programs_p2p_CFLAGS = $(PZ_CFLAGS)
programs_p2p_LDADD = $(MPI_LIBS)
programs_coll_SOURCES = programs/coll.c
programs_coll_CPPFLAGS = $(MPI_CFLAGS)
programs_coll_CFLAGS = $(PZ_CFLAGS)
programs_coll_LDADD = $(MPI_LIBS)

TESTS += \
	integration/p2p.sh \
	integration/coll.sh \
	integration/nbc.sh

EXTRA_DIST += \
	integration/lib.sh \
	integration/coll_expected.sh \
	integration/p2p.sh \
	integration/coll.sh \
	integration/nbc.sh
