/* The scaling tests' look into a model's notes (replay/scale_program.h). */
#ifndef PZ_TEST_MODEL_NOTES_H
#define PZ_TEST_MODEL_NOTES_H

#include <string.h>

#include "scale_program.h"

/* How many notes of m contain text. */
static inline int scale_noted(const struct pz_scale_program *m, const char *text)
{
    int found = 0;

    for (size_t i = 0; i < pz_scale_program_nnotes(m); i++)
        found += strstr(pz_scale_program_note(m, i), text) != NULL;
    return found;
}

#endif
