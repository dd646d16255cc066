/* The ping-pong measured in rounds (docs/calibrate.md, "Rounds"): every size is timed
 * once per round, and the rounds are spread over the whole calibration, the other
 * measurements and pauses between them, so that a burst of load slows one round of
 * many sizes rather than all of a few sizes.  A size's time is its rounds' median; a
 * size whose rounds disagree beyond the spread the other sizes show is measured in more
 * rounds, within a bounded time. */
#ifndef PZ_CALIBRATE_ROUNDS_H
#define PZ_CALIBRATE_ROUNDS_H

/* Rounds of every size, and the rounds at most added to a size that disagrees (each at
 * its own moment, as a planned round).  Nine:
 * the machine has moments in which large messages go twice as fast (a fast state now and
 * then, docs/calibrate.md, "Rounds"), and the median of nine follows them only when five
 * rounds of nine fall in them, where the lower quartile of five did when two did. */
#define PZ_CAL_ROUNDS 9
#define PZ_CAL_EXTRA_ROUNDS 2

/* A size's rounds disagree when their spread (pz_cal_round_time) is above
 * PZ_CAL_SPREAD_TIMES times the median spread of all sizes and above
 * PZ_CAL_SPREAD_FLOOR: the sizes' own spread is the noise of the moment, a size beyond
 * several times it met a load the others did not. */
#define PZ_CAL_SPREAD_TIMES 3.0
#define PZ_CAL_SPREAD_FLOOR 0.05

/* The sizes whose time in each round calibrate prints beside the keys, one in each
 * part of the curve: eager, rendezvous, large. */
#define PZ_CAL_ROUND_SIZES 3
extern const double pz_cal_round_sizes[PZ_CAL_ROUND_SIZES];

/* Beyond this spread of the latency or the bandwidth fitted to each round alone
 * (pz_cal_key_spread) the calibration warns that the load changed while it ran. */
#define PZ_CAL_KEY_SPREAD_WARN 0.25

/* The added rounds stop once their ping-pong has taken this share of the planned
 * rounds': the calibration's time stays bounded whatever the load. */
#define PZ_CAL_EXTRA_SHARE 0.25

/* The time of a size (or of any probe measured in rounds) from its n rounds r (r is not
 * modified; NAN rounds, not measured, are left out): their median, the mean of the two
 * middle ones for an even count.  The programs a prediction is judged against are
 * themselves the median of several runs, which the machine's moments move as they move
 * the rounds; the median leaves out a burst of load slowing fewer than half the rounds,
 * and a moment of a fast state as well, where a lower quartile followed it when it
 * lasted a quarter of them.  Into *spread how far they disagree: (upper quartile -
 * lower quartile) / median, the quartiles linear between order statistics; 0 for one
 * round.  NAN (and *spread NAN) when no round was measured or the median is not above
 * 0 (the spread then). */
double pz_cal_round_time(const double *r, int n, double *spread);

/* A calibration describes one state of the transport.  This machine's moves between
 * states seconds to minutes long, 2.5 times apart or more for 1 MiB one way and each
 * spanning a factor of about 1.2 (docs/calibrate.md, "Rounds"), and the median of rounds
 * made in both is the slowest of one state's rounds or the fastest of the other's: a
 * fast-state calibration with four slow rounds of nine predicted the ring of the
 * validation 17% slow, one with one slow round 3%.  Round r is in the calibration's state
 * when tag[r] (the ping-pong's time at the state's size, pz_cal_state_size, in that
 * round) is within PZ_CAL_STATE_FACTOR, either way, of the median of the measured tags
 * (the lower middle one of an even count: a round's own time, and the faster state's
 * when they are half and half); a NAN tag (not measured) keeps its round.  Into keep[r] 1 or 0, into *mid that median (NAN when
 * no tag was measured); returns how many are kept. */
#define PZ_CAL_STATE_FACTOR 1.5
int pz_cal_state_rounds(const double *tag, int n, int *keep, double *mid);

/* The size whose ping-pong tags the rounds' state: the largest of the n sizes from
 * PZ_CAL_STATE_LEAST to PZ_CAL_STATE_MOST (the states are 1.4 times apart for small
 * messages, less than the factor tells apart); 0 when none is. */
#define PZ_CAL_STATE_LEAST 65536.0
#define PZ_CAL_STATE_MOST 1048576.0
double pz_cal_state_size(const double *sizes, int n);

/* pz_cal_round_time over the rounds of r whose keep is set (keep NULL: every round). */
double pz_cal_kept_time(const double *r, const int *keep, int n, double *spread);

/* Into out the values of v whose keep is set (keep NULL: every one), NAN for the others:
 * n values. */
void pz_cal_kept(const double *v, const int *keep, int n, double *out);

/* The spread beyond which a size's rounds disagree, from the n sizes' spreads (not
 * modified; n >= 1): the larger of PZ_CAL_SPREAD_FLOOR and PZ_CAL_SPREAD_TIMES times
 * their median. */
double pz_cal_spread_limit(const double *spreads, int n);

/* How far the n values of one key, one per round, disagree: (largest - smallest) /
 * |median|; 0 for fewer than 2, NAN when the median is 0. */
double pz_cal_key_spread(const double *v, int n);

/* When round r (from 0) of rounds should begin, in seconds after the first: evenly over
 * span, r * span / (rounds - 1) (0 for one round); a round added after them (r >= rounds)
 * at the same pace. */
double pz_cal_round_start(int r, int rounds, double span);

#endif
