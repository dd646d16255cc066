/* The scaling report on predicted runs built by hand: one program at 2, 4 and 8
 * processes on two machines, "fast" and "slow", whose barrier costs 1 and 4 ms.
 * Times in milliseconds; P processes, b the barrier's cost on rank 0:
 *
 *   every rank:  MPI_Init 0..1, enters interval 1 (src/x.c:10) at 1
 *   rank 0:      computes to 2 + 16/P, MPI_Barrier from there to E = 2 + 16/P + b
 *   rank p > 0:  computes to 1 + 16/P, MPI_Barrier from there to E
 *   every rank:  leaves the interval at E, MPI_Finalize E..E + 0.5 (the last rank
 *                E..E + 0.25, so that the whole run has 0.25 ms of idle time)
 *
 * Interval 1, by docs/characteristics.md:
 *   T = E - 1 = 1 + 16/P + b                     fast: 10, 6, 4    slow: 13, 9, 7
 *   MPI = communication = lost = b + (P-1)(1+b)  fast: 3, 7, 15    slow: 9, 19, 39
 *   productive = CPU = (1 + 16/P) + (P-1) 16/P = 17 at every P
 *   efficiency = 17 / (T P)                      fast: 0.85, 0.708333, 0.53125
 *                                                slow: 0.653846, 0.472222, 0.303571
 *   synchronization (barrier: last enter - own enter) = P - 1 = load imbalance
 *   (the longest CPU time, rank 0's, less each other's) = 1, 3, 7; idle 0
 * Speedup T(2)/T(P) and scaling efficiency T(2) 2 / (T(P) P), 2 and 4 recorded, 8 not:
 *   fast: 1, 10/6 = 1.666667, 10/4 = 2.5     and 1, 20/24 = 0.833333, 20/32 = 0.625
 *   slow: 1, 13/9 = 1.444444, 13/7 = 1.857143 and 1, 26/36 = 0.722222, 26/56 = 0.464286
 * The whole run: T = E + 0.5 = 2.5 + 16/P + b   fast: 11.5, 7.5, 5.5  slow: 14.5, 10.5, 8.5
 *   scaling efficiency fast: 23/30 = 0.766667, 23/44 = 0.522727; slow: 29/68 = 0.426471
 *   at 8; idle 0.25.
 * Findings: on fast nothing falls below 0.5 by 8 processes; on slow interval 1 does at 8
 * (0.464, before the whole run is considered), its largest lost part there communication
 * less synchronization, 39 - 7 = 32 ms (synchronization 7, imbalance 7, idle 0).
 * Comparison at 8, the largest count: fast runs the whole program in 5.5 ms, slow in
 * 8.5, 8.5 / 5.5 = 1.545 times as long; the whole run keeps 0.5 on fast up to 8, on slow
 * up to 4 (29/42 = 0.690 at 4, 0.426 at 8); slow's interval 1 at 8 is 0.625 (4 ms) on
 * fast, which fixes it; communication is what a faster network removes. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "scale_report.h"
#include "trace_builder.h"

#define EPS 1e-6
#define MS TB_MS
#define S(ms) ((ms) / 1000.0)

static const int counts[3] = { 2, 4, 8 };
static char *dirs[2][3];
static struct pz_analysis runs[2][3];

/* The run at P processes on a machine whose barrier costs b ms on rank 0. */
static void build(int m, int k, double b)
{
    int P = counts[k];
    double E = 2 + 16.0 / P + b;
    struct tb *t;
    uint32_t interval;
    char err[1024];

    dirs[m][k] = tb_tempdir();
    cr_assert_not_null(dirs[m][k], "cannot make a temporary directory");
    t = tb_open(dirs[m][k], P);
    cr_assert_not_null(t, "cannot open an OTF2 archive in %s", dirs[m][k]);
    interval = tb_interval(t, 1, "src/x.c", 10);
    for (int p = 0; p < P; p++) {
        double computed = p ? 1 + 16.0 / P : 2 + 16.0 / P;

        tb_call(t, p, "MPI_Init", 0, MS(1));
        tb_enter(t, p, MS(1), interval);
        tb_collective_call(t, p, "MPI_Barrier", MS(computed), MS(E), OTF2_COLLECTIVE_OP_BARRIER,
                           TB_WORLD, TB_NO_ROOT);
        tb_leave(t, p, MS(E), interval);
        tb_call(t, p, "MPI_Finalize", MS(E), MS(E + (p == P - 1 ? 0.25 : 0.5)));
    }
    cr_assert_eq(tb_close(t), 0, "the trace builder failed");
    cr_assert_eq(pz_analyze(dirs[m][k], &runs[m][k], err, sizeof(err)), 0, "pz_analyze: %s", err);
}

