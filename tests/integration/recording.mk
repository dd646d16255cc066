# What the recorder notes of a run, and the caveat of an oversubscribed one
# (integration/recording.sh).
PZ_IT_TESTS += integration/recording.sh
EXTRA_DIST += integration/recording.sh
