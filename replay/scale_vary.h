/* How the computation before a step varies from process to process and from one pass to
 * the next (scale_program.h).  The model of a class's computation is its mean; given to
 * every computation, it makes the processes of a class compute exactly alike, so that
 * they reach each call at the same instant, pass after pass: their transfers then
 * become ready together and contend for the network in the one order the tie gives,
 * which no real run shows, its computations differing by a few percent from process to
 * process and from pass to pass (on a switch, whose links are reserved in the order
 * transfers become ready, a halo exchange came out a third faster, and a reduction a
 * quarter slower, than from every real recording of the program at that count).  So
 * each computation is its class's mean at P times a ratio drawn from those the
 * recordings show: a computation recorded before the same step over its class's mean
 * in that recording, taken from the recording nearest P and from the same pass (the
 * how-many-th time the process makes the step), among all passes beyond the recorded
 * ones.  This keeps the shape of the recorded variation (a few long computations among
 * many near the mean, which a variance alone does not tell), when it happens (a first
 * iteration warming up the caches at every process is not spread over the run, where
 * it would delay a different process at every iteration) and the mean.  A ratio tells
 * how the computations before its step vary, and multiplies only a model of those: the
 * class's own, or that of the processes with the same steps around the computation, or
 * before the step.  A class too rare for these may take the model of the computations
 * after the step before, which are mostly before other steps (in a wavefront recorded
 * at 2 x 1, 2 x 2 and 4 x 2, the processes with a west and an east neighbour at 8 x 4
 * take, before their receive from the west, that of all computations after the receive
 * from the north, mostly the relaxation of the processes without a west neighbour, at
 * the level the pair of receives was recorded at); the step's ratios (those of a 0.4
 * us loop overhead, which an interrupt makes up to 24 times the mean) are not theirs,
 * and that computation is not varied.
 * The draws depend on the process and the number of its computation alone: the same
 * model gives the same run every time. */
#ifndef PZ_SCALE_VARY_H
#define PZ_SCALE_VARY_H

#include <stddef.h>
#include <stdint.h>

/* Divides the n values v by their mean, in place: each one's ratio to the mean, all 1
 * when the mean is 0 or less (no computation has no variation) and a ratio within
 * 1e-9 of 1 made 1 (equal values whose mean rounded). */
void pz_scale_ratios(double *v, size_t n);

/* Draw number i (0, 1, ... in the order a process makes its computations) of process
 * proc among the n ratios: ratios[j], j uniform in 0 .. n - 1 and a function of proc and
 * i alone; 1 when n is 0. */
double pz_scale_draw(const double *ratios, size_t n, uint32_t proc, uint64_t i);

#endif