static void setup(void)
{
    for (int k = 0; k < 3; k++) {
        build(0, k, 1);
        build(1, k, 4);
    }
}

static void teardown(void)
{
    for (int m = 0; m < 2; m++)
        for (int k = 0; k < 3; k++) {
            pz_analysis_free(&runs[m][k]);
            if (dirs[m][k])
                tb_remove(dirs[m][k]);
            free(dirs[m][k]);
            dirs[m][k] = NULL;
        }
}

TestSuite(scale_report, .init = setup, .fini = teardown);

static const struct pz_scale_recording recordings[] = { { "run2", 2 }, { "run4", 4 } };
static const struct pz_scale_formula formulas[] = {
    { "", "all", "0.0005 + 0.017 / P", 1.5 },
    { "interval 1 at x.c:10", "all", "0.017 * P^-1", 0.25 },
};
static const char *const notes[] = {
    "the recording run4 was oversubscribed and CPU times were not recorded: its computation "
    "is timed by the wall clock",
};

/* The report of both machines, entries given in the order 8, 2, 4 (the report sorts). */
static char *report(enum pz_report_format format)
{
    struct pz_scale_entry entries[2][3];
    struct pz_scale_series series[2] = { { "fast", entries[0], 3 }, { "slow", entries[1], 3 } };
    struct pz_scale_input in = { recordings, 2, series, 2, formulas, 2, notes, 1, NULL, 0 };
    static const int order[3] = { 2, 0, 1 };
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    for (int m = 0; m < 2; m++)
        for (int k = 0; k < 3; k++)
            entries[m][k] = (struct pz_scale_entry){ counts[order[k]], order[k] < 2,
                                                     &runs[m][order[k]] };
    cr_assert_not_null(out);
    cr_assert_eq(pz_scale_report_write(out, format, &in), 0);
    fclose(out);
    return text;
}

/* The text row of machine at count after the heading `section`. */
static const char *text_row(const char *text, const char *section, const char *machine,
                            int ranks)
{
    const char *s = strstr(text, section);
    char start[64];

    cr_assert_not_null(s, "no section \"%s\" in\n%s", section, text);
    snprintf(start, sizeof(start), "\n%-16s %9d", machine, ranks);
    s = strstr(s, start);
    cr_assert_not_null(s, "no row %s %d in\n%s", machine, ranks, text);
    return s + 1;
}

struct text_values {
    double time, speedup, scaling, efficiency, lost, comm, sync, imbalance, idle;
};

static struct text_values parse_row(const char *row)
{
    struct text_values v;
    char name[32], mark;
    int ranks;

    cr_assert_eq(sscanf(row, "%31s %d%c %lf %lf %lf %lf %lf %lf %lf %lf %lf", name, &ranks, &mark,
                        &v.time, &v.speedup, &v.scaling, &v.efficiency, &v.lost, &v.comm,
                        &v.sync, &v.imbalance, &v.idle), 12, "cannot read the row %.120s", row);
    return v;
}

