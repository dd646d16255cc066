/* Which protocol ob1 takes for a contiguous rendezvous, from its control variables
 * (calibrate_ob1.h). */
#include <stdio.h>
#include <string.h>

#include "calibrate_ob1.h"

int pz_cal_ob1_selects(const char *selection, const char *name)
{
    int exclude = selection[0] == '^', named = 0;
    const char *s = selection + exclude;
    size_t len = strlen(name);

    if (!*s)
        return 1;
    while (*s) {
        size_t word = strcspn(s, ",");

        named |= word == len && strncmp(s, name, len) == 0;
        s += word + (s[word] == ',');
    }
    return exclude ? !named : named;
}

static double least(double a, double b)
{
    return a < b ? a : b;
}

void pz_cal_ob1_decide(struct pz_cal_ob1 *o, int same_node)
{
    int shm = same_node && (pz_cal_ob1_selects(o->btl, "vader") ||
                            pz_cal_ob1_selects(o->btl, "sm"));

    o->fragment = 0;
    if (!o->read) {
        snprintf(o->why, sizeof(o->why),
                 "rendezvous_first_fragment: 0, not measured (not Open MPI, or its MPI_T\n"
                 "control variables btl_tcp_eager_limit, btl_tcp_rndv_eager_limit and\n"
                 "btl_tcp_flags could not be read): the rendezvous's request carries no data");
    } else if (!pz_cal_ob1_selects(o->pml, "ob1")) {
        snprintf(o->why, sizeof(o->why),
                 "rendezvous_first_fragment: 0, the pml selection '%s' leaves ob1 out", o->pml);
    } else if (!pz_cal_ob1_selects(o->btl, "tcp") || shm) {
        snprintf(o->why, sizeof(o->why),
                 "rendezvous_first_fragment: 0, the btl selection '%s' %s: TCP's limits\n"
                 "do not apply (shared memory's single copy gets the data: no fragment)",
                 o->btl, shm ? "keeps shared memory between the ranks of one node"
                             : "leaves TCP out");
    } else if (o->flags & (PZ_OB1_BTL_PUT | PZ_OB1_BTL_GET)) {
        snprintf(o->why, sizeof(o->why),
                 "rendezvous_first_fragment: 0, Open MPI's btl_tcp_flags (%#x, MPI_T) has put:\n"
                 "ob1 moves a contiguous rendezvous message by the BTL's RDMA, its request\n"
                 "carrying no data (mca_pml_ob1_send_request_start_rdma), the transfer after\n"
                 "the receiver's answer: MPICH's shape.  Noncontiguous data would send the\n"
                 "first %.0f B with the request, not modelled", o->flags,
                 least(o->eager_limit, o->rndv_eager_limit));
    } else {
        o->fragment = least(o->eager_limit, o->rndv_eager_limit);
        snprintf(o->why, sizeof(o->why),
                 "rendezvous_first_fragment: %.0f B, Open MPI's ob1 over TCP without RDMA\n"
                 "(btl_tcp_flags %#x, no put or get): a rendezvous message's first fragment,\n"
                 "the least of btl_tcp_eager_limit (%.0f B) and btl_tcp_rndv_eager_limit\n"
                 "(%.0f B), read through MPI_T, travels with its request (ob1's header of a\n"
                 "few dozen bytes not taken off); the segments are fitted to that shape",
                 o->fragment, o->flags, o->eager_limit, o->rndv_eager_limit);
    }
}
