/* The plots of the HTML scaling report as plain SVG: processes on a log scale across,
 * the time on a log scale or an efficiency on a linear one up, a polyline per machine,
 * recorded counts as squares and requested ones as circles.  A point that cannot be
 * placed (a time of 0 on the log scale, an undefined ratio) is left out of its line. */
#include <math.h>

#include "scale_report_table.h"

#define WIDTH 400.0
#define HEIGHT 260.0
#define LEFT 64.0
#define RIGHT 12.0
#define TOP 24.0
#define BOTTOM 44.0

/* An axis: the range it shows, in the axis's units (log10 of the value on a log scale). */
struct axis {
    double lo, hi;
    int log;
};

const char *pz_scale_plot_color(size_t m)
{
    static const char *const colors[] = {
        "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    };

    return colors[m % (sizeof(colors) / sizeof(colors[0]))];
}

/* The quantity of v into *y; 0 if it has none to plot. */
static int quantity(const struct pz_scale_value *v, enum pz_scale_quantity q, double *y)
{
    switch (q) {
    case PZ_SCALE_PLOT_TIME:
        *y = v->c.execution_time;
        return v->present && *y > 0;
    case PZ_SCALE_PLOT_EFFICIENCY:
        *y = v->c.efficiency;
        return v->present;
    default:
        *y = v->scaling_efficiency;
        return v->relative;
    }
}

static double unit(const struct axis *a, double value)
{
    return a->log ? log10(value) : value;
}

/* Where value lies on axis a, from 0 (its low end) to 1. */
static double position(const struct axis *a, double value)
{
    return (unit(a, value) - a->lo) / (a->hi - a->lo);
}

static double x_of(const struct axis *a, double value)
{
    return LEFT + position(a, value) * (WIDTH - LEFT - RIGHT);
}

static double y_of(const struct axis *a, double value)
{
    return HEIGHT - BOTTOM - position(a, value) * (HEIGHT - TOP - BOTTOM);
}

/* Widens [lo, hi] (axis units) by a margin, and a single value to a range. */
static void pad(struct axis *a)
{
    double span = a->hi - a->lo;

    if (span <= 0) {
        a->lo -= a->log ? 0.3 : 0.5;
        a->hi += a->log ? 0.3 : 0.5;
        return;
    }
    a->lo -= 0.06 * span;
    a->hi += 0.06 * span;
}

/* The ranges of the processes and of the quantity over every plotted point. */
static int ranges(const struct pz_scale_table *t, size_t i, enum pz_scale_quantity q,
                  struct axis *x, struct axis *y)
{
    int any = 0;

    *x = (struct axis){ 0, 0, 1 };
    *y = (struct axis){ 0, 0, q == PZ_SCALE_PLOT_TIME };
    for (size_t m = 0; m < t->in->nseries; m++)
        for (size_t e = 0; e < t->machines[m].n; e++) {
            const struct pz_scale_value *v = pz_scale_table_value(t, i, m, e);
            double value, px = log10(v->ranks), py;

            if (!quantity(v, q, &value))
                continue;
            py = unit(y, value);
            x->lo = any && x->lo < px ? x->lo : px;
            x->hi = any && x->hi > px ? x->hi : px;
            y->lo = any && y->lo < py ? y->lo : py;
            y->hi = any && y->hi > py ? y->hi : py;
            any = 1;
        }
    if (!y->log && any) {
        y->lo = 0;
        y->hi = y->hi > 1 ? y->hi : 1;
    }
    pad(x);
    pad(y);
    return any;
}

static void x_tick(FILE *out, const struct axis *x, int ranks)
{
    double px = x_of(x, ranks);

    if (px < LEFT || px > WIDTH - RIGHT)
        return;
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\"/>"
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n", px, TOP, px,
            HEIGHT - BOTTOM, px, HEIGHT - BOTTOM + 14, ranks);
}

/* Every count of every machine, each once. */
static void x_ticks(FILE *out, const struct pz_scale_table *t, const struct axis *x)
{
    for (size_t m = 0; m < t->in->nseries; m++)
        for (size_t e = 0; e < t->machines[m].n; e++) {
            int ranks = t->machines[m].entries[e].ranks, seen = 0;

            for (size_t k = 0; k < m && !seen; k++)
                for (size_t f = 0; f < t->machines[k].n; f++)
                    seen |= t->machines[k].entries[f].ranks == ranks;
            if (!seen)
                x_tick(out, x, ranks);
        }
}

