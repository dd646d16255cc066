# Cartesian topologies in the definitions reader (trace/defs.h) on hand-built traces.
if HAVE_CRITERION
check_PROGRAMS += unit/test_cart
TESTS += unit/test_cart
unit_test_cart_SOURCES = unit/test_cart.c unit/trace_builder.c unit/trace_builder.h
unit_test_cart_LDADD = $(top_builddir)/trace/libpztrace.la $(CRITERION_LIBS) $(OTF2_LIBS)
endif
