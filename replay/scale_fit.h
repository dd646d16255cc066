/* How a computation's time grows with the number of processes: from the times recorded
 * at a few process counts P (say 2, 4, 8), the model of the performance model normal
 * form (Calotoiu et al., SC13)
 *
 *     t(P) = c0 + c1 * P^a * log2(P)^b
 *
 * with |a| in {0, 1/4, 1/3, 1/2, 2/3, 3/4, 1, 5/4, 4/3, 3/2, 5/3, 7/4, 2, 9/4, 7/3, 5/2,
 * 8/3, 11/4, 3}, a positive (a growth, as of the work of a reduction) or negative (a
 * fall, as of one process's share of a fixed problem: c1 / P), and b in {0, 1, 2}
 * (a time's |a| at most 1, a fall steeper in loops whose trip counts grow: below);
 * (a, b) = (0, 0) is the constant t = c0.  Every
 * candidate's c0 and c1 are its linear least squares fit (closed form), and the model
 * predicts the time at any P.
 *
 * The criterion: leave-one-out cross-validation.  Each candidate is fitted to the
 * recordings but one and predicts the one left out; its error is the mean over the left
 * out recordings of the symmetric relative error |pred - t| / ((|pred| + |t|) / 2), in %
 * (SMAPE).  It measures what the model is for, predicting a count not recorded, and it
 * works with 3 to 6 recordings where adjusted R^2 does not (the constant has R^2 = 0 by
 * definition, so it cannot be compared, and with 3 points one of the 110 growing
 * candidates fits almost any noise).  It penalizes the growing term by itself: fitted
 * to noise, it extrapolates the noise.  Then simpler is preferred: a growing model
 * replaces the constant only if its error is lower than the constant's by more than
 * PZ_SCALE_FIT_TOLERANCE percentage points, because recordings of one computation vary
 * by a few percent from run to run and, with 3 points, a monotone noise of +-2% is
 * fitted exactly by log2(P) while the constant's error stays below about 2.7% (4/3 of
 * the noise's amplitude).  The price: a growth smaller than that over the recorded
 * counts is taken for noise.  Among growing models the simplest whose error is within
 * PZ_SCALE_FIT_SIMPLER points of the lowest wins (each power of log2(P) counts 2, a
 * fractional exponent 1 for a half and 2 for a third or a quarter, an exponent beyond 2
 * one more): with 3 to 6 recordings, a form of P^(5/3) * log2(P)^2 that predicts the
 * left-out ones a little better than 1 / P is fitting their noise.  A tie in
 * complexity goes to the lower error, then (within 1e-9 points) to the smaller |a|, a
 * growth before a fall, then the smaller b.
 *
 * Every fall is also tried through the origin, c0 held at 0 (t = c1 * log2(P)^b / P^a,
 * one coefficient, fitted and cross-validated so): one process's share of a fixed
 * problem with no part that does not shrink.  Its two-coefficient fit to noisy
 * recordings of such a share often has a c0 a little below 0 (0.206, 0.099 and 0.052 s
 * at 2, 4 and 8 processes give -0.0017 + 0.414 / P), which the rule of signs below
 * drops; without the fall through the origin a form that levels off, such as
 * 0.0294 + 0.88 * log2(P) / P^(7/3), was chosen instead and kept three times the time
 * at 32 processes.  It counts as complex as its two-coefficient form, so it is chosen
 * where it predicts the left-out recordings better or where that form is dropped.
 *
 * And the growth must show below the largest count: the growing model wins only if,
 * fitted to the other recordings, its form predicts the largest count's time with at
 * most PZ_SCALE_FIT_FORWARD (half) of the error the constant makes there.  A single
 * recording off at the largest count (a computation of 0.18 ms taking 0.35 ms once,
 * preempted) is fitted by a steep term, P^3 * log2(P)^2, nearly 0 at the smaller
 * counts: it predicts both folds leaving out a smaller count almost exactly and wins
 * the mean, whatever the largest count's value, then multiplies the outlier by 200 at
 * 32 processes.  Fitted to the smaller counts only, the steep form is as flat as they
 * are and misses the largest count as much as the constant does; a real growth,
 * recorded at the smaller counts too, predicts most of what the constant misses.  So
 * fitted, the form must also change by more than PZ_SCALE_FIT_TOLERANCE percent
 * (symmetric) between the smallest and the largest of the other counts: a smaller
 * change is the noise of one computation's recordings, which a steep form predicting
 * the largest count from it extrapolates; and the recordings there must change by as
 * much, since a form of one coefficient is not flat between two equal recordings (1, 1
 * and 2 at 2, 4 and 8 processes: c1 * log2(P) / P^(1/4) through the origin, fitted to
 * 1 and 1, gives 0.70 and 1.18 there and 1.49 at 8).  The last stage of a pipeline,
 * filtering a chunk of a fixed size, took 173, 176 and 194 us at 2, 4 and 8 processes
 * (the 8 on a busier machine); c0 + c1 * P^2 through the first two predicts the third
 * within 2.5% where the constant misses it by 10.4%, and gave 532 us at 32 processes
 * where 180 were measured: its change from 2 to 4, 1.8%, told nothing.
 *
 * A time stays above 0.  A growing candidate is dropped, before it is cross-validated,
 * when its fit to all the recordings has
 *   - a growing term (a > 0, or a = 0 and b > 0) with a negative coefficient:
 *     0.244 - 0.000345 * P^(5/2), from noisy recordings at 2, 4 and 8 processes, is
 *     below 0 from 14 on;
 *   - a falling term (a < 0) with a coefficient that is not positive, or with c0 < 0:
 *     the first is a rise levelling off at c0, a ceiling no recording can show, the
 *     second falls towards c0 and crosses 0 on the way;
 *   - a time below 0 at the smallest recorded count, or 0 where more was recorded.
 * A time recorded as 0 at the largest count is the exception: it has ended (the
 * computation of a step only the smallest recordings make), and a model reaching 0
 * says just that; such a fit is not held to the rule.
 * What is left is above 0 at every count beyond the smallest recorded one, however
 * large: a growth is monotone from there, a fall is c0 >= 0 plus a positive term.  So
 * the fit needs no largest count to check against, and a model does not change with
 * the counts it is asked for.  When every growing candidate is dropped, the constant
 * is chosen.  The folds of the cross-validation are not held to the rule: they measure
 * how well a form predicts, their predictions taken at 0 at least.  Below the smallest
 * recorded count nothing holds: -0.05 + 0.1 * log2(P), fitted at 2, 4 and 8 processes,
 * is -0.05 at 1, where pz_scale_model_at gives 0; its caller must say so.
 *
 * Before all this, the smallest count may break the trend of a share: when the fall
 * through the origin c1 / P, fitted to the recordings but the smallest count's, predicts
 * each of them within PZ_SCALE_FIT_TOLERANCE percent (symmetric) and misses the
 * smallest count's by more, that fall is the model.  The larger counts agree on one
 * process's share of a fixed problem, the smallest is off it, and the counts asked for
 * lie beyond the larger ones: a recording with no more processes than cores, each with
 * its cache to itself, computes faster per unit of work than those sharing the cores,
 * and one whose data does not fit the cache slower.  Left in, its offset is fitted: an
 * update of a vector took 13.6, 7.45 and 3.56 ms at 2, 4 and 8 processes on 2 cores
 * (t * P 27.2, 29.8 and 28.5 ms), fitted by 0.00126 + 0.0494 * log2(P) / P^2 within
 * 0.3%, which gave 1.5 ms at 32 processes where 1.0 were measured; 0.0295 / P from 4
 * and 8 gives 0.92.  A fixed part is no break: t = c0 + c1 / P has t * P = c1 + c0 * P,
 * and the share fitted to 4 and 8 misses 2 by 2.8 c0 and 8 by 3.2 c0 (its c1 is the
 * mean of t * P weighted 4 to 1, c1 + 4.8 c0), so whenever it misses the smallest count
 * by more than the tolerance it misses the largest by more too.  The price: a fixed
 * part whose growth hides in the noise of the larger counts, while the smallest shows
 * it, is taken for the smallest count's offset and lost.
 *
 * A time's work does not fall: a computation's time is fitted with no fall steeper
 * than 1 / P (|a| <= 1 for a < 0), so that its total over the processes, t * P, does
 * not shrink beyond the recordings.  A process's share of a fixed problem falls as
 * 1 / P; a steeper fall over the recorded counts is work per process that shrinks
 * faster than the share, which only the caches give (a share that fits them once the
 * processes are more), and which ends once it fits: extrapolated, a transpose's
 * unpacking of 0.100, 0.0335 and 0.0168 s at 2, 4 and 8 processes (t * P 0.200,
 * 0.134, 0.134) took 0.0115 + 0.345 / P^2, a fixed part that is the fit's, 190% above
 * the time from a real recording at 32.  An amount (bytes, the items of a block) may
 * fall faster: one pair's block of an all-to-all of a fixed problem is 1 / P^2 of it.
 * So may the time of a computation made at every iteration of loops whose trip counts
 * grow with P (pz_scale_fit_in_loops): what does not fall faster than 1 / P is the work
 * of all the iterations, t times the trips.  A SUMMA-like product's step k of P
 * multiplies blocks of N / rows x N / P by N / P x N / cols, N^3 / P^2 of work per step
 * and N^3 / P per process over the P steps; held to 1 / P, the step's 0.66, 0.21 and
 * 0.05 ms at 2, 4 and 8 processes became a constant 0.30 ms.  With trips growing as
 * P^g over the recorded counts, the fall may be as steep as 1 / P^(1 + g), with the
 * same complexity and the same cross-validation choosing among the forms.
 *
 * Nor does a time grow faster than P (a <= 1, times log2(P)^b): one process's work
 * grows with P as far as it handles an item per peer (the counts of an all-to-all, a
 * bucket per process: P, sorted: P * log2(P)), and its total over the processes, t *
 * P, no faster than P^2 * log2(P)^2.  With 3 recordings the exponent is not checked
 * by any of them: among the many forms, one goes through almost any 3 rising times, and
 * predicts each left out as well as the two others allow.  A steeper rise over the
 * recorded counts is the recordings': on a machine of few cores each larger count
 * shares them among more processes, whose computations take longer (caches shared,
 * MPI's busy polling), up to a point no recording shows; extrapolated as a steep form,
 * that rise has no end.  A computation of 8.97, 12.6 and 75.5 us at 2, 4 and 8
 * processes on 2 cores was 8.85e-6 + 1.45e-8 * P^3 * log2(P)^2, 11.9 ms at 32; under
 * the rule no growth passes the forward check above and the constant, 32 us, is kept.
 * The price: a time that does grow faster than P per process (a table of P x P entries
 * on every process) is predicted too low beyond the recorded counts, and a rise of
 * the recordings' own that P * log2(P)^2 follows is still extrapolated (0.90, 1.11 and
 * 1.94 ms at 2, 4 and 8 processes on 2 cores: 0.000871 + 1.49e-5 * P * log2(P)^2,
 * 12.8 ms at 32).  An amount may grow faster: a root gathering P items from every
 * process receives P^2.
 *
 * The number of counts: with 1 recording the model is the constant (nothing tells a
 * growth); with 2, every growing candidate fits both exactly and none can be told
 * better, so at least 3 distinct counts are needed (PZ_SCALE_FIT_TOO_FEW). */
