# The recorder of Open MPI programs (integration/openmpi.sh): programs of tests/programs
# built by mpicc.openmpi and mpif90.openmpi into programs/openmpi/, when configure found
# Open MPI (the test skips otherwise).
PZ_IT_OPENMPI_C = p2p coll requests intervals markers_misuse \
	anysource buffer cart commsplit csites intercomm io nbc_wait persist \
	mprobe_null proc_null_waits rma sequential threads markers_raw transparent cpu_time \
	predict_balanced spawn
PZ_IT_OPENMPI = $(PZ_IT_OPENMPI_C:%=programs/openmpi/%) programs/openmpi/intervals_relative \
	programs/openmpi/libvia.so programs/openmpi/via programs/openmpi/pal_launcher
# The Fortran ones (mpif.h, 'use mpi', 'use mpi_f08'), by Open MPI's Fortran compiler
# next to its mpicc.
PZ_IT_OPENMPI_FORTRAN = programs/openmpi/fhello programs/openmpi/fmarkers \
	programs/openmpi/ff08 programs/openmpi/f08_calls programs/openmpi/fsites \
	programs/openmpi/falltoallw
OPENMPI_MPIFC = $(OPENMPI_MPICC:mpicc.openmpi=mpif90.openmpi)
if HAVE_OPENMPI
check_SCRIPTS += $(PZ_IT_OPENMPI)
if HAVE_MPIFC
check_SCRIPTS += $(PZ_IT_OPENMPI_FORTRAN)
endif
PZ_OPENMPI_LIB = $(abs_top_builddir)/wrapper/.libs/libprognoz-openmpi.so
endif
CLEANFILES += $(PZ_IT_OPENMPI) $(PZ_IT_OPENMPI_FORTRAN)
PZ_IT_TESTS += integration/openmpi.sh
# fortran_alltoallw.sh runs under check-openmpi alone: its program is Open MPI's only
EXTRA_DIST += programs/falltoallw.f90 integration/fortran_alltoallw.sh \
	programs/via_lib.c programs/via_main.c programs/spawn.c programs/pal_launcher.c
AM_TESTS_ENVIRONMENT += PZ_OPENMPI_LIB='$(PZ_OPENMPI_LIB)'; export PZ_OPENMPI_LIB; \
	OPENMPI_MPIEXEC='$(OPENMPI_MPIEXEC)'; export OPENMPI_MPIEXEC; \
	OPENMPI_VERSION='$(OPENMPI_VERSION)'; export OPENMPI_VERSION; \
	PZ_MPI='$(PZ_MPI)'; export PZ_MPI;

# With interval markers and debug information, as in integration/local.mk.
$(PZ_IT_OPENMPI_C:%=programs/openmpi/%): programs/openmpi/%: $(srcdir)/programs/%.c
	@$(MKDIR_P) programs/openmpi
	$(AM_V_GEN)$(OPENMPI_MPICC) $(PZ_CFLAGS) -g -pthread -I$(top_srcdir)/include -o $@ $<
programs/openmpi/intervals_relative: $(srcdir)/programs/intervals.c
	@$(MKDIR_P) programs/openmpi
	$(AM_V_GEN)cd $(srcdir) && $(OPENMPI_MPICC) $(PZ_CFLAGS) -g -I$(abs_top_srcdir)/include \
		-o $(abs_builddir)/programs/openmpi/intervals_relative programs/intervals.c
# A program linked with a library of its own alone, the library with Open MPI.
programs/openmpi/libvia.so: $(srcdir)/programs/via_lib.c
	@$(MKDIR_P) programs/openmpi
	$(AM_V_GEN)$(OPENMPI_MPICC) $(PZ_CFLAGS) -fvisibility=default -shared -fPIC -o $@ \
		$(srcdir)/programs/via_lib.c
programs/openmpi/via: $(srcdir)/programs/via_main.c programs/openmpi/libvia.so
	$(AM_V_GEN)$(CC) $(PZ_CFLAGS) -o $@ $(srcdir)/programs/via_main.c \
		-Lprograms/openmpi -lvia -Wl,-rpath,$(abs_builddir)/programs/openmpi
# A launcher linked as Open MPI 5's mpiexec is: libopen-pal, no MPI library.
programs/openmpi/pal_launcher: $(srcdir)/programs/pal_launcher.c
	@$(MKDIR_P) programs/openmpi
	$(AM_V_GEN)$(CC) $(PZ_CFLAGS) -o $@ $(srcdir)/programs/pal_launcher.c \
		-Wl,--no-as-needed -L$(OPENMPI_LIBDIR) -lopen-pal -Wl,-rpath,$(OPENMPI_LIBDIR)
programs/openmpi/fhello: $(srcdir)/programs/fhello.f90
	@$(MKDIR_P) programs/openmpi
	$(AM_V_GEN)$(OPENMPI_MPIFC) -J programs/openmpi -o $@ $(srcdir)/programs/fhello.f90
