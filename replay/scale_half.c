/* Loops of steps ordered by parity whose trip count at P is not whole (scale_program_int.h,
 * sp_half_check).  An odd-even transposition sort makes P phases, exchanging with rank
 * + 1 where phase + rank is even and with rank - 1 where it is odd: folded two phases an
 * iteration (the even ranks' exchange with rank + 1 then rank - 1, the odd ranks' the
 * other way round, each made by the processes of its parity), a loop of P / 2 iterations
 * at the even counts recorded.  At an odd count the program's last iteration is one
 * phase, which neither the loop (rounded, it makes one phase more or less at every
 * process) nor any recording of an even count tells: such a run is refused rather than
 * synthesized with other calls than the program's. */
#include <math.h>
#include <stdio.h>

#include "scale_program_int.h"
#include "scale_fit.h"

/* Whether a step inside loop node k is made by the processes of one parity. */
static int parity_inside(const struct pz_scale_program *m, uint32_t k)
{
    for (uint32_t i = k + 1; i < m->nodes[k].end; i++)
        if (m->nodes[i].kind == SP_STEP && m->nodes[i].guard.parity)
            return 1;
    return 0;
}

int sp_half_check(const struct pz_scale_program *m, int nprocs, char *err, size_t errlen)
{
    for (uint32_t k = 0; k < m->nnodes; k++) {
        const struct sp_node *nd = &m->nodes[k];
        char law[160];
        double v;

        if (nd->kind != SP_LOOP || nd->pairs || !parity_inside(m, k))
            continue;
        v = pz_scale_model_at(&nd->count, nprocs);
        if (fabs(v - nearbyint(v)) < 1e-6)
            continue;
        pz_scale_model_format(&nd->count, law, sizeof(law));
        snprintf(err, errlen, "the loop around %s runs %s times, its steps each made by the "
                 "processes of one parity of their position (an odd-even transposition's "
                 "phases, two an iteration): %.3g times at %d processes, where how the "
                 "program makes a part of an iteration no recording tells",
                 m->loop_where && m->loop_where[k] ? m->loop_where[k] : "a loop", law, v,
                 nprocs);
        return -1;
    }
    return 0;
}
