# Records put in time order for the analysis of a run given record by record: by time,
# rank and coming, in one pass or several.
if HAVE_CRITERION
check_PROGRAMS += unit/test_time_order
TESTS += unit/test_time_order
unit_test_time_order_SOURCES = unit/test_time_order.c
unit_test_time_order_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyzer
unit_test_time_order_LDADD = $(top_builddir)/analyzer/libpzanalyzer.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) -lm
endif
