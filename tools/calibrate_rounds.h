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
