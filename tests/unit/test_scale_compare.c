/* The comparison of machines in the scaling report, on tables made by hand: counts 2, 4
 * and 8 (2 the base), the whole run and interval 1 at src/x.c:10, times in seconds, each
 * machine's finding given as the table would find it.
 *
 * Two machines, A and B:
 *   whole run   A: 4.0, 4.5, 2.0    scaling efficiency 1, 8/18 = 0.444, 8/16 = 0.5
 *               B: 3.0, 1.5, 1.0                       1, 6/6 = 1,     6/8 = 0.75
 *   interval 1  A: 2.0, 4.0, 1.0                       1, 4/16 = 0.25, 4/8 = 0.5
 *               B: 1.0, 0.8, 0.5                       1, 2/3.2 = 0.625, 2/4 = 0.5
 *   A's interval 1 at 4: communication 3.0, synchronization 1.0, load imbalance 0.5: its
 *   largest part communication less synchronization, 2.0 (A's finding: interval 1 at 4).
 *   B: nothing falls below 0.5 (its finding: none, at 8).
 * At 8, the largest count both have, B is fastest: 2.0 / 1.0 = 2.00 times faster than A,
 * A the slowest.  A keeps the whole run at 0.5 only at 2 (0.444 at 4, though 0.5 again at
 * 8: keeping means every count up to it), B up to 8 (0.5 is not below 0.5).  A's interval
 * 1 stops at 4; there B gives it 0.625 in 0.8 s: B fixes it.  Communication is what a
 * faster network removes.
 *
 * Three machines, A, B and C, interval 1 lost to load imbalance on every one:
 *   whole run   A: 6.0, 3.0, 3.0    scaling efficiency 1, 12/12 = 1, 12/24 = 0.5
 *               B: 4.0, 2.0, 1.5                       1, 8/8 = 1,   8/12 = 0.667
 *               C: 4.0, 2.0, 1.0                       1, 1,         8/8 = 1
 *   interval 1  A: 4.0, 2.0, 2.5                       1, 1,         8/20 = 0.4
 *               B: 3.0, 1.5, 2.5                       1, 1,         6/20 = 0.3
 *               C: 3.0, 1.5, 2.0                       1, 1,         6/16 = 0.375
 *   A's interval 1 at 8: communication 0.3, synchronization 0.2, load imbalance 1.5: its
 *   largest part the load imbalance, 1.5.
 * At 8 C is fastest, 3.0 / 1.0 = 3.00 times faster than A, 1.5 / 1.0 = 1.50 than B; every
 * machine keeps the whole run up to 8; on B and C interval 1 is 0.300 and 0.375 at 8:
 * neither fixes it, and no network would. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_report_table.h"

#define MAXM 3
#define NCOUNTS 3

static const int counts[NCOUNTS] = { 2, 4, 8 };

/* A table of up to three machines, everything in place. */
struct hand {
    struct pz_scale_recording recordings[2];
    struct pz_scale_input in;
    struct pz_scale_entry entries[MAXM][NCOUNTS];
    struct pz_scale_machine machines[MAXM];
    struct pz_node nodes[2];
    struct pz_scale_interval intervals[2];
    struct pz_scale_value values[2][MAXM * NCOUNTS];
    struct pz_scale_finding findings[MAXM];
    int procs_per_node[MAXM];
    struct pz_scale_table t;
};

static void hand_init(struct hand *h, size_t nmachines, const char *const names[])
{
    memset(h, 0, sizeof(*h));
    h->recordings[0] = (struct pz_scale_recording){ "run2", 2 };
    h->recordings[1] = (struct pz_scale_recording){ "run4", 4 };
    h->in.recordings = h->recordings;
    h->in.nrecordings = 2;
    h->in.nseries = nmachines;
    for (size_t m = 0; m < nmachines; m++) {
        for (size_t e = 0; e < NCOUNTS; e++)
            h->entries[m][e] = (struct pz_scale_entry){ counts[e], e < 2, NULL };
        h->machines[m] = (struct pz_scale_machine){ names[m], h->entries[m], NCOUNTS, 0,
                                                    m * NCOUNTS };
        h->findings[m] = (struct pz_scale_finding){ -1, NCOUNTS - 1,
                                                    PZ_SCALE_CAUSE_COMMUNICATION, 0 };
    }
    h->nodes[0] = (struct pz_node){ .file = "", .parent = -1 };
    h->nodes[1] = (struct pz_node){ .file = "src/x.c", .line = 10, .id = 1, .level = 1 };
    for (size_t i = 0; i < 2; i++) {
        h->intervals[i].node = &h->nodes[i];
        h->intervals[i].values = h->values[i];
    }
    snprintf(h->intervals[1].region, sizeof(h->intervals[1].region), "interval 1 at x.c:10");
    h->t = (struct pz_scale_table){ &h->in, h->machines, nmachines * NCOUNTS, h->intervals, 2,
                                    h->findings, { 0 } };
}

