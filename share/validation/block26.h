/* The 26 neighbours of a block in a 3-D grid of processes found by rank arithmetic, as
 * LULESH and HPCG find them: rank = x + dims[0] * (y + dims[1] * z), no MPI_Cart, no
 * MPI_PROC_NULL: a block on the grid's boundary simply has fewer neighbours (7 at a
 * corner of a 2x2x2 grid, 26 inside).  A block of n[0] x n[1] x n[2] values with one
 * halo layer all around trades with the neighbour at offset (dx, dy, dz) the box of
 * its values next to that neighbour: a face (n*n values), an edge (n) or a corner (1). */
#ifndef VALIDATION_BLOCK26_H
#define VALIDATION_BLOCK26_H

#include <stddef.h>

struct nbr26 {
    int rank;
    int off[3];   /* the neighbour's offset in the process grid, each -1, 0 or 1 */
    int len;      /* values sent to it, and received from it */
    int tag_out;  /* the tag of what goes to it: the index of off, 0..26 */
    int tag_in;   /* the tag of what comes from it: the index of -off */
    double *out, *in;
};

/* Fills nb with the neighbours of the process at coordinates c in a grid of dims
 * processes whose blocks have n[] values along each dimension; returns their number. */
static inline int nbr26_list(const int dims[3], const int c[3], const int n[3], struct nbr26 *nb)
{
    int m = 0;

    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int off[3] = {dx, dy, dz}, at[3], len = 1, inside = 1;
                for (int d = 0; d < 3; d++) {
                    at[d] = c[d] + off[d];
                    inside &= at[d] >= 0 && at[d] < dims[d];
                    len *= off[d] == 0 ? n[d] : 1;
                }
                if (!inside || (dx == 0 && dy == 0 && dz == 0))
                    continue;
                nb[m].rank = at[0] + dims[0] * (at[1] + dims[1] * at[2]);
                for (int d = 0; d < 3; d++)
                    nb[m].off[d] = off[d];
                nb[m].len = len;
                nb[m].tag_out = (dx + 1) + 3 * (dy + 1) + 9 * (dz + 1);
                nb[m].tag_in = 26 - nb[m].tag_out;
                m++;
            }
    return m;
}

/* Index of (x, y, z) in a block of n[] values with one halo layer all around. */
static inline size_t block_at(const int n[3], int x, int y, int z)
{
    return ((size_t)z * (n[1] + 2) + y) * (n[0] + 2) + x;
}

/* Copies between u and buf the box next to the neighbour at offset off: its own values
 * (halo 0: into buf, to send) or the halo layer beyond them (halo 1: out of buf). */
static inline void block_box(const int n[3], double *u, const int off[3], double *buf, int halo)
{
    int lo[3], hi[3];
    size_t k = 0;

    for (int d = 0; d < 3; d++) {
        lo[d] = off[d] < 0 ? 1 - halo : off[d] > 0 ? n[d] + halo : 1;
        hi[d] = off[d] < 0 ? 1 - halo : off[d] > 0 ? n[d] + halo : n[d];
    }
    for (int z = lo[2]; z <= hi[2]; z++)
        for (int y = lo[1]; y <= hi[1]; y++)
            for (int x = lo[0]; x <= hi[0]; x++, k++) {
                double *cell = &u[block_at(n, x, y, z)];
                if (halo)
                    *cell = buf[k];
                else
                    buf[k] = *cell;
            }
}

#endif
