# The scaling report on predicted runs built by hand at 2, 4 and 8 processes on two
# machines: the text table's numbers, the JSON's keys, the findings, the notes and the
# HTML page's plots.
if HAVE_CRITERION
check_PROGRAMS += unit/test_scale_report
TESTS += unit/test_scale_report
unit_test_scale_report_SOURCES = unit/test_scale_report.c unit/trace_builder.c \
	unit/trace_builder.h
unit_test_scale_report_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyzer
unit_test_scale_report_LDADD = $(top_builddir)/analyzer/libpzanalyzer.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) -lm
endif
