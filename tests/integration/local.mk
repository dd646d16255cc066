# Integration tests: included by tests/Makefile.am.  Each test is a shell script that
# runs one of the MPI programs of tests/programs under mpiexec with the wrapper
# preloaded and checks the trace with otf2-print (helpers in integration/lib.sh).

# The C programs: programs/NAME from programs/NAME.c, compiled with the MPI flags
# (tests/Makefile.am's AM_CPPFLAGS and LDADD are the unit tests').
check_PROGRAMS += \
	programs/p2p \
	programs/coll \
	programs/requests \
	programs/persist \
	programs/anysource \
	programs/commsplit \
	programs/transparent \
	programs/threads \
	programs/buffer \
	programs/intervals \
	programs/markers_raw \
	programs/markers_misuse \
	programs/report_sleep \
	programs/predict_balanced \
	programs/cpu_time \
	programs/abort

programs_p2p_SOURCES = programs/p2p.c
programs_p2p_CPPFLAGS = $(MPI_CFLAGS)
programs_p2p_CFLAGS = $(PZ_CFLAGS)
programs_p2p_LDADD = $(MPI_LIBS)

programs_abort_SOURCES = programs/abort.c
programs_abort_CPPFLAGS = $(MPI_CFLAGS)
programs_abort_CFLAGS = $(PZ_CFLAGS)
programs_abort_LDADD = $(MPI_LIBS)

programs_coll_SOURCES = programs/coll.c
programs_coll_CPPFLAGS = $(MPI_CFLAGS)
programs_coll_CFLAGS = $(PZ_CFLAGS)
programs_coll_LDADD = $(MPI_LIBS)

programs_requests_SOURCES = programs/requests.c
programs_requests_CPPFLAGS = $(MPI_CFLAGS)
programs_requests_CFLAGS = $(PZ_CFLAGS)
programs_requests_LDADD = $(MPI_LIBS)

programs_persist_SOURCES = programs/persist.c
programs_persist_CPPFLAGS = $(MPI_CFLAGS)
programs_persist_CFLAGS = $(PZ_CFLAGS)
programs_persist_LDADD = $(MPI_LIBS)

programs_anysource_SOURCES = programs/anysource.c
programs_anysource_CPPFLAGS = $(MPI_CFLAGS)
programs_anysource_CFLAGS = $(PZ_CFLAGS)
programs_anysource_LDADD = $(MPI_LIBS)

programs_commsplit_SOURCES = programs/commsplit.c
programs_commsplit_CPPFLAGS = $(MPI_CFLAGS)
programs_commsplit_CFLAGS = $(PZ_CFLAGS)
programs_commsplit_LDADD = $(MPI_LIBS)

programs_transparent_SOURCES = programs/transparent.c
programs_transparent_CPPFLAGS = $(MPI_CFLAGS)
programs_transparent_CFLAGS = $(PZ_CFLAGS)
programs_transparent_LDADD = $(MPI_LIBS)

programs_threads_SOURCES = programs/threads.c
programs_threads_CPPFLAGS = $(MPI_CFLAGS)
programs_threads_CFLAGS = $(PZ_CFLAGS) -pthread
programs_threads_LDADD = $(MPI_LIBS) -lpthread

programs_buffer_SOURCES = programs/buffer.c
programs_buffer_CPPFLAGS = $(MPI_CFLAGS)
programs_buffer_CFLAGS = $(PZ_CFLAGS)
programs_buffer_LDADD = $(MPI_LIBS)

# The programs with interval markers use include/prognoz.h and have debug information,
# by which the recorder finds the file and line of each marker.
programs_intervals_SOURCES = programs/intervals.c
programs_intervals_CPPFLAGS = -I$(top_srcdir)/include $(MPI_CFLAGS)
programs_intervals_CFLAGS = $(PZ_CFLAGS) -g
programs_intervals_LDADD = $(MPI_LIBS)

programs_markers_raw_SOURCES = programs/markers_raw.c
programs_markers_raw_CPPFLAGS = $(MPI_CFLAGS)
programs_markers_raw_CFLAGS = $(PZ_CFLAGS) -g
programs_markers_raw_LDADD = $(MPI_LIBS)

programs_markers_misuse_SOURCES = programs/markers_misuse.c
programs_markers_misuse_CPPFLAGS = -I$(top_srcdir)/include $(MPI_CFLAGS)
programs_markers_misuse_CFLAGS = $(PZ_CFLAGS) -g
programs_markers_misuse_LDADD = $(MPI_LIBS)

programs_report_sleep_SOURCES = programs/report_sleep.c programs/sleep_ms.h
programs_report_sleep_CPPFLAGS = -I$(top_srcdir)/include $(MPI_CFLAGS)
programs_report_sleep_CFLAGS = $(PZ_CFLAGS) -g
programs_report_sleep_LDADD = $(MPI_LIBS)

