/* What the three formats of the scaling report share (scale_report_table.c): the
 * intervals of every predicted run matched into one list, each interval's values per
 * machine and count with its speedup and scaling efficiency, and the findings. */
#ifndef PZ_SCALE_REPORT_TABLE_H
#define PZ_SCALE_REPORT_TABLE_H

#include "scale_report.h"

/* One interval at one count on one machine. */
struct pz_scale_value {
    int ranks, recorded;
    int present;                       /* the predicted run has the interval */
    struct pz_characteristics c;       /* pz_characteristics_of, zeros if not present */
    int relative;                      /* speedup and scaling efficiency are defined */
    double speedup, scaling_efficiency;
};

/* A series with its entries in increasing count. */
struct pz_scale_machine {
    const char *machine;
    struct pz_scale_entry *entries;
    size_t n;
    size_t base;                       /* the entry of the base count */
    size_t first;                      /* its first value's index in an interval's values */
};

/* One interval of the report. */
struct pz_scale_interval {
    const struct pz_node *node;        /* as the first run that has it describes it */
    char region[512];                  /* its region name, as pz_scale_formula.interval */
    struct pz_scale_value *values;     /* machine m's entry e: values[m.first + e] */
};

/* The parts of the lost time a finding names as the cause: communication (the time in
 * communication calls less the waiting, which is synchronization), synchronization,
 * other MPI calls, idle time and insufficient parallelism add up to the lost time; load
 * imbalance, the computation the processes lack of the longest, is what makes others
 * wait. */
enum pz_scale_cause {
    PZ_SCALE_CAUSE_COMMUNICATION,
    PZ_SCALE_CAUSE_SYNCHRONIZATION,
    PZ_SCALE_CAUSE_LOAD_IMBALANCE,
    PZ_SCALE_CAUSE_IDLE,
    PZ_SCALE_CAUSE_INSUFFICIENT_PARALLELISM,
    PZ_SCALE_CAUSE_OTHER_MPI,
    PZ_SCALE_NCAUSES
};

/* Per machine: the interval that stops scaling first, or none. */
struct pz_scale_finding {
    int interval;                      /* index in the report's intervals, -1: none stops */
    size_t entry;                      /* the first count where it stopped (none: the
                                          largest count) */
    enum pz_scale_cause cause;         /* the largest part of its lost time there */
    double cause_time;
};

/* What can remove an interval's lost time: a faster network (communication, and
 * synchronization beyond the load imbalance: waiting that unequal computation does not
 * explain follows from late transfers), nothing a machine offers (load imbalance,
 * synchronization within it, insufficient parallelism: the processes wait for the
 * slowest's computation), or it depends (idle time, other MPI calls). */
enum pz_scale_remedy {
    PZ_SCALE_REMEDY_NETWORK,
    PZ_SCALE_REMEDY_NONE,
    PZ_SCALE_REMEDY_DEPENDS
};

/* The machines compared (scale_report_compare.c), when there are two or more. */
struct pz_scale_comparison {
    int ranks;                         /* the largest count every machine has; 0: no
                                          comparison */
    size_t fastest, slowest;           /* by the whole run's time at ranks, the first
                                          given on a tie */
    enum pz_scale_remedy remedy;       /* of the slowest's finding, if an interval stops */
};

/* The sentences of a comparison, in this order; one that does not apply is empty. */
enum pz_scale_comparison_sentence {
    PZ_SCALE_SAY_FASTEST,              /* the fastest and its time ratios at ranks */
    PZ_SCALE_SAY_KEEPS,                /* up to which count each keeps the whole run */
    PZ_SCALE_SAY_FIX,                  /* the slowest's first stop on the others */
    PZ_SCALE_SAY_REMEDY,               /* what kind of lost time it is */
    PZ_SCALE_SAY_NODES,                /* what the processes per node show */
    PZ_SCALE_NSAY
};

struct pz_scale_table {
    const struct pz_scale_input *in;
    struct pz_scale_machine *machines;  /* in->nseries of them */
    size_t nvalues;                     /* per interval: all entries of all machines */
    struct pz_scale_interval *intervals;
    size_t nintervals;
    struct pz_scale_finding *findings;  /* one per machine */
    struct pz_scale_comparison comparison;
};

