# MPI-IO and one-sided communication as parts of MPI time, with their bytes, on
# hand-built traces (analyzer/io_rma.c, report_io_rma.c).
if HAVE_CRITERION
check_PROGRAMS += unit/test_io_rma
TESTS += unit/test_io_rma
unit_test_io_rma_SOURCES = unit/test_io_rma.c unit/trace_builder.c unit/trace_builder.h
unit_test_io_rma_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyzer
unit_test_io_rma_LDADD = $(top_builddir)/analyzer/libpzanalyzer.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) -lm
endif
