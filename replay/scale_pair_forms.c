/* The forms a partner of an exchange with every member in turn may follow (scale_run.h,
 * enum pz_scale_pair_form; scale_program_int.h, sp_pair_distance, sp_pair_partner,
 * sp_pair_form_text): the member d away from the caller, for d = 1 .. n - 1 (0: the
 * caller itself, where a ring begins with it).  The recognition (scale_pairs.c) reads a
 * recorded partner as its distance in each form, the synthesis (scale_synth.c) the
 * distance back as a partner: one reckoning for both. */
#include "scale_program_int.h"

int sp_pair_distance(int form, int me, int q, int n)
{
    switch (form) {
    case PZ_SCALE_PAIR_PLUS:
        return ((q - me) % n + n) % n;
    case PZ_SCALE_PAIR_MINUS:
        return ((me - q) % n + n) % n;
    case PZ_SCALE_PAIR_UP:
        /* the others in ascending order, the caller's own rank skipped */
        return q < me ? q + 1 : q;
    case PZ_SCALE_PAIR_DOWN:
        return q > me ? n - q : n - 1 - q;
    default:
        return me ^ q;
    }
}

int64_t sp_pair_partner(int form, int64_t me, int64_t d, int64_t n)
{
    if (d < 0 || d >= n)
        return -1;
    switch (form) {
    case PZ_SCALE_PAIR_PLUS:
        return (me + d) % n;
    case PZ_SCALE_PAIR_MINUS:
        return (me + n - d) % n;
    case PZ_SCALE_PAIR_UP:
        /* d = 0 has no other member to name */
        return !d ? -1 : d - 1 < me ? d - 1 : d;
    case PZ_SCALE_PAIR_DOWN:
        return !d ? -1 : n - d > me ? n - d : n - d - 1;
    default:
        return (me ^ d) < n ? me ^ d : -1;
    }
}

const char *sp_pair_form_text(int form)
{
    switch (form) {
    case PZ_SCALE_PAIR_XOR:
        return "rank XOR i (a pairwise schedule; counts whose members are not a power of two "
               "are refused)";
    case PZ_SCALE_PAIR_UP:
        return "the i-th other member in ascending rank order (a loop over the ranks "
               "skipping the process's own)";
    case PZ_SCALE_PAIR_DOWN:
        return "the i-th other member in descending rank order (a loop over the ranks "
               "skipping the process's own)";
    default:
        return "(rank + i) mod n or (rank - i) mod n (a ring schedule)";
    }
}
