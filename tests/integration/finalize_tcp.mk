# The recorder and MPICH 4.0.2's hang in MPI_Finalize over UCX's tcp transport:
# integration/finalize_tcp.sh builds programs/late_finalize.c itself (a library
# preloaded after the recorder) and records programs/p2p.
PZ_IT_TESTS += integration/finalize_tcp.sh
EXTRA_DIST += integration/finalize_tcp.sh programs/late_finalize.c