#ifndef PZ_SCALE_FIT_H
#define PZ_SCALE_FIT_H

#include <stddef.h>
#include <stdint.h>

/* Percentage points of cross-validated error a growing model must gain over the
 * constant to be chosen (above). */
#define PZ_SCALE_FIT_TOLERANCE 5.0

/* Percentage points of cross-validated error a more complex growing model must gain
 * over a simpler one to be chosen (above). */
#define PZ_SCALE_FIT_SIMPLER 2.0

/* The largest share of the constant's error at the largest count that a growing model
 * fitted without that count may keep there to be chosen (above). */
#define PZ_SCALE_FIT_FORWARD 0.5

/* Dimensions of a process grid a model may take its term from. */
#define PZ_SCALE_FIT_DIMS 3

/* One recording: the process count and the computation's time in seconds, and, when
 * known, the recording's process grid (MPI_Dims_create's dims, dims[0] varying slowest,
 * 1 beyond its dimensions; all 0 when unknown). */
struct pz_scale_point {
    int procs;
    double time;
    int dims[PZ_SCALE_FIT_DIMS];
};

/* The chosen model. */
struct pz_scale_model {
    double c0, c1;         /* c1 = 0 for the constant */
    int origin;            /* a fall through the origin: c0 held at 0 (above) */
    int a_num, a_den;      /* a = a_num / a_den, the fraction in lowest terms */
    int b;                 /* the power of log2(P) */
    int cols;              /* not 0: P in the term is Q = 2^ceil(log2(P) / 2) instead, the
                              columns of NPB CG's grid of a power of two processes (its
                              row sums' stages log2(Q), its segments c / Q) */
    /* A grid model (scale_form.c's exact forms of message sizes): when grid_ndims > 0,
       the term is dims[0]^grid[0] * dims[1]^grid[1] * dims[2]^grid[2] of the process
       grid in grid_ndims dimensions instead of P^a * log2(P)^b: a block's side of a
       fixed problem, c1 / dims[1], or a face of it, c1 / (dims[1] * dims[2]). */
    int grid_ndims;
    int8_t grid[PZ_SCALE_FIT_DIMS];
    uint8_t ascending;     /* the grid at a count not recorded is laid out smallest side
                              first, as the recordings' were (pz_scale_grid_layout) */
    double max_error;      /* on the recordings: |t(P) - t| / t, in %, the largest */
    double mean_error;     /* ... and the mean (a recorded 0 is compared with the mean
                              recorded time, an all-zero recording with nothing) */
    double cv_error;       /* the criterion: leave-one-out SMAPE, % (0 with 1 point) */
    int npoints;           /* recordings fitted */
};

