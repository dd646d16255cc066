/* The law of a halo's faces taken across dimensions (scale_faces.c). */
#ifndef PZ_SCALE_FACES_H
#define PZ_SCALE_FACES_H

#include "scale_program_int.h"

/* Where the sizes of the messages along one dimension of the grid follow a face's law
 * told by 3 recordings or more (c / (dims[e] * dims[f]), not of their own dimension),
 * the exact sizes of the messages along another dimension d, seen at fewer counts (a
 * dimension of 1 process in some recordings: no messages along it there), take that law
 * with the two dimensions exchanged, where it gives every size they recorded; a note per
 * dimension says so.  Along a dimension periodic and of at most 2 processes in every
 * recording and of more than 1 in one alone, the sizes kept constant (seen at one count)
 * take instead the law of the same calls in the nearest exchange along another
 * dimension of the same shape, fitted over the most recordings, scaled to them.  After
 * the sizes are fitted; the notes are placed at first_note, before the sizes' own.  0,
 * or -1 when memory runs out. */
int sp_face_laws(struct pz_scale_program *m, size_t first_note);

#endif
