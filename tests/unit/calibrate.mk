# Calibration: the fit of synthetic ping-pong times made from known parameters recovers
# them; machine files written by pz_machine_write and prognoz-calibrate's writer
# (tools/calibrate_out.c, compiled in) load back exactly.
if HAVE_CRITERION
check_PROGRAMS += unit/test_calibrate
TESTS += unit/test_calibrate
unit_test_calibrate_SOURCES = unit/test_calibrate.c $(top_srcdir)/tools/calibrate_out.c \
	$(top_srcdir)/tools/calibrate_stats.c $(top_srcdir)/tools/calibrate_self.c \
	$(top_srcdir)/tools/calibrate_rounds.c $(top_srcdir)/tools/calibrate_duplex_note.c \
	$(top_srcdir)/tools/calibrate_copies_out.c $(top_srcdir)/tools/calibrate_coll_note.c
unit_test_calibrate_CPPFLAGS = $(MODEL_TEST_FLAGS) -I$(top_srcdir)/tools
unit_test_calibrate_LDADD = $(top_builddir)/model/libpzmodel.la \
	$(CRITERION_LIBS) -lm
endif

# The ping-pong's rounds: the statistics of tools/calibrate_rounds.c.
if HAVE_CRITERION
check_PROGRAMS += unit/test_calibrate_rounds
TESTS += unit/test_calibrate_rounds
unit_test_calibrate_rounds_SOURCES = unit/test_calibrate_rounds.c \
	$(top_srcdir)/tools/calibrate_rounds.c
unit_test_calibrate_rounds_CPPFLAGS = $(MODEL_TEST_FLAGS) -I$(top_srcdir)/tools
unit_test_calibrate_rounds_LDADD = $(top_builddir)/model/libpzmodel.la $(CRITERION_LIBS) -lm
endif
# The keys' spreads over the rounds (tools/calibrate_spread.c) and the overheads'
# probe's rule for a message that had arrived (tools/calibrate_overhead.c).
if HAVE_CRITERION
check_PROGRAMS += unit/test_calibrate_spread
TESTS += unit/test_calibrate_spread
unit_test_calibrate_spread_SOURCES = unit/test_calibrate_spread.c \
	$(top_srcdir)/tools/calibrate_spread.c $(top_srcdir)/tools/calibrate_rounds.c \
	$(top_srcdir)/tools/calibrate_overhead.c $(top_srcdir)/tools/calibrate_cpu.c \
	$(top_srcdir)/tools/calibrate_stats.c $(top_srcdir)/tools/calibrate_sweep.c \
	$(top_srcdir)/tools/calibrate_cache.c
unit_test_calibrate_spread_CPPFLAGS = $(MODEL_TEST_FLAGS) -I$(top_srcdir)/tools
unit_test_calibrate_spread_LDADD = $(top_builddir)/model/libpzmodel.la $(CRITERION_LIBS) \
	$(MPI_LIBS) -lm
endif

# The caches as the kernel describes them (tools/calibrate_cache.c).
if HAVE_CRITERION
check_PROGRAMS += unit/test_calibrate_cache
TESTS += unit/test_calibrate_cache
unit_test_calibrate_cache_SOURCES = unit/test_calibrate_cache.c \
	$(top_srcdir)/tools/calibrate_cache.c
unit_test_calibrate_cache_CPPFLAGS = -I$(top_srcdir)/tools
unit_test_calibrate_cache_LDADD = $(CRITERION_LIBS)
endif