/* What the values fitted are (above: a time's work does not fall). */
enum pz_scale_quantity {
    PZ_SCALE_TIME,    /* a computation's time */
    PZ_SCALE_AMOUNT   /* bytes, items, counts */
};

enum pz_scale_fit_status {
    PZ_SCALE_FIT_OK = 0,
    PZ_SCALE_FIT_NO_POINTS = -1,      /* no recording */
    PZ_SCALE_FIT_BAD_COUNT = -2,      /* a process count below 1 */
    PZ_SCALE_FIT_BAD_TIME = -3,       /* a time that is NaN, infinite or negative */
    PZ_SCALE_FIT_REPEATED_COUNT = -4, /* two recordings at the same count */
    PZ_SCALE_FIT_TOO_FEW = -5         /* 2 recordings: the form cannot be chosen */
};

/* Fits the n recordings of points (in any order), values of the quantity q, and
 * chooses the model as above.  Returns PZ_SCALE_FIT_OK and fills *out, or an error
 * status with a one-line message in err (errlen bytes) naming the offending recording;
 * *out is then untouched. */
int pz_scale_fit(const struct pz_scale_point *points, size_t n, enum pz_scale_quantity q,
                 struct pz_scale_model *out, char *err, size_t errlen);

/* pz_scale_fit of a computation's time (PZ_SCALE_TIME) made at every iteration of loops
 * whose trip counts, multiplied, grow as P^loops over the recorded counts (loops =
 * log(trips at the largest count / trips at the smallest) / log(largest / smallest);
 * 0 or less: no growth, as pz_scale_fit): its falls may be as steep as
 * 1 / P^(1 + loops) (above). */