Test(scale_report, text_table)
{
    char *text = report(PZ_REPORT_TEXT);
    struct text_values v;

    /* slow at 8 processes in interval 1: T 7 ms, speedup 13/7, scaling efficiency 26/56,
       efficiency 17/56, lost = communication 39 ms, synchronization 7, imbalance 7 */
    v = parse_row(text_row(text, "Interval 1 at src/x.c:10", "slow", 8));
    cr_expect_float_eq(v.time, S(7), EPS);
    cr_expect_float_eq(v.speedup, 13.0 / 7, 1e-3);
    cr_expect_float_eq(v.scaling, 26.0 / 56, 1e-3);
    cr_expect_float_eq(v.efficiency, 17.0 / 56, 1e-3);
    cr_expect_float_eq(v.lost, S(39), EPS);
    cr_expect_float_eq(v.comm, S(39), EPS);
    cr_expect_float_eq(v.sync, S(7), EPS);
    cr_expect_float_eq(v.imbalance, S(7), EPS);
    cr_expect_float_eq(v.idle, 0, EPS);
    /* fast at 4 (recorded, marked *): T 6 ms, speedup 10/6, scaling efficiency 20/24 */
    cr_expect_not_null(strstr(text, "fast                     4*"), "%s", text);
    v = parse_row(text_row(text, "Interval 1 at src/x.c:10", "fast", 4));
    cr_expect_float_eq(v.time, S(6), EPS);
    cr_expect_float_eq(v.speedup, 10.0 / 6, 1e-3);
    cr_expect_float_eq(v.scaling, 20.0 / 24, 1e-3);
    cr_expect_float_eq(v.efficiency, 17.0 / 24, 1e-3);
    /* the whole run on fast at 8: T 5.5 ms, scaling efficiency 23/44, idle 0.25 ms */
    v = parse_row(text_row(text, "Interval (whole run)", "fast", 8));
    cr_expect_float_eq(v.time, S(5.5), EPS);
    cr_expect_float_eq(v.scaling, 23.0 / 44, 1e-3);
    cr_expect_float_eq(v.idle, S(0.25), EPS);
    cr_expect_not_null(strstr(text, "Computation model (s per process), all: 0.017 * P^-1 "
                                    "(error 0.2%)"), "%s", text);
    cr_expect_not_null(strstr(text, "Note: the recording run4 was oversubscribed"), "%s", text);
    cr_expect_not_null(strstr(text, "slow: interval 1 at src/x.c:10 stops scaling first: at 8 "
                                    "processes its scaling efficiency is 0.464"), "%s", text);
    cr_expect_not_null(strstr(text, "is communication"), "%s", text);
    cr_expect_not_null(strstr(text, "fast: every interval keeps a scaling efficiency of at "
                                    "least 0.5 up to 8 processes (the whole run: 0.523)"),
                       "%s", text);
    cr_expect_not_null(strstr(text, "\nComparison\nAt 8 processes fast runs the whole program "
                                    "fastest, in 0.005500 s: 1.55 times faster than slow "
                                    "(0.008500 s).\n"), "%s", text);
    cr_expect_not_null(strstr(text, "on fast up to 8 processes, on slow up to 4 processes."),
                       "%s", text);
    cr_expect_not_null(strstr(text, "There it is 0.625 (0.004000 s) on fast: fast fixes it "
                                    "(0.5 or more)."), "%s", text);
    cr_expect_not_null(strstr(text, "on slow is communication, 0.032000 s: time in transfers, "
                                    "which a faster network can remove.\n"), "%s", text);
    free(text);
}

/* A small JSON reader for the keys the report promises. */
enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
    enum jtype type;
    double num;
    char *str;
    struct jv **items;
    char **keys;
    size_t n;
};

static struct jv *jparse(const char **p);

static void skip(const char **p)
{
    while (isspace((unsigned char)**p))
        (*p)++;
}

static char *jstring(const char **p)
{
    char *s = malloc(strlen(*p) + 1), *o = s;

    cr_assert_eq(**p, '"', "a string expected at %.40s", *p);
    for ((*p)++; **p != '"'; (*p)++) {
        cr_assert(**p, "an unterminated string");
        if (**p == '\\')
            (*p)++;
        *o++ = **p;
    }
    (*p)++;
    *o = '\0';
    return s;
}

static void jpush(struct jv *v, char *key, struct jv *item)
{
    v->items = realloc(v->items, (v->n + 1) * sizeof(*v->items));
    v->keys = realloc(v->keys, (v->n + 1) * sizeof(*v->keys));
    v->items[v->n] = item;
    v->keys[v->n++] = key;
}

static void jmembers(const char **p, struct jv *v, char close)
{
    skip(p);
    if (**p == close) {
        (*p)++;
        return;
    }
    for (;;) {
        char *key = NULL;

        skip(p);
        if (close == '}') {
            key = jstring(p);
            skip(p);
            cr_assert_eq(**p, ':', "':' expected at %.40s", *p);
            (*p)++;
        }
        jpush(v, key, jparse(p));
        skip(p);
        if (**p == close) {
            (*p)++;
            return;
        }
        cr_assert_eq(**p, ',', "',' expected at %.40s", *p);
        (*p)++;
    }
}

