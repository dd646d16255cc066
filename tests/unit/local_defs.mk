# A location's local definitions: a file holding none is not read through OTF2, one
# holding definitions still applies, a damaged one is still reported (trace/open.h).
if HAVE_CRITERION
check_PROGRAMS += unit/test_local_defs
TESTS += unit/test_local_defs
unit_test_local_defs_SOURCES = unit/test_local_defs.c unit/trace_builder.c \
	unit/trace_builder.h
unit_test_local_defs_LDADD = $(top_builddir)/trace/libpztrace.la $(CRITERION_LIBS) \
	$(OTF2_LIBS) -lm
endif
