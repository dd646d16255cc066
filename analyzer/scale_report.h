/* The scaling report (docs/predict.md, "Scaling: the report"): a program recorded at a
 * few process counts, modelled as a function of the count P, synthesized and predicted
 * at the recorded counts and at requested ones, on one machine or several.  Per
 * interval, machine and count it gives the predicted execution time, the speedup and
 * the scaling efficiency relative to the smallest recorded count, the parallelization
 * efficiency and the lost time with its parts, all by the definitions of
 * docs/characteristics.md (pz_characteristics_of); per interval the fitted models of
 * its computation; per machine the interval that stops scaling first and why; with
 * several machines their comparison; and the model's notes.  As text, JSON or an HTML
 * page with SVG plots. */
#ifndef PZ_SCALE_REPORT_H
#define PZ_SCALE_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis.h"
#include "report.h"

/* An interval stops scaling at the first count whose scaling efficiency is below this. */
#define PZ_SCALE_STOP_EFFICIENCY 0.5
/* ... among the intervals whose execution time at the base count is at least this
 * share of the whole run's (a short interval's ratios are noise). */
#define PZ_SCALE_SIGNIFICANT_SHARE 0.01

/* The predicted run at one process count on one machine. */
struct pz_scale_entry {
    int ranks;                       /* P: MPI processes */
    int recorded;                    /* P is a recorded count (a's run was still
                                        synthesized from the model and predicted) */
    const struct pz_analysis *a;     /* the analysis of the predicted run */
};

/* One machine's predicted runs, in any order, counts distinct. */
struct pz_scale_series {
    const char *machine;
    const struct pz_scale_entry *entries;
    size_t n;
};

/* A fitted model of an interval's computation, formatted by the model. */
struct pz_scale_formula {
    const char *interval;    /* the interval's region name, "interval 1 at x.c:10"
                                (trace/names.h: base name of the file, "sequential "
                                first for a sequential interval); "" for the whole run */
    const char *class_name;  /* the class of processes it holds for: "all", "corner" ... */
    const char *formula;     /* seconds per process, e.g. "1 + 0.5 * P" */
    double error;            /* its error on the recordings, % */
};

/* A recording the model was built from. */
struct pz_scale_recording {
    const char *path;
    int ranks;
};

struct pz_scale_input {
    const struct pz_scale_recording *recordings;
    size_t nrecordings;
    const struct pz_scale_series *series;        /* at least one, each with an entry */
    size_t nseries;
    const struct pz_scale_formula *formulas;
    size_t nformulas;
    const char *const *notes;    /* one line each: what could not be extrapolated and its
                                    treatment, an oversubscribed recording ... */
    size_t nnotes;
    const int *procs_per_node;   /* per series, each at least 1; NULL: not known (the
                                    comparison then says nothing of nodes) */
    size_t model_notes;          /* the first model_notes notes are the model's: text and
                                    HTML group them and show at most
                                    PZ_SCALE_SHOWN_MODEL_NOTES lines of them
                                    (scale_notes.h), JSON every one */
};

/* The lines of the model's notes the text and HTML reports show (scale_notes.h). */
#define PZ_SCALE_SHOWN_MODEL_NOTES 64

/* With two or more series the report also compares the machines (docs/predict.md,
 * "Scaling: the report", **Comparison.**): which runs the whole program fastest at the
 * largest count they share and by how much, up to which count each keeps the whole
 * run's scaling efficiency at PZ_SCALE_STOP_EFFICIENCY or more, whether the others fix
 * the interval that stops scaling first on the slowest, and whether its lost time is
 * the kind a faster network removes.  With one series the report has no comparison.
 *
 * Writes the report.  The intervals are those of the predicted runs, matched across
 * counts and machines by file, line, id and level (each listed once, in the report
 * order of the first run that has it).  The base count of a series is its smallest
 * recorded count (its smallest count if none is recorded): speedup(P) = T(P0) / T(P),
 * scaling efficiency(P) = T(P0) * P0 / (T(P) * P), with T the interval's execution time
 * on that machine; undefined (JSON null, "-") when T(P) is 0 or the base run lacks the
 * interval.  Returns 0, or -1 if in has no series or a series no entry, or if memory
 * or writing failed. */
int pz_scale_report_write(FILE *out, enum pz_report_format format,
                          const struct pz_scale_input *in);

#endif