static struct jv *jparse(const char **p)
{
    struct jv *v = calloc(1, sizeof(*v));
    char *end;

    skip(p);
    if (**p == '{' || **p == '[') {
        v->type = **p == '{' ? J_OBJ : J_ARR;
        (*p)++;
        jmembers(p, v, v->type == J_OBJ ? '}' : ']');
    } else if (**p == '"') {
        v->type = J_STR;
        v->str = jstring(p);
    } else if (!strncmp(*p, "null", 4)) {
        *p += 4;
    } else if (!strncmp(*p, "true", 4) || !strncmp(*p, "false", 5)) {
        v->type = J_BOOL;
        v->num = **p == 't';
        *p += **p == 't' ? 4 : 5;
    } else {
        v->type = J_NUM;
        v->num = strtod(*p, &end);
        cr_assert(end != *p, "a value expected at %.40s", *p);
        *p = end;
    }
    return v;
}

static void jfree(struct jv *v)
{
    for (size_t i = 0; i < v->n; i++) {
        jfree(v->items[i]);
        free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    free(v);
}

static const struct jv *jget(const struct jv *v, const char *key)
{
    cr_assert_eq(v->type, J_OBJ);
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->keys[i], key))
            return v->items[i];
    cr_assert_fail("no key \"%s\"", key);
    return NULL;
}

static const struct jv *jat(const struct jv *v, size_t i)
{
    cr_assert_eq(v->type, J_ARR);
    cr_assert_lt(i, v->n);
    return v->items[i];
}

static double jnum(const struct jv *v, const char *key)
{
    const struct jv *n = jget(v, key);

    cr_assert_eq(n->type, J_NUM, "\"%s\" is not a number", key);
    return n->num;
}

static struct jv *json_report(void)
{
    char *text = report(PZ_REPORT_JSON);
    const char *p = text;
    struct jv *root = jparse(&p);

    skip(&p);
    cr_assert_eq(*p, '\0', "text after the JSON object: %.40s", p);
    free(text);
    return root;
}

Test(scale_report, json_keys)
{
    struct jv *root = json_report();
    const struct jv *intervals = jget(root, "intervals"), *whole, *interval, *slow, *entry;

    cr_assert_eq(intervals->n, 2);
    whole = jat(intervals, 0);
    cr_expect_eq(jnum(whole, "id"), 0);
    cr_expect_str_eq(jget(whole, "file")->str, "");
    cr_expect_eq(jnum(whole, "line"), 0);
    interval = jat(intervals, 1);
    cr_expect_eq(jnum(interval, "id"), 1);
    cr_expect_str_eq(jget(interval, "file")->str, "src/x.c");
    cr_expect_eq(jnum(interval, "line"), 10);
    cr_expect_str_eq(jget(jat(jget(interval, "compute"), 0), "formula")->str, "0.017 * P^-1");
    slow = jat(jget(interval, "machines"), 1);
    cr_expect_str_eq(jget(slow, "machine")->str, "slow");
    cr_assert_eq(jget(slow, "entries")->n, 3);
    /* in increasing count; 2 recorded, the base: speedup 1, scaling efficiency 1 */
    entry = jat(jget(slow, "entries"), 0);
    cr_expect_eq(jnum(entry, "ranks"), 2);
    cr_expect_eq(jget(entry, "recorded")->num, 1);
    cr_expect_float_eq(jnum(entry, "speedup"), 1, EPS);
    cr_expect_float_eq(jnum(entry, "scaling_efficiency"), 1, EPS);
    /* 4 on slow: T 9 ms, speedup 13/9, scaling efficiency 26/36, efficiency 17/36, lost
       = communication 19 ms, synchronization = imbalance 3 ms, idle 0 */
    entry = jat(jget(slow, "entries"), 1);
    cr_expect_eq(jnum(entry, "ranks"), 4);
    cr_expect_float_eq(jnum(entry, "execution_time"), S(9), EPS);
    cr_expect_float_eq(jnum(entry, "speedup"), 13.0 / 9, EPS);
    cr_expect_float_eq(jnum(entry, "scaling_efficiency"), 26.0 / 36, EPS);
    cr_expect_float_eq(jnum(entry, "efficiency"), 17.0 / 36, EPS);
    cr_expect_float_eq(jnum(entry, "lost_time"), S(19), EPS);
    cr_expect_float_eq(jnum(entry, "communication_time"), S(19), EPS);
    cr_expect_float_eq(jnum(entry, "synchronization"), S(3), EPS);
    cr_expect_float_eq(jnum(entry, "load_imbalance"), S(3), EPS);
    cr_expect_float_eq(jnum(entry, "idle_time"), 0, EPS);
    /* 8 on slow, requested */
    entry = jat(jget(slow, "entries"), 2);
    cr_expect_eq(jget(entry, "recorded")->num, 0);
    cr_expect_float_eq(jnum(entry, "scaling_efficiency"), 26.0 / 56, EPS);
    /* the whole run on fast at 8: 23/44 */
    entry = jat(jget(jat(jget(whole, "machines"), 0), "entries"), 2);
    cr_expect_float_eq(jnum(entry, "execution_time"), S(5.5), EPS);
    cr_expect_float_eq(jnum(entry, "scaling_efficiency"), 23.0 / 44, EPS);
    cr_expect_float_eq(jnum(entry, "idle_time"), S(0.25), EPS);
    jfree(root);
}

