/* The notes of the scaling report as its text and HTML show them: a model may have
 * thousands, a few for each of its calls (LAMMPS from 2, 4 and 8: 10277, of which 3090
 * say "the size received is recorded at 8 processes only: kept constant"), so the model's
 * notes that say the same of different calls are one line, and at most
 * PZ_SCALE_SHOWN_MODEL_NOTES such lines are shown.  JSON lists every note. */
#ifndef PZ_SCALE_NOTES_H
#define PZ_SCALE_NOTES_H

#include <stddef.h>

#include "scale_report.h"

struct pz_scale_note_lines {
    char **line;
    size_t n;
};

/* The lines for the notes of in, in the order of their first note: each group of the
 * model's notes "PLACE): WHAT" with the same WHAT (the text after the first "): ") as
 * "PLACE) and N others: WHAT" ("and 1 other"; PLACE the first's; a note of one, or one
 * with no "): ", is itself), the first PZ_SCALE_SHOWN_MODEL_NOTES groups
 * and then "and N more notes of the model: --format json lists every one", then the
 * notes after the model's, each as it is.  0, or -1 if memory ran out. */
int pz_scale_note_lines(const struct pz_scale_input *in, struct pz_scale_note_lines *out);

void pz_scale_note_lines_free(struct pz_scale_note_lines *l);

#endif