static void y_tick(FILE *out, const struct axis *y, double value)
{
    double py = y_of(y, value);

    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\"/>"
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>\n", LEFT, py,
            WIDTH - RIGHT, py, LEFT - 4, py + 4, value);
}

/* Log scale: 1, 2 and 5 times the powers of ten in range, or both ends if fewer than
 * two of them are.  Linear: every quarter. */
static void y_ticks(FILE *out, const struct axis *y)
{
    static const double steps[] = { 1, 2, 5 };
    int count = 0;

    if (!y->log) {
        for (double v = 0; v <= y->hi; v += 0.25)
            y_tick(out, y, v);
        return;
    }
    for (int pass = 0; pass < 2; pass++)
        for (double d = floor(y->lo); d <= ceil(y->hi); d++)
            for (size_t s = 0; s < 3; s++) {
                double v = steps[s] * pow(10, d);

                if (unit(y, v) < y->lo || unit(y, v) > y->hi)
                    continue;
                if (pass)
                    y_tick(out, y, v);
                else
                    count++;
            }
    if (count < 2) {
        y_tick(out, y, pow(10, y->lo + 0.06 / 1.12 * (y->hi - y->lo)));
        y_tick(out, y, pow(10, y->hi - 0.06 / 1.12 * (y->hi - y->lo)));
    }
}

static void axes(FILE *out, const char *title, const char *label)
{
    fprintf(out, "<text x=\"%.1f\" y=\"16\" text-anchor=\"middle\" font-weight=\"bold\">%s"
            "</text>\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
            "stroke=\"#333\"/>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">processes "
            "(log scale)</text>\n<text x=\"14\" y=\"%.1f\" text-anchor=\"middle\" "
            "transform=\"rotate(-90 14 %.1f)\">%s</text>\n", WIDTH / 2, title, LEFT, TOP,
            WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM, (LEFT + WIDTH - RIGHT) / 2,
            HEIGHT - 8, (TOP + HEIGHT - BOTTOM) / 2, (TOP + HEIGHT - BOTTOM) / 2, label);
}

static void marker(FILE *out, const char *machine, const char *color,
                   const struct pz_scale_value *v, double px, double py, double value)
{
    if (v->recorded)
        fprintf(out, "<rect class=\"recorded\" x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\" "
                "fill=\"%s\">", px - 3.5, py - 3.5, color);
    else
        fprintf(out, "<circle class=\"requested\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" "
                "fill=\"%s\">", px, py, color);
    fputs("<title>", out);
    pz_scale_html_text(out, machine);
    fprintf(out, ", %d processes%s: %.6g</title></%s>\n", v->ranks,
            v->recorded ? " (recorded)" : "", value, v->recorded ? "rect" : "circle");
}

static void line(FILE *out, const struct pz_scale_table *t, size_t i, size_t m,
                 enum pz_scale_quantity q, const struct axis *x, const struct axis *y)
{
    const char *color = pz_scale_plot_color(m);
    double value;
    int first = 1;

    fprintf(out, "<polyline class=\"machine\" fill=\"none\" stroke=\"%s\" "
            "stroke-width=\"2\" points=\"", color);
    for (size_t e = 0; e < t->machines[m].n; e++) {
        const struct pz_scale_value *v = pz_scale_table_value(t, i, m, e);

        if (quantity(v, q, &value)) {
            fprintf(out, "%s%.1f,%.1f", first ? "" : " ", x_of(x, v->ranks), y_of(y, value));
            first = 0;
        }
    }
    fputs("\"/>\n", out);
    for (size_t e = 0; e < t->machines[m].n; e++) {
        const struct pz_scale_value *v = pz_scale_table_value(t, i, m, e);

        if (quantity(v, q, &value))
            marker(out, t->machines[m].machine, color, v, x_of(x, v->ranks), y_of(y, value),
                   value);
    }
}

void pz_scale_plot(FILE *out, const struct pz_scale_table *t, size_t i, enum pz_scale_quantity q)
{
    static const char *const titles[] = { "Execution time", "Efficiency",
                                          "Scaling efficiency" };
    static const char *const labels[] = { "seconds (log scale)", "efficiency",
                                          "scaling efficiency" };
    struct axis x, y;

    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-size=\"11\">\n", WIDTH, HEIGHT, WIDTH, HEIGHT);
    axes(out, titles[q], labels[q]);
    if (ranges(t, i, q, &x, &y)) {
        x_ticks(out, t, &x);
        y_ticks(out, &y);
        for (size_t m = 0; m < t->in->nseries; m++)
            line(out, t, i, m, q, &x, &y);
    }
    fputs("</svg>\n", out);
}