Test(scale_report, json_findings_and_notes)
{
    struct jv *root = json_report();
    const struct jv *findings = jget(root, "findings"), *fast, *slow;

    cr_assert_eq(findings->n, 2);
    fast = jat(findings, 0);
    cr_expect_eq(jget(fast, "interval")->type, J_NULL);
    cr_expect_eq(jnum(fast, "ranks"), 8);
    slow = jat(findings, 1);
    cr_expect_eq(jnum(slow, "interval"), 1);
    cr_expect_eq(jnum(slow, "ranks"), 8);
    cr_expect_str_eq(jget(slow, "cause")->str, "communication");
    cr_expect_float_eq(jnum(slow, "cause_time"), S(32), EPS);
    cr_expect_eq(jget(root, "notes")->n, 1);
    cr_expect_eq(jnum(jat(jget(root, "machines"), 1), "base_ranks"), 2);
    cr_expect_eq(jnum(jat(jget(root, "recordings"), 1), "ranks"), 4);
    jfree(root);
}

/* The report of machine fast alone whose notes are all[0 .. n - 1], the first model of
 * them the model's. */
static char *report_with_notes(enum pz_report_format format, const char *const *all,
                               size_t n, size_t model)
{
    struct pz_scale_entry entries[1][3];
    struct pz_scale_series series[1] = { { "fast", entries[0], 3 } };
    struct pz_scale_input in = { recordings, 2, series, 1, formulas, 2, all, n, NULL, model };
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    for (int k = 0; k < 3; k++)
        entries[0][k] = (struct pz_scale_entry){ counts[k], k < 2, &runs[0][k] };
    cr_assert_not_null(out);
    cr_assert_eq(pz_scale_report_write(out, format, &in), 0);
    fclose(out);
    return text;
}

/* The report with 70 notes of the model and the one of the command after them. */
static char *report_with_many_notes(enum pz_report_format format)
{
    static char model[70][16];
    static const char *all[71];

    for (int k = 0; k < 70; k++) {
        snprintf(model[k], sizeof(model[k]), "model note %d", k);
        all[k] = model[k];
    }
    all[70] = notes[0];
    return report_with_notes(format, all, 71, 70);
}

/* Text and HTML show the model's first 64 notes (0 to 63), then "and 6 more" in place of
 * notes 64 to 69, then the command's; JSON has all 71. */
