# Persistent collectives started in different orders (integration/pcoll_order.sh).
check_PROGRAMS += programs/pcoll_order
programs_pcoll_order_SOURCES = programs/pcoll_order.c
programs_pcoll_order_CPPFLAGS = $(MPI_CFLAGS)
programs_pcoll_order_CFLAGS = $(PZ_CFLAGS)
programs_pcoll_order_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/pcoll_order.sh
EXTRA_DIST += integration/pcoll_order.sh
