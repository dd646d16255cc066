# The recorder of Open MPI programs (integration/openmpi.sh): programs of tests/programs
# built by mpicc.openmpi into programs/openmpi/, when configure found Open MPI (the test
# skips otherwise).
PZ_IT_OPENMPI = programs/openmpi/p2p programs/openmpi/coll programs/openmpi/requests \
	programs/openmpi/intervals programs/openmpi/intervals_relative \
	programs/openmpi/markers_misuse
if HAVE_OPENMPI
check_SCRIPTS += $(PZ_IT_OPENMPI)
PZ_OPENMPI_LIB = $(abs_top_builddir)/wrapper/.libs/libprognoz-openmpi.so
endif
CLEANFILES += $(PZ_IT_OPENMPI)
PZ_IT_TESTS += integration/openmpi.sh
AM_TESTS_ENVIRONMENT += PZ_OPENMPI_LIB='$(PZ_OPENMPI_LIB)'; export PZ_OPENMPI_LIB; \
	OPENMPI_MPIEXEC='$(OPENMPI_MPIEXEC)'; export OPENMPI_MPIEXEC; \
	OPENMPI_VERSION='$(OPENMPI_VERSION)'; export OPENMPI_VERSION;

programs/openmpi/p2p: $(srcdir)/programs/p2p.c
	@$(MKDIR_P) programs/openmpi
	$(AM_V_GEN)$(OPENMPI_MPICC) $(PZ_CFLAGS) -o $@ $(srcdir)/programs/p2p.c
programs/openmpi/coll: $(srcdir)/programs/coll.c
	@$(MKDIR_P) programs/openmpi
	$(AM_V_GEN)$(OPENMPI_MPICC) $(PZ_CFLAGS) -o $@ $(srcdir)/programs/coll.c
programs/openmpi/requests: $(srcdir)/programs/requests.c
	@$(MKDIR_P) programs/openmpi
	$(AM_V_GEN)$(OPENMPI_MPICC) $(PZ_CFLAGS) -o $@ $(srcdir)/programs/requests.c
# With interval markers and debug information, as in integration/local.mk.
programs/openmpi/intervals: $(srcdir)/programs/intervals.c
	@$(MKDIR_P) programs/openmpi
	$(AM_V_GEN)$(OPENMPI_MPICC) $(PZ_CFLAGS) -g -I$(top_srcdir)/include -o $@ \
		$(srcdir)/programs/intervals.c
programs/openmpi/intervals_relative: $(srcdir)/programs/intervals.c
	@$(MKDIR_P) programs/openmpi
	$(AM_V_GEN)cd $(srcdir) && $(OPENMPI_MPICC) $(PZ_CFLAGS) -g -I$(abs_top_srcdir)/include \
		-o $(abs_builddir)/programs/openmpi/intervals_relative programs/intervals.c
programs/openmpi/markers_misuse: $(srcdir)/programs/markers_misuse.c
	@$(MKDIR_P) programs/openmpi
	$(AM_V_GEN)$(OPENMPI_MPICC) $(PZ_CFLAGS) -g -I$(top_srcdir)/include -o $@ \
		$(srcdir)/programs/markers_misuse.c
