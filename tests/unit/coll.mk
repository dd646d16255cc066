# Collective algorithms: every member's rounds replayed against each other in the test,
# message sets and selection cut-offs checked against counts derived by hand.
if HAVE_CRITERION
check_PROGRAMS += unit/test_coll
TESTS += unit/test_coll
unit_test_coll_SOURCES = unit/test_coll.c
unit_test_coll_CPPFLAGS = $(PREDICTOR_TEST_FLAGS)
unit_test_coll_LDADD = $(top_builddir)/predictor/libpzpredictor.la $(CRITERION_LIBS) -lm
endif