/* Builds the table of in.  Returns 0, or -1 if memory failed (t then needs no free). */
int pz_scale_table_build(const struct pz_scale_input *in, struct pz_scale_table *t);
void pz_scale_table_free(struct pz_scale_table *t);

/* Interval i's value for machine m's entry e. */
const struct pz_scale_value *pz_scale_table_value(const struct pz_scale_table *t, size_t i,
                                                  size_t m, size_t e);

/* The first entry of machine m where interval i's scaling efficiency is below
 * PZ_SCALE_STOP_EFFICIENCY, after the base entry; m's n if none. */
size_t pz_scale_stop_entry(const struct pz_scale_table *t, size_t i, size_t m);

/* Machine m's entry at `ranks` processes, or m's n. */
size_t pz_scale_entry_at(const struct pz_scale_table *t, size_t m, int ranks);

/* Interval i's value for machine m at `ranks` processes; NULL when m was not predicted
 * at that count or its run there lacks the interval. */
const struct pz_scale_value *pz_scale_value_at(const struct pz_scale_table *t, size_t i,
                                               size_t m, int ranks);

/* Compares the machines of t from its values and findings (t->comparison.ranks stays 0
 * with fewer than two machines or no count they all have). */
void pz_scale_compare(struct pz_scale_table *t);

/* Machine m's whole run's time at the comparison's count. */
double pz_scale_whole_time(const struct pz_scale_table *t, size_t m);

/* The largest count up to which machine m keeps the whole run's scaling efficiency at
 * PZ_SCALE_STOP_EFFICIENCY or more at every count from its base count on. */
int pz_scale_keeps_up_to(const struct pz_scale_table *t, size_t m);

/* Whether machine m keeps interval i's scaling efficiency at PZ_SCALE_STOP_EFFICIENCY or
 * more at `ranks` processes (fixes the interval there). */
int pz_scale_fixes(const struct pz_scale_table *t, size_t i, size_t m, int ranks);

/* Sentence `which` of the comparison, "" if it does not apply (no comparison, no
 * interval stopping on the slowest, processes per node unknown or all equal). */
void pz_scale_comparison_text(const struct pz_scale_table *t,
                              enum pz_scale_comparison_sentence which, char *buf, size_t len);

/* The JSON key of a remedy: "network", "none", "depends". */
const char *pz_scale_remedy_key(enum pz_scale_remedy remedy);

/* The time of a cause in c, its JSON key and its words in a sentence. */
double pz_scale_cause_time(const struct pz_characteristics *c, enum pz_scale_cause cause);
const char *pz_scale_cause_key(enum pz_scale_cause cause);
const char *pz_scale_cause_words(enum pz_scale_cause cause);
const char *pz_scale_cause_name(enum pz_scale_cause cause);   /* "load imbalance" */

/* How the reports name interval i: "the whole run", "interval 1 at x.c:10". */
void pz_scale_interval_label(const struct pz_scale_table *t, size_t i, char *buf, size_t len);

/* The finding of machine m as one sentence, without a trailing newline. */
void pz_scale_finding_sentence(const struct pz_scale_table *t, size_t m, char *buf, size_t len);

/* What a plot of the HTML report shows against the processes (scale_report_svg.c). */
enum pz_scale_quantity {
    PZ_SCALE_PLOT_TIME,                /* execution time, log scale */
    PZ_SCALE_PLOT_EFFICIENCY,          /* parallelization efficiency */
    PZ_SCALE_PLOT_SCALING              /* scaling efficiency */
};

/* Writes an SVG plot of interval i's quantity q against the processes (log scale):
 * one polyline per machine in its colour, a square on a recorded count, a circle on a
 * requested one, both axes labelled. */
void pz_scale_plot(FILE *out, const struct pz_scale_table *t, size_t i,
                   enum pz_scale_quantity q);

/* Machine m's colour in the plots, "#rrggbb". */
const char *pz_scale_plot_color(size_t m);

/* Writes s as HTML text: '<', '>', '&' and '"' escaped (scale_report_html.c). */
void pz_scale_html_text(FILE *out, const char *s);

/* The formats (scale_report_text.c, scale_report_json.c, scale_report_html.c). */
int pz_scale_report_text(FILE *out, const struct pz_scale_table *t);
int pz_scale_report_json(FILE *out, const struct pz_scale_table *t);
int pz_scale_report_html(FILE *out, const struct pz_scale_table *t);

#endif