/* Interval i's times on machine m at 2, 4 and 8, with the speedup and scaling
 * efficiency they give against 2. */
static void times(struct hand *h, size_t i, size_t m, double t2, double t4, double t8)
{
    const double t[NCOUNTS] = { t2, t4, t8 };

    for (size_t e = 0; e < NCOUNTS; e++) {
        struct pz_scale_value *v = &h->values[i][m * NCOUNTS + e];

        v->ranks = counts[e];
        v->recorded = e < 2;
        v->present = 1;
        v->c.execution_time = t[e];
        v->relative = 1;
        v->speedup = t2 / t[e];
        v->scaling_efficiency = t2 * counts[0] / (t[e] * counts[e]);
    }
}

/* Interval i on machine m at entry e: its lost time's parts. */
static void lost(struct hand *h, size_t i, size_t m, size_t e, double communication,
                 double synchronization, double imbalance)
{
    struct pz_characteristics *c = &h->values[i][m * NCOUNTS + e].c;

    c->communication_time = communication;
    c->synchronization = synchronization;
    c->load_imbalance = imbalance;
    c->mpi_time = communication;
    c->lost_time = communication;
}

static void say(const struct hand *h, enum pz_scale_comparison_sentence which, char *buf,
                size_t len)
{
    pz_scale_comparison_text(&h->t, which, buf, len);
}

static void two_machines(struct hand *h)
{
    static const char *const names[] = { "A", "B" };

    hand_init(h, 2, names);
    times(h, 0, 0, 4.0, 4.5, 2.0);
    times(h, 0, 1, 3.0, 1.5, 1.0);
    times(h, 1, 0, 2.0, 4.0, 1.0);
    times(h, 1, 1, 1.0, 0.8, 0.5);
    lost(h, 1, 0, 1, 3.0, 1.0, 0.5);
    h->findings[0] = (struct pz_scale_finding){ 1, 1, PZ_SCALE_CAUSE_COMMUNICATION, 2.0 };
    pz_scale_compare(&h->t);
}

Test(scale_compare, two_machines)
{
    struct hand h;
    char s[4096];

    two_machines(&h);
    cr_expect_eq(h.t.comparison.ranks, 8);
    cr_expect_eq(h.t.comparison.fastest, 1);
    cr_expect_eq(h.t.comparison.slowest, 0);
    cr_expect_eq(h.t.comparison.remedy, PZ_SCALE_REMEDY_NETWORK);
    say(&h, PZ_SCALE_SAY_FASTEST, s, sizeof(s));
    cr_expect_str_eq(s, "At 8 processes B runs the whole program fastest, in 1.000000 s: "
                        "2.00 times faster than A (2.000000 s).");
    say(&h, PZ_SCALE_SAY_KEEPS, s, sizeof(s));
    cr_expect_str_eq(s, "The whole run keeps a scaling efficiency of at least 0.5 on A only "
                        "at its base count, 2 processes, on B up to 8 processes.");
    say(&h, PZ_SCALE_SAY_FIX, s, sizeof(s));
    cr_expect_str_eq(s, "On the slowest machine, A, interval 1 at src/x.c:10 stops scaling "
                        "first: at 4 processes its scaling efficiency is 0.250 (4.000000 s). "
                        "There it is 0.625 (0.800000 s) on B: B fixes it (0.5 or more).");
    say(&h, PZ_SCALE_SAY_REMEDY, s, sizeof(s));
    cr_expect_str_eq(s, "Its largest lost part there on A is communication, 2.000000 s: time "
                        "in transfers, which a faster network can remove.");
    say(&h, PZ_SCALE_SAY_NODES, s, sizeof(s));
    cr_expect_str_eq(s, "", "processes per node are not known");
}

/* Synchronization is what a network removes only beyond the load imbalance: A's 1.0 s
 * of it against 0.5 s of imbalance is, against 1.0 s it is not. */