Test(scale_report, the_model_notes_past_64_are_counted_in_text_and_html_and_listed_in_json)
{
    char *text = report_with_many_notes(PZ_REPORT_TEXT), *html;
    struct jv *root;
    const char *tail;

    cr_expect_not_null(strstr(text, "Note: model note 63\n"), "%s", text);
    cr_expect_null(strstr(text, "model note 64"), "%s", text);
    tail = strstr(text, "Note: model note 63\nNote: and 6 more notes of the model: --format json "
                        "lists every one\nNote: the recording run4 was oversubscribed");
    cr_expect_not_null(tail, "%s", text);
    free(text);
    html = report_with_many_notes(PZ_REPORT_HTML);
    cr_expect_not_null(strstr(html, "model note 63</li>\n<li>and 6 more notes of the model"),
                       "the HTML notes");
    cr_expect_null(strstr(html, "model note 64"));
    free(html);
    text = report_with_many_notes(PZ_REPORT_JSON);
    tail = text;
    root = jparse(&tail);
    cr_expect_eq(jget(root, "notes")->n, 71);
    cr_expect_str_eq(jat(jget(root, "notes"), 69)->str, "model note 69");
    jfree(root);
    free(text);
}

/* The report whose notes are the 5 of the model below and the command's. */
static char *report_with_notes_to_group(enum pz_report_format format)
{
    static const char *const all[] = {
        "MPI_Send (call 1 process 0): kept constant",
        "every dimension has at most 2 processes: taken so",
        "MPI_Wait (call 2 process 0): kept constant",
        "MPI_Recv (call 4 process 1): the mean is used",
        "MPI_Send (call 3 process 0): kept constant",
        "the recording run4 was oversubscribed",
    };

    return report_with_notes(format, all, 6, 5);
}

/* The model's three notes that say "kept constant" of different calls are one line, at
 * the place of the first, in the order of the first; a note that names no place, and
 * the command's, stay as they are; JSON lists all six. */
Test(scale_report, the_model_notes_saying_the_same_of_different_calls_are_one_line)
{
    char *text = report_with_notes_to_group(PZ_REPORT_TEXT);
    const char *p;
    struct jv *root;

    cr_expect_not_null(strstr(text, "\nNotes\n"
                                    "Note: MPI_Send (call 1 process 0) and 2 others: kept constant\n"
                                    "Note: every dimension has at most 2 processes: taken so\n"
                                    "Note: MPI_Recv (call 4 process 1): the mean is used\n"
                                    "Note: the recording run4 was oversubscribed\n"), "%s", text);
    free(text);
    text = report_with_notes_to_group(PZ_REPORT_JSON);
    p = text;
    root = jparse(&p);
    cr_expect_eq(jget(root, "notes")->n, 6);
    jfree(root);
    free(text);
}

/* The comparison's keys: at 8, the whole run 5.5 ms on fast and 8.5 on slow, a ratio of
 * 8.5 / 5.5 = 1.545454; kept up to 8 and 4; slow's interval 1 (index 1) stops at 8, its
 * cause communication, which a network removes; on fast there 20/32 = 0.625 in 4 ms.
 * No processes per node were given. */
Test(scale_report, json_comparison)
{
    struct jv *root = json_report();
    const struct jv *c = jget(root, "comparison"), *machines, *stop, *on_fast;

    cr_expect_eq(jnum(c, "ranks"), 8);
    cr_expect_str_eq(jget(c, "fastest")->str, "fast");
    cr_expect_str_eq(jget(c, "slowest")->str, "slow");
    machines = jget(c, "machines");
    cr_assert_eq(machines->n, 2);
    cr_expect_float_eq(jnum(jat(machines, 0), "time_ratio"), 1, EPS);
    cr_expect_float_eq(jnum(jat(machines, 1), "time_ratio"), 8.5 / 5.5, EPS);
    cr_expect_float_eq(jnum(jat(machines, 1), "execution_time"), S(8.5), EPS);
    cr_expect_eq(jnum(jat(machines, 0), "keeps_ranks"), 8);
    cr_expect_eq(jnum(jat(machines, 1), "keeps_ranks"), 4);
    cr_expect_eq(jget(jat(machines, 1), "procs_per_node")->type, J_NULL);
    stop = jget(c, "slowest_stop");
    cr_expect_eq(jnum(stop, "interval"), 1);
    cr_expect_eq(jnum(stop, "ranks"), 8);
    cr_expect_str_eq(jget(stop, "cause")->str, "communication");
    cr_expect_str_eq(jget(stop, "remedy")->str, "network");
    cr_assert_eq(jget(stop, "machines")->n, 1);
    on_fast = jat(jget(stop, "machines"), 0);
    cr_expect_str_eq(jget(on_fast, "machine")->str, "fast");
    cr_expect_float_eq(jnum(on_fast, "scaling_efficiency"), 0.625, EPS);
    cr_expect_float_eq(jnum(on_fast, "execution_time"), S(4), EPS);
    cr_expect_eq(jget(on_fast, "fixes")->type, J_BOOL);
    cr_expect_eq(jget(on_fast, "fixes")->num, 1);
    cr_expect_eq(jget(c, "text")->n, 4, "no sentence on nodes without processes per node");
    jfree(root);
}