int pz_scale_fit_in_loops(const struct pz_scale_point *points, size_t n, double loops,
                          struct pz_scale_model *out, char *err, size_t errlen);

/* The model a class of processes (the root, a corner) takes from its n recordings p
 * when its own fit is own, the model over all processes shared, and all[i] the mean
 * over all processes recorded at p[i]'s count: own, unless shared at the class's level
 * meets p better, by their mean relative errors (by more than 1e-9 points): shared
 * times the mean over the recordings of p[i].time / all[i].time (those with
 * all[i].time > 0; none: 1), its errors on p.  That is the class's processes at their
 * own level, in the shape in P the mean over every process shows, which a class of
 * few processes, one alone, cannot tell as well: each of its recordings keeps the
 * noise of those few, which the mean over all evens out, and a noisy recording can
 * turn its fit to another form.  A class whose time does scale otherwise (the root
 * gathering from every process) is met better by its own fit and keeps it. */
struct pz_scale_model pz_scale_fit_class(const struct pz_scale_point *p,
                                         const struct pz_scale_point *all, size_t n,
                                         const struct pz_scale_model *own,
                                         const struct pz_scale_model *shared);

/* The model's time at procs processes (procs >= 1), never below 0 (0 where the formula
 * is at or below 0); a grid model's on MPI_Dims_create's layout of procs in its
 * dimensions. */
double pz_scale_model_at(const struct pz_scale_model *m, double procs);

/* Whether the model m of the n >= 1 times recorded at p keeps the rule above: a
 * coefficient of the sign its term needs, and a value at the smallest recorded count
 * above 0 (or 0 where 0 was recorded).  The model is then above 0 at every larger
 * count.  Any model keeps it when the largest count's time is 0.  A grid model is held
 * to a falling term's terms (its dimensions do not grow with P alone). */
int pz_scale_model_stays_positive(const struct pz_scale_model *m,
                                  const struct pz_scale_point *p, size_t n);

/* The term c1 multiplies at procs processes: P^a * log2(P)^b, or a grid model's product
 * of dimensions of the grid dims (MPI_Dims_create's layout of procs when NULL). */
double pz_scale_model_term(const struct pz_scale_model *m, double procs, const int *dims);

/* The exponent a as a number. */
double pz_scale_model_a(const struct pz_scale_model *m);

/* Writes the formula into buf (len bytes, truncated to fit): the coefficients with 3
 * significant digits, exponents as fractions, e.g. "2", "1 + 0.5 * P",
 * "0.0012 + 4.5e-5 * P^(3/2) * log2(P)", "10 - 0.1 * log2(P)^2"; a fall as a division,
 * "0.5 + 8 / P", "0.5 + 8 * log2(P) / P^2", through the origin "8 / P"; a grid model with the dims of
 * MPI_Dims_create, "0 + 1.6e3 / dims[1]", "16 + 800 * dims[0] / (dims[1] * dims[2])". */
void pz_scale_model_format(const struct pz_scale_model *m, char *buf, size_t len);

#endif