Test(scale_compare, synchronization_beyond_imbalance)
{
    struct hand h;
    char s[4096];

    two_machines(&h);
    h.findings[0].cause = PZ_SCALE_CAUSE_SYNCHRONIZATION;
    h.findings[0].cause_time = 1.0;
    pz_scale_compare(&h.t);
    cr_expect_eq(h.t.comparison.remedy, PZ_SCALE_REMEDY_NETWORK);
    say(&h, PZ_SCALE_SAY_REMEDY, s, sizeof(s));
    cr_expect_str_eq(s, "Its largest lost part there on A is synchronization, 1.000000 s, more "
                        "than its load imbalance, 0.500000 s: the waiting follows from late "
                        "transfers, which a faster network can remove.");
    lost(&h, 1, 0, 1, 3.0, 1.0, 1.0);
    pz_scale_compare(&h.t);
    cr_expect_eq(h.t.comparison.remedy, PZ_SCALE_REMEDY_NONE);
    say(&h, PZ_SCALE_SAY_REMEDY, s, sizeof(s));
    cr_expect_str_eq(s, "Its largest lost part there on A is synchronization, 1.000000 s, no "
                        "more than its load imbalance, 1.000000 s: no network fixes this: the "
                        "processes wait for the slowest's computation.");
}

/* Processes per node 1 on A and 2 on B: at 8 processes 8 and 4 nodes; the fastest with 2
 * per node (B, 1.0 s) against the fastest with 1 (A, 2.0 s). */
Test(scale_compare, processes_per_node)
{
    struct hand h;
    char s[4096];

    two_machines(&h);
    h.procs_per_node[0] = 1;
    h.procs_per_node[1] = 2;
    h.in.procs_per_node = h.procs_per_node;
    say(&h, PZ_SCALE_SAY_NODES, s, sizeof(s));
    cr_expect_str_eq(s, "Processes per node: 1 on A (8 nodes at 8 processes), 2 on B (4 nodes "
                        "at 8 processes). The fastest with 2 per node, B, runs it 2.00 times "
                        "faster than the fastest with 1, A: machines compared whole, whose "
                        "networks may differ too, not the nodes alone.");
    h.procs_per_node[0] = 2;
    say(&h, PZ_SCALE_SAY_NODES, s, sizeof(s));
    cr_expect_str_eq(s, "", "equal processes per node say nothing of nodes");
}

/* No interval stops on the slowest: nothing to fix, no remedy. */
Test(scale_compare, nothing_stops_on_the_slowest)
{
    struct hand h;
    char s[4096];

    two_machines(&h);
    h.findings[0] = (struct pz_scale_finding){ -1, 2, PZ_SCALE_CAUSE_COMMUNICATION, 0 };
    pz_scale_compare(&h.t);
    say(&h, PZ_SCALE_SAY_FIX, s, sizeof(s));
    cr_expect_str_eq(s, "On the slowest machine, A, no interval stops scaling up to 8 "
                        "processes: there is nothing for the others to fix.");
    say(&h, PZ_SCALE_SAY_REMEDY, s, sizeof(s));
    cr_expect_str_eq(s, "");
}

static void three_machines(struct hand *h)
{
    static const char *const names[] = { "A", "B", "C" };

    hand_init(h, 3, names);
    times(h, 0, 0, 6.0, 3.0, 3.0);
    times(h, 0, 1, 4.0, 2.0, 1.5);
    times(h, 0, 2, 4.0, 2.0, 1.0);
    times(h, 1, 0, 4.0, 2.0, 2.5);
    times(h, 1, 1, 3.0, 1.5, 2.5);
    times(h, 1, 2, 3.0, 1.5, 2.0);
    lost(h, 1, 0, 2, 0.3, 0.2, 1.5);
    h->findings[0] = (struct pz_scale_finding){ 1, 2, PZ_SCALE_CAUSE_LOAD_IMBALANCE, 1.5 };
    h->findings[1] = (struct pz_scale_finding){ 1, 2, PZ_SCALE_CAUSE_LOAD_IMBALANCE, 1.5 };
    h->findings[2] = (struct pz_scale_finding){ 1, 2, PZ_SCALE_CAUSE_LOAD_IMBALANCE, 1.2 };
    pz_scale_compare(&h->t);
}

