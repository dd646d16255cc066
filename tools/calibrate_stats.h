/* The statistics prognoz calibrate gives of a sample of times, and the one its keys are
 * fitted to (docs/calibrate.md, "What a program pays"). */
#ifndef PZ_CALIBRATE_STATS_H
#define PZ_CALIBRATE_STATS_H

/* A time this many times the sample's median, or this much longer than its lower
 * quartile, whichever is less, waited for the scheduler (another process's time slice:
 * 1 to 4 ms at 1000 to 250 Hz), not for the transport: the trimmed mean leaves it out.
 * The factor catches the stalls of small messages, the seconds those of large ones,
 * whose median is itself a fraction of a time slice.  The seconds count from the lower
 * quartile: a large size is timed in a few batches of one round trip each, and a load
 * may add a time slice to half of them or more, the median then among them, not three
 * in four. */
#define PZ_CAL_STALL_TIMES 20.0
#define PZ_CAL_STALL_SECONDS 1e-3

struct pz_cal_stats {
    double lower_quartile;   /* linear between order statistics */
    double median;
    double mean;             /* of all the times */
    double trimmed;          /* the mean of the times up to pz_cal_stall_bound */
    int stalls;              /* times the trimmed mean left out */
};

/* The longest time of a sample of this lower quartile and median that is not a stall:
 * the lesser of PZ_CAL_STALL_TIMES x median and lower_quartile + PZ_CAL_STALL_SECONDS. */
double pz_cal_stall_bound(double lower_quartile, double median);

/* The statistics of the n times t (not modified; n >= 1).  NAN in each for none. */
void pz_cal_stats(const double *t, int n, struct pz_cal_stats *out);

/* The time the keys are fitted to: the trimmed mean of the n times t.  A program pays
 * every exchange's time, the slow ones too, so its loop costs the mean per message,
 * not a low quantile; a scheduler's stall is left out as the machine's load rather
 * than the transport's. */
double pz_cal_typical(const double *t, int n);

#endif
