# A long run replayed by a sample of its passes: the analysis from the cut runs, the
# choice of the cuts, on analyses made by hand (analyzer/extrapolate.h,
# tools/scale_passes.h).
if HAVE_CRITERION
check_PROGRAMS += unit/test_extrapolate unit/test_scale_passes
TESTS += unit/test_extrapolate unit/test_scale_passes
unit_test_extrapolate_SOURCES = unit/test_extrapolate.c unit/cut_runs.h
unit_test_extrapolate_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyzer
unit_test_extrapolate_LDADD = $(top_builddir)/analyzer/libpzanalyzer.la $(CRITERION_LIBS) -lm
unit_test_scale_passes_SOURCES = unit/test_scale_passes.c unit/cut_runs.h \
	$(top_srcdir)/tools/scale_passes.c
unit_test_scale_passes_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyzer -I$(top_srcdir)/tools
unit_test_scale_passes_LDADD = $(top_builddir)/analyzer/libpzanalyzer.la $(CRITERION_LIBS) -lm
endif

# The loop a long run is sampled by and the run cut to a few passes: a program recorded
# by hand at 2, 4 and 8 processes, synthesized at 16.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_sample
TESTS += unit/test_scale_sample
unit_test_scale_sample_SOURCES = unit/test_scale_sample.c unit/scale_runs.c unit/scale_runs.h
unit_test_scale_sample_CPPFLAGS = $(AM_CPPFLAGS) $(LAYER_FLAGS)
unit_test_scale_sample_LDADD = $(top_builddir)/replay/libpzreplay.la $(CRITERION_LIBS) -lm
endif