Test(scale_compare, three_machines_imbalance)
{
    struct hand h;
    char s[4096];

    three_machines(&h);
    cr_expect_eq(h.t.comparison.fastest, 2);
    cr_expect_eq(h.t.comparison.slowest, 0);
    cr_expect_eq(h.t.comparison.remedy, PZ_SCALE_REMEDY_NONE);
    say(&h, PZ_SCALE_SAY_FASTEST, s, sizeof(s));
    cr_expect_str_eq(s, "At 8 processes C runs the whole program fastest, in 1.000000 s: "
                        "3.00 times faster than A (3.000000 s), 1.50 times faster than B "
                        "(1.500000 s).");
    say(&h, PZ_SCALE_SAY_KEEPS, s, sizeof(s));
    cr_expect_str_eq(s, "The whole run keeps a scaling efficiency of at least 0.5 on A up to 8 "
                        "processes, on B up to 8 processes, on C up to 8 processes.");
    say(&h, PZ_SCALE_SAY_FIX, s, sizeof(s));
    cr_expect_str_eq(s, "On the slowest machine, A, interval 1 at src/x.c:10 stops scaling "
                        "first: at 8 processes its scaling efficiency is 0.400 (2.500000 s). "
                        "There it is 0.300 (2.500000 s) on B, 0.375 (2.000000 s) on C: no other "
                        "machine keeps it at 0.5 or more.");
    say(&h, PZ_SCALE_SAY_REMEDY, s, sizeof(s));
    cr_expect_str_eq(s, "Its largest lost part there on A is load imbalance, 1.500000 s: no "
                        "network fixes this: the processes wait for the slowest's "
                        "computation.");
}

/* If B and C both kept interval 1 at 8 (B's 2.5 s there made 1.0 s: 6/8 = 0.75; C's 2.0
 * made 1.5 s: 6/12 = 0.5, not below), the sentence names both. */
Test(scale_compare, three_machines_two_fix)
{
    struct hand h;
    char s[4096];

    three_machines(&h);
    times(&h, 1, 1, 3.0, 1.5, 1.0);
    times(&h, 1, 2, 3.0, 1.5, 1.5);
    say(&h, PZ_SCALE_SAY_FIX, s, sizeof(s));
    cr_expect(strstr(s, "There it is 0.750 (1.000000 s) on B, 0.500 (1.500000 s) on C: B and "
                        "C fix it (0.5 or more).") != NULL, "%s", s);
}

/* The whole report of three machines: a Comparison block in the text after the findings,
 * the comparison object in JSON and the sentences under the HTML findings; with one
 * machine none of them. */
Test(scale_compare, formats)
{
    struct hand h;
    char *text = NULL;
    size_t len = 0;
    FILE *out;

    three_machines(&h);
    out = open_memstream(&text, &len);
    cr_assert_eq(pz_scale_report_text(out, &h.t), 0);
    fclose(out);
    cr_assert_not_null(strstr(text, "\nFindings\n"), "%s", text);
    cr_assert_not_null(strstr(text, "\nComparison\nAt 8 processes C runs"), "%s", text);
    cr_expect(strstr(text, "\nFindings\n") < strstr(text, "\nComparison\nAt 8 processes C runs"),
              "%s", text);
    free(text);
    out = open_memstream(&text, &len);
    cr_assert_eq(pz_scale_report_json(out, &h.t), 0);
    fclose(out);
    cr_expect(strstr(text, "\"comparison\": {\"ranks\": 8, \"fastest\": \"C\", \"slowest\": "
                           "\"A\"") != NULL, "%s", text);
    cr_expect(strstr(text, "{\"machine\": \"A\", \"execution_time\": 3, \"time_ratio\": 3, "
                           "\"keeps_ranks\": 8, \"procs_per_node\": null}") != NULL, "%s", text);
    cr_expect(strstr(text, "\"slowest_stop\": {\"interval\": 1, \"ranks\": 8, \"cause\": "
                           "\"load_imbalance\", \"remedy\": \"none\", \"machines\": [{\"machine\": "
                           "\"B\", \"execution_time\": 2.5, \"scaling_efficiency\": 0.3, "
                           "\"fixes\": false}") != NULL, "%s", text);
    free(text);
    out = open_memstream(&text, &len);
    cr_assert_eq(pz_scale_report_html(out, &h.t), 0);
    fclose(out);
    cr_expect(strstr(text, "<h3>Comparison</h3>\n<p>At 8 processes C runs") != NULL, "%s", text);
    cr_expect(strstr(text, "the slowest&#39;s") == NULL && strstr(text, "the slowest's") != NULL,
              "%s", text);
    free(text);
    h.in.nseries = 1;
    h.t.nvalues = NCOUNTS;
    pz_scale_compare(&h.t);
    cr_expect_eq(h.t.comparison.ranks, 0);
    out = open_memstream(&text, &len);
    cr_assert_eq(pz_scale_report_text(out, &h.t), 0);
    fclose(out);
    cr_expect_null(strstr(text, "Comparison"), "%s", text);
    free(text);
}