programs/openmpi/ff08: $(srcdir)/programs/ff08.f90
	@$(MKDIR_P) programs/openmpi
	$(AM_V_GEN)$(OPENMPI_MPIFC) -J programs/openmpi -o $@ $(srcdir)/programs/ff08.f90
programs/openmpi/f08_calls: $(srcdir)/programs/f08_calls.f90
	@$(MKDIR_P) programs/openmpi
	$(AM_V_GEN)$(OPENMPI_MPIFC) -J programs/openmpi -o $@ $(srcdir)/programs/f08_calls.f90
# Open MPI's only (integration/fortran_alltoallw.sh): MPICH's mpi_f08 MPI_Ineighbor_alltoallw
# fails on a Cartesian communicator.
programs/openmpi/falltoallw: $(srcdir)/programs/falltoallw.f90
	@$(MKDIR_P) programs/openmpi
	$(AM_V_GEN)$(OPENMPI_MPIFC) -J programs/openmpi -o $@ $(srcdir)/programs/falltoallw.f90
# As in integration/callsites.mk.
programs/openmpi/fsites: $(PZ_IT_FSITES_F90:%=$(srcdir)/%)
	@$(MKDIR_P) programs/openmpi
	$(AM_V_GEN)$(OPENMPI_MPIFC) -J programs/openmpi -g -O0 -o $@ $(PZ_IT_FSITES_F90:%=$(srcdir)/%)
programs/openmpi/fmarkers: $(srcdir)/programs/fmarkers.f90 \
		$(top_builddir)/wrapper/libprognoz-markers-openmpi.a
	@$(MKDIR_P) programs/openmpi
	$(AM_V_GEN)$(OPENMPI_MPIFC) -J programs/openmpi -g -I$(top_srcdir)/include -o $@ \
		$(srcdir)/programs/fmarkers.f90 $(top_builddir)/wrapper/libprognoz-markers-openmpi.a

# make check-openmpi: the integration tests that say nothing of one MPI, run with Open
# MPI (PZ_MPI=openmpi, integration/lib.sh) on its programs above, 2 to 4 processes each.
# Not among them:
# - the tests of MPI-4 functions Open MPI 4.1 lacks: isendrecv, largecount, partitioned,
#   pcoll, idup, nbrcoll, fortran_new, fortran_large, fromgroups;
# - the runs ending without MPI_Finalize, tested with MPICH only (Open MPI's mpiexec
#   ends a job its own way): partial, partial_disk, partial_kill, trace_dir,
#   predict_signal;
# - the tests of commands on traces, or of prognoz itself, that no MPI changes: predict,
#   report, replay_all, simgrid, perfetto, scale, cli, reads, validate, damaged,
#   coll_expected, record, and openmpi, which runs with both;
# - calibrate: prognoz calibrate is an MPI program of MPICH's (docs/calibrate.md).
PZ_IT_UNDER_OPENMPI = integration/p2p.sh integration/coll.sh integration/nbc.sh \
	integration/requests.sh integration/intervals.sh integration/markers_misuse.sh \
	integration/markers_disabled.sh integration/anysource.sh integration/buffer.sh \
	integration/cart.sh integration/commsplit.sh integration/intercomm.sh \
	integration/io.sh integration/mprobe_null.sh integration/nbc_waits.sh \
	integration/persist.sh integration/proc_null_waits.sh integration/rma.sh \
	integration/sequential.sh integration/threads.sh \
	integration/fortran.sh integration/fortran_markers.sh integration/fortran_f08.sh \
	integration/callsites.sh integration/disable.sh integration/markers_raw.sh \
	integration/transparent.sh integration/unwritable.sh integration/init_sync.sh \
	integration/nodes.sh integration/recording.sh integration/cpu_time.sh \
	integration/fortran_alltoallw.sh
check-openmpi:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(PZ_IT_UNDER_OPENMPI)' PZ_MPI=openmpi \
		TEST_SUITE_LOG=test-suite-openmpi.log
.PHONY: check-openmpi

# The conversions of Open MPI's Fortran arguments (wrapper/ompi_fortran.h).
if HAVE_OPENMPI
if HAVE_CRITERION
check_PROGRAMS += unit/test_ompi_fortran
TESTS += unit/test_ompi_fortran
endif
endif
unit_test_ompi_fortran_SOURCES = unit/test_ompi_fortran.c
unit_test_ompi_fortran_CPPFLAGS = -I$(top_srcdir)/wrapper -I$(top_srcdir)/trace \
	-I$(top_builddir)/trace -I$(top_srcdir)/model -I$(top_srcdir)/include \
	$(OPENMPI_CFLAGS) $(OTF2_CFLAGS)
unit_test_ompi_fortran_LDADD = $(top_builddir)/wrapper/libpzcore-openmpi.la $(CRITERION_LIBS)
