# prognoz scale of all-to-alls written by hand over the ranks end to end:
# share/validation/alltoallp.c's "ranks" and "ordered" schedules with a gather by hand,
# recorded at 2, 3 and 4 processes, extrapolated to 8 and 16
# (integration/scale_allranks.sh; its program is scale_allpairs.mk's).
PZ_IT_TESTS += integration/scale_allranks.sh
EXTRA_DIST += integration/scale_allranks.sh
