# Cartesian topologies of MPI_Cart_create and MPI_Cart_sub recorded as OTF2 CartDimension,
# CartTopology and CartCoordinate definitions (integration/cart.sh).
check_PROGRAMS += programs/cart
programs_cart_SOURCES = programs/cart.c
programs_cart_CPPFLAGS = $(MPI_CFLAGS)
programs_cart_CFLAGS = $(PZ_CFLAGS)
programs_cart_LDADD = $(MPI_LIBS)
PZ_IT_TESTS += integration/cart.sh
EXTRA_DIST += integration/cart.sh
