/* Directions taken for the peers the recordings cannot tell (scale_untold_dir.c). */
#ifndef PZ_SCALE_UNTOLD_DIR_H
#define PZ_SCALE_UNTOLD_DIR_H

#include "scale_program_int.h"

/* Along world dimension d, periodic and of 2 processes at most in every recording, takes
 * for every send of the template a neighbour: of the sends of one function in a stretch
 * of consecutive steps whose messages go along d alone (within one loop's body), in
 * order, the first to the lower neighbour (offset -1), the next to the upper (+1),
 * alternately; and for every receive the side opposite to the send of its communicator's
 * class and tag of the same rank in that stretch, so that the synthesized messages pair
 * at any length of the dimension; where the sends and receives of a tag in a stretch
 * are not as many, the same with a loop's whole body as the stretch.  The completions of
 * their requests take the same.
 * While building, after the template's events.  1 when taken, *alone then the step of
 * the first send alone of its function in its stretch (a call to one neighbour where the
 * dimension has 2 processes, which a program may make to both where it is longer), or
 * SP_NONE; 0 when the sends and receives of a tag in a body are not as many either
 * (nothing changed); -1 when memory runs out. */
int sp_untold_direct(struct pz_scale_program *m, int d, uint32_t *alone);

#endif