/* One machine: no comparison in any format. */
Test(scale_report, one_machine_has_no_comparison)
{
    struct pz_scale_entry entries[3] = { { 2, 1, &runs[0][0] }, { 4, 1, &runs[0][1] },
                                         { 8, 0, &runs[0][2] } };
    struct pz_scale_series series = { "fast", entries, 3 };
    struct pz_scale_input in = { recordings, 2, &series, 1, NULL, 0, NULL, 0, NULL, 0 };

    for (int f = 0; f < 3; f++) {
        static const enum pz_report_format formats[3] = { PZ_REPORT_TEXT, PZ_REPORT_JSON,
                                                          PZ_REPORT_HTML };
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);

        cr_assert_eq(pz_scale_report_write(out, formats[f], &in), 0);
        fclose(out);
        cr_expect_null(strstr(text, "omparison"), "%s", text);
        free(text);
    }
}

/* The base is the smallest recorded count even when a smaller one is requested: fast
 * with 4 the only recording.  At 2: speedup 6/10 = 0.6, scaling efficiency
 * 6 4 / (10 2) = 1.2; at 8: 6/4 = 1.5 and 6 4 / (4 8) = 0.75. */
Test(scale_report, base_is_smallest_recorded)
{
    struct pz_scale_entry entries[3] = { { 2, 0, &runs[0][0] }, { 4, 1, &runs[0][1] },
                                         { 8, 0, &runs[0][2] } };
    struct pz_scale_series series = { "fast", entries, 3 };
    struct pz_scale_input in = { recordings + 1, 1, &series, 1, NULL, 0, NULL, 0, NULL, 0 };
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    struct text_values v;

    cr_assert_eq(pz_scale_report_write(out, PZ_REPORT_TEXT, &in), 0);
    fclose(out);
    v = parse_row(text_row(text, "Interval 1 at src/x.c:10", "fast", 2));
    cr_expect_float_eq(v.speedup, 0.6, 1e-3);
    cr_expect_float_eq(v.scaling, 1.2, 1e-3);
    v = parse_row(text_row(text, "Interval 1 at src/x.c:10", "fast", 8));
    cr_expect_float_eq(v.speedup, 1.5, 1e-3);
    cr_expect_float_eq(v.scaling, 0.75, 1e-3);
    free(text);
}

/* The whole run is named only when no interval stops.  The run of 8 processes given as
 * 9 (the report takes the counts it is given): interval 1's scaling efficiency is
 * 10 2 / (4 9) = 0.556, the whole run's 11.5 2 / (5.5 9) = 0.465.  The whole run's
 * largest lost part at 8 processes: other MPI calls, MPI_Init and MPI_Finalize, 8 x 1 +
 * 7 x 0.5 + 0.25 = 11.75 ms (communication less synchronization 15 - 7 = 8, idle 0.25). */
Test(scale_report, whole_run_when_no_interval_stops)
{
    struct pz_scale_entry entries[2] = { { 2, 1, &runs[0][0] }, { 9, 0, &runs[0][2] } };
    struct pz_scale_series series = { "fast", entries, 2 };
    struct pz_scale_input in = { recordings, 1, &series, 1, NULL, 0, NULL, 0, NULL, 0 };
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    cr_assert_eq(pz_scale_report_write(out, PZ_REPORT_TEXT, &in), 0);
    fclose(out);
    cr_expect_not_null(strstr(text, "fast: the whole run stops scaling first: at 9 processes its "
                                    "scaling efficiency is 0.465"), "%s", text);
    cr_expect_not_null(strstr(text, "is other MPI calls (MPI_Init, MPI_Finalize, communicator "
                                    "management), 0.011750 s"), "%s", text);
    free(text);
}

