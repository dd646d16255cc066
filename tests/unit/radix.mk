# The queue of the model's events, of the replay's threads and of the Perfetto export's
# threads: order by time, then by push, through the buckets of a radix heap.
if HAVE_CRITERION
check_PROGRAMS += unit/test_radix
TESTS += unit/test_radix
unit_test_radix_SOURCES = unit/test_radix.c
unit_test_radix_CPPFLAGS = $(MODEL_TEST_FLAGS)
unit_test_radix_LDADD = $(top_builddir)/model/libpzmodel.la $(CRITERION_LIBS) -lm
endif
