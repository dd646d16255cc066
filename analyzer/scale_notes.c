/* The notes of the scaling report grouped for text and HTML (scale_notes.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_notes.h"

/* The model's notes that say one thing: the first of them, where its place ends (the
 * length of "PLACE)", 0 for a note that names no place), and how many. */
struct group {
    const char *first;
    size_t place;
    size_t count;
};

/* Where "PLACE): WHAT" says WHAT, or NULL for a note of another shape. */
static const char *what_of(const char *note)
{
    const char *split = strstr(note, "): ");

    return split ? split + 3 : NULL;
}

/* Groups the model's notes of in into g (room for all); returns how many groups. */
static size_t group_notes(const struct pz_scale_input *in, struct group *g)
{
    size_t n = 0;

    for (size_t k = 0; k < in->model_notes && k < in->nnotes; k++) {
        const char *what = what_of(in->notes[k]);
        size_t i = 0;

        while (what && i < n && !(g[i].place && !strcmp(g[i].first + g[i].place + 2, what)))
            i++;
        if (what && i < n) {
            g[i].count++;
        } else {
            g[n].first = in->notes[k];
            g[n].place = what ? (size_t)(what - 2 - in->notes[k]) : 0;
            g[n++].count = 1;
        }
    }
    return n;
}

static char *group_line(const struct group *g)
{
    char *line = NULL;

    if (g->count == 1)
        return strdup(g->first);
    if (asprintf(&line, "%.*s and %zu other%s: %s", (int)g->place, g->first, g->count - 1,
                 g->count == 2 ? "" : "s", g->first + g->place + 2) < 0)
        return NULL;
    return line;
}

static int add(struct pz_scale_note_lines *out, char *line)
{
    if (!line)
        return -1;
    out->line[out->n++] = line;
    return 0;
}

int pz_scale_note_lines(const struct pz_scale_input *in, struct pz_scale_note_lines *out)
{
    struct group *g = malloc((in->nnotes + 1) * sizeof(*g));
    size_t groups, shown, left = 0;
    char *more = NULL;
    int rc = 0;

    out->n = 0;
    out->line = calloc(in->nnotes + 2, sizeof(*out->line));
    if (!g || !out->line) {
        free(g);
        free(out->line);
        out->line = NULL;
        return -1;
    }
    groups = group_notes(in, g);
    shown = groups < PZ_SCALE_SHOWN_MODEL_NOTES ? groups : PZ_SCALE_SHOWN_MODEL_NOTES;
    for (size_t i = 0; rc == 0 && i < groups; i++) {
        if (i < shown)
            rc = add(out, group_line(&g[i]));
        else
            left += g[i].count;
    }
    if (rc == 0 && left)
        rc = add(out, asprintf(&more, "and %zu more notes of the model: --format json lists "
                               "every one", left) < 0 ? NULL : more);
    for (size_t k = in->model_notes; rc == 0 && k < in->nnotes; k++)
        rc = add(out, strdup(in->notes[k]));
    free(g);
    if (rc != 0)
        pz_scale_note_lines_free(out);
    return rc;
}

void pz_scale_note_lines_free(struct pz_scale_note_lines *l)
{
    for (size_t i = 0; l->line && i < l->n; i++)
        free(l->line[i]);
    free(l->line);
    l->line = NULL;
    l->n = 0;
}
