# Collective algorithms: every member's rounds replayed against each other in the test,
# message sets and selection cut-offs checked against counts derived by hand.
if HAVE_CRITERION
check_PROGRAMS += unit/test_coll
TESTS += unit/test_coll
unit_test_coll_SOURCES = unit/test_coll.c
unit_test_coll_CPPFLAGS = $(MODEL_TEST_FLAGS)
unit_test_coll_LDADD = $(top_builddir)/model/libpzmodel.la $(CRITERION_LIBS) -lm
endif

# Schedules of collectives: every round of a member made at once is what the algorithm's
# round function makes one round at a time, for every built-in algorithm.
if HAVE_CRITERION
check_PROGRAMS += unit/test_coll_schedule
TESTS += unit/test_coll_schedule
unit_test_coll_schedule_SOURCES = unit/test_coll_schedule.c
unit_test_coll_schedule_CPPFLAGS = $(MODEL_TEST_FLAGS)
unit_test_coll_schedule_LDADD = $(top_builddir)/model/libpzmodel.la \
	$(CRITERION_LIBS) -lm
endif

# Collectives on intercommunicators: each member's rounds of MPICH 4's algorithms on a
# 2+3 intercommunicator, derived by hand, and every instance balanced.
if HAVE_CRITERION
check_PROGRAMS += unit/test_coll_inter
TESTS += unit/test_coll_inter
unit_test_coll_inter_SOURCES = unit/test_coll_inter.c
unit_test_coll_inter_CPPFLAGS = $(MODEL_TEST_FLAGS)
unit_test_coll_inter_LDADD = $(top_builddir)/model/libpzmodel.la $(CRITERION_LIBS) -lm
endif

# The set openmpi4: Open MPI 4.1's fixed decision rules at their switch points and its
# algorithms' rounds per member, derived by hand, every one replayed to the end.
if HAVE_CRITERION
check_PROGRAMS += unit/test_coll_ompi
TESTS += unit/test_coll_ompi
unit_test_coll_ompi_SOURCES = unit/test_coll_ompi.c
unit_test_coll_ompi_CPPFLAGS = $(MODEL_TEST_FLAGS)
unit_test_coll_ompi_LDADD = $(top_builddir)/model/libpzmodel.la $(CRITERION_LIBS) -lm
endif