/* A predicted run without interval 1 (4 processes: MPI_Init 0..1, MPI_Finalize 1..2): its
 * row says so, its JSON entry is left out, and the whole run still has its speedup,
 * 11.5 / 2 = 5.75. */
Test(scale_report, run_lacking_an_interval)
{
    struct pz_analysis plain;
    char *plain_dir = tb_tempdir(), *text = NULL, err[1024];
    struct tb *t = tb_open(plain_dir, 4);
    struct pz_scale_entry entries[2] = { { 2, 1, &runs[0][0] }, { 4, 0, &plain } };
    struct pz_scale_series series = { "fast", entries, 2 };
    struct pz_scale_input in = { recordings, 1, &series, 1, NULL, 0, NULL, 0, NULL, 0 };
    size_t len = 0;
    FILE *out;
    const char *p;
    struct jv *root;
    struct text_values v;

    cr_assert_not_null(t);
    for (int r = 0; r < 4; r++) {
        tb_call(t, r, "MPI_Init", 0, MS(1));
        tb_call(t, r, "MPI_Finalize", MS(1), MS(2));
    }
    cr_assert_eq(tb_close(t), 0);
    cr_assert_eq(pz_analyze(plain_dir, &plain, err, sizeof(err)), 0, "pz_analyze: %s", err);
    out = open_memstream(&text, &len);
    cr_assert_eq(pz_scale_report_write(out, PZ_REPORT_TEXT, &in), 0);
    fclose(out);
    cr_expect_not_null(strstr(text_row(text, "Interval 1 at src/x.c:10", "fast", 4),
                              "(the predicted run lacks the interval)"), "%s", text);
    v = parse_row(text_row(text, "Interval (whole run)", "fast", 4));
    cr_expect_float_eq(v.speedup, 5.75, 1e-3);
    free(text);
    text = NULL;
    out = open_memstream(&text, &len);
    cr_assert_eq(pz_scale_report_write(out, PZ_REPORT_JSON, &in), 0);
    fclose(out);
    p = text;
    root = jparse(&p);
    cr_expect_eq(jget(jat(jget(jat(jget(root, "intervals"), 1), "machines"), 0), "entries")->n,
                 1);
    jfree(root);
    free(text);
    pz_analysis_free(&plain);
    tb_remove(plain_dir);
    free(plain_dir);
}

static size_t occurrences(const char *s, const char *end, const char *what)
{
    size_t n = 0;

    for (s = strstr(s, what); s && (!end || s < end); s = strstr(s + 1, what))
        n++;
    return n;
}

/* Two intervals, three plots each; in every plot a polyline per machine, a square per
 * recorded point (2 counts on 2 machines) and a circle per requested one. */
Test(scale_report, html_plots)
{
    char *html = report(PZ_REPORT_HTML);
    const char *svg = html;

    cr_expect_eq(occurrences(html, NULL, "<svg"), 6);
    for (int k = 0; k < 6; k++) {
        const char *end;

        svg = strstr(svg, "<svg");
        end = strstr(svg, "</svg>");
        cr_assert_not_null(end);
        cr_expect_eq(occurrences(svg, end, "<polyline"), 2, "plot %d", k);
        cr_expect_eq(occurrences(svg, end, "<rect class=\"recorded\""), 4, "plot %d", k);
        cr_expect_eq(occurrences(svg, end, "<circle class=\"requested\""), 2, "plot %d", k);
        cr_expect_eq(occurrences(svg, end, "processes (log scale)"), 1, "plot %d", k);
        svg = end;
    }
    cr_expect_not_null(strstr(html, "<li>the recording run4 was oversubscribed"));
    cr_expect_not_null(strstr(html, "slow: interval 1 at src/x.c:10 stops scaling first"));
    cr_expect_not_null(strstr(html, "<h3>Comparison</h3>\n<p>At 8 processes fast runs the "
                                    "whole program fastest"), "%s", html);
    cr_expect_null(strstr(html, "href="), "the page links to nothing");
    cr_expect_null(strstr(html, " src="), "the page loads nothing");
    cr_expect_null(strstr(html, "<script"), "the page runs nothing");
    free(html);
}
