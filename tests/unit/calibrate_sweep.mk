# The resume probe's computation (tools/calibrate_sweep.c): its buffer's size and that
# it computes for the time asked.
if HAVE_CRITERION
check_PROGRAMS += unit/test_calibrate_sweep
TESTS += unit/test_calibrate_sweep
unit_test_calibrate_sweep_SOURCES = unit/test_calibrate_sweep.c \
	$(top_srcdir)/tools/calibrate_sweep.c $(top_srcdir)/tools/calibrate_cache.c
unit_test_calibrate_sweep_CPPFLAGS = $(MODEL_TEST_FLAGS) -I$(top_srcdir)/tools
unit_test_calibrate_sweep_LDADD = $(CRITERION_LIBS) $(MPI_LIBS)
endif
