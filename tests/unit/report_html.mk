# The HTML report's data: the pixel columns of the reduced timeline, the timeline of a
# hand-built trace exact and reduced under its size limit, the page's JSON well-formed.
if HAVE_CRITERION
check_PROGRAMS += unit/test_report_html
TESTS += unit/test_report_html
unit_test_report_html_SOURCES = unit/test_report_html.c unit/trace_builder.c \
	unit/trace_builder.h
unit_test_report_html_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyzer
unit_test_report_html_LDADD = $(top_builddir)/analyzer/libpzanalyzer.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) -lm
endif

# MPI-IO and one-sided time on the page (analyzer/report_html_io_rma.c).
if HAVE_CRITERION
check_PROGRAMS += unit/test_report_html_io_rma
TESTS += unit/test_report_html_io_rma
unit_test_report_html_io_rma_SOURCES = unit/test_report_html_io_rma.c unit/trace_builder.c \
	unit/trace_builder.h unit/analysis_fixture.h
unit_test_report_html_io_rma_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyzer
unit_test_report_html_io_rma_LDADD = $(top_builddir)/analyzer/libpzanalyzer.la \
	$(CRITERION_LIBS) $(OTF2_LIBS) -lm
endif
