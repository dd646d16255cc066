# The comparison of machines in the scaling report, on tables of two and three machines
# made by hand: its sentences, its JSON object and where each format puts it.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_compare
TESTS += unit/test_scale_compare
unit_test_scale_compare_SOURCES = unit/test_scale_compare.c
unit_test_scale_compare_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyzer
unit_test_scale_compare_LDADD = $(top_builddir)/analyzer/libpzanalyzer.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) -lm
endif
