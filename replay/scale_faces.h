/* Laws of sizes taken across the dimensions of the grid: a halo's faces (scale_faces.c)
 * and the blocks of collectives on its lines (scale_slice_laws.c). */
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

/* Where the sizes of a collective on the lines of the grid along one dimension (a row's
 * MPI_Bcast) are exact over fewer recordings than those of the same call on the lines
 * along another (the column's, in the same loop's body, at most 8 steps away), and the
 * latter follow a grid's law through the origin told by 3 recordings or more, each size
 * of the former (each role of a rooted collective apart) takes that law with the two
 * dimensions exchanged, per other member where the latter's is, where it gives every
 * size recorded; a note per dimension says so, placed at *at.  After the sizes are
 * fitted.  0, or -1 when memory runs out. */
int sp_slice_laws(struct pz_scale_program *m, size_t *at);

#endif
