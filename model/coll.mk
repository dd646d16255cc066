# Collective operations as the point-to-point messages of MPICH's and Open MPI's algorithms
# (docs/collectives.md): the choice by set and name, and the algorithms by family.
libpzmodel_la_SOURCES += \
	coll.c coll.h coll_algos.h coll_math.c coll_schedule.h coll_walk.c \
	coll_tree.c coll_linear.c coll_exchange.c coll_rabenseifner.c coll_alltoall.c \
	coll_inter.c coll_ompi.c coll_ompi_ring.c coll_ompi_rooted.c coll_ompi_exchange.c \
	coll_ompi_tree.c coll_ompi_butterfly.c \
	coll_ompi_rabenseifner.c