programs_cpu_time_SOURCES = programs/cpu_time.c programs/sleep_ms.h
programs_cpu_time_CPPFLAGS = -I$(top_srcdir)/include $(MPI_CFLAGS)
programs_cpu_time_CFLAGS = $(PZ_CFLAGS) -g
programs_cpu_time_LDADD = $(MPI_LIBS)

programs_predict_balanced_SOURCES = programs/predict_balanced.c
programs_predict_balanced_CPPFLAGS = -I$(top_srcdir)/include $(MPI_CFLAGS)
programs_predict_balanced_CFLAGS = $(PZ_CFLAGS) -g
programs_predict_balanced_LDADD = $(MPI_LIBS)

# programs/intervals.c compiled by a file name relative to the working directory, as in
# a build in the source tree and in most makefiles: its debug information names the
# file relative to the compilation directory.
check_SCRIPTS = programs/intervals_relative
CLEANFILES += programs/intervals_relative
programs/intervals_relative: $(srcdir)/programs/intervals.c
	@$(MKDIR_P) programs
	$(AM_V_GEN)cd $(srcdir) && $(CC) $(CPPFLAGS) $(CFLAGS) $(PZ_CFLAGS) -g \
		-I$(abs_top_srcdir)/include $(MPI_CFLAGS) $(LDFLAGS) \
		-o $(abs_builddir)/programs/intervals_relative programs/intervals.c $(MPI_LIBS)

# The Fortran programs, built by $(MPIFC) when configure found it (their tests skip
# otherwise).
PZ_IT_FORTRAN = programs/fhello programs/ff08 programs/f08_calls programs/fmarkers
if HAVE_MPIFC
check_SCRIPTS += $(PZ_IT_FORTRAN)
endif
CLEANFILES += $(PZ_IT_FORTRAN)
EXTRA_DIST += $(PZ_IT_FORTRAN:=.f90)

programs/fhello: $(srcdir)/programs/fhello.f90
	@$(MKDIR_P) programs
	$(AM_V_GEN)$(MPIFC) -o $@ $(srcdir)/programs/fhello.f90
programs/ff08: $(srcdir)/programs/ff08.f90
	@$(MKDIR_P) programs
	$(AM_V_GEN)$(MPIFC) -o $@ $(srcdir)/programs/ff08.f90
programs/f08_calls: $(srcdir)/programs/f08_calls.f90
	@$(MKDIR_P) programs
	$(AM_V_GEN)$(MPIFC) -o $@ $(srcdir)/programs/f08_calls.f90
# With interval markers: prognoz.fh, libprognoz-markers and debug information.
programs/fmarkers: $(srcdir)/programs/fmarkers.f90 $(top_builddir)/wrapper/libprognoz-markers.a
	@$(MKDIR_P) programs
	$(AM_V_GEN)$(MPIFC) -g -I$(top_srcdir)/include -o $@ $(srcdir)/programs/fmarkers.f90 \
		$(top_builddir)/wrapper/libprognoz-markers.a

PZ_IT_TESTS = \
	integration/p2p.sh \
	integration/coll.sh \
	integration/nbc.sh \
	integration/requests.sh \
	integration/persist.sh \
	integration/anysource.sh \
	integration/commsplit.sh \
	integration/fortran.sh \
	integration/fortran_f08.sh \
	integration/transparent.sh \
	integration/threads.sh \
	integration/unwritable.sh \
	integration/record.sh \
	integration/buffer.sh \
	integration/disable.sh \
	integration/nodes.sh \
	integration/intervals.sh \
	integration/markers_raw.sh \
	integration/markers_misuse.sh \
	integration/fortran_markers.sh \
	integration/markers_disabled.sh \
	integration/report.sh \
	integration/cli.sh \
	integration/predict.sh \
	integration/calibrate.sh \
	integration/cpu_time.sh \
	integration/init_sync.sh

TESTS += $(PZ_IT_TESTS)

EXTRA_DIST += \
	$(PZ_IT_TESTS) \
	integration/ideal.conf \
	integration/lib.sh \
	integration/coll_expected.sh
# A trace with an event file removed or cut: every command says one line and exits 1.
PZ_IT_TESTS += integration/damaged.sh
# Every recorder test program predicted on every shipped machine.
PZ_IT_TESTS += integration/replay_all.sh
# prognoz export --simgrid, replayed by SimGrid's smpirun where it is installed.
PZ_IT_TESTS += integration/simgrid.sh
# The validation harness, scripts/validate.sh --reduced: it completes and prints a row per
# program and the summary (its accuracy is a benchmark, bench/README.md, not checked).
PZ_IT_TESTS += integration/validate.sh
# The scaling harness, scripts/scale_validate.sh --reduced: it completes, prints a row per
# program and count, and the synthesized runs make the real runs' calls and messages.
PZ_IT_TESTS += integration/scale_validate.sh
# prognoz predict interrupted by SIGINT or SIGTERM leaves no temporary directory.
PZ_IT_TESTS += integration/predict_signal.sh
# A new trace replaces the one in its directory only once complete: files prognoz did
# not write are kept aside, and a run that aborts leaves the previous trace intact.
PZ_IT_TESTS += integration/trace_dir.sh
