# prognoz predict on an MPI_THREAD_MULTIPLE run (programs/threads, built by local.mk):
# every thread replayed, its predicted trace analyzed (integration/predict_threads.sh).
PZ_IT_TESTS += integration/predict_threads.sh
EXTRA_DIST += integration/predict_threads.sh
