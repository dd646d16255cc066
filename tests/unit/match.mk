# The communication model's table of unmatched requests: the oldest of a key first,
# through removals, runs of slots that wrap and the table's growth.
if HAVE_CRITERION
check_PROGRAMS += unit/test_match
TESTS += unit/test_match
unit_test_match_SOURCES = unit/test_match.c
unit_test_match_CPPFLAGS = $(MODEL_TEST_FLAGS)
unit_test_match_LDADD = $(top_builddir)/model/libpzmodel.la $(CRITERION_LIBS)
endif
