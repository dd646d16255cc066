/* Which rendezvous ob1 takes, from Open MPI's control variables (tools/calibrate_ob1.h),
 * by the rule of its send path: a contiguous message above the eager limit goes by the
 * BTL's RDMA, its request carrying no data, when the BTL can put or get; else its
 * request carries min(eager limit, rndv eager limit) bytes. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "calibrate_ob1.h"

/* Open MPI 4.1's TCP defaults: 64 KiB limits; btl_tcp_flags 315 = 0x13b (send, put,
 * inplace, need-ack, need-csum, hetero-rdma); without put, 57 = 0x39. */
static struct pz_cal_ob1 tcp(unsigned flags, const char *btl, const char *pml)
{
    struct pz_cal_ob1 o = { .read = 1, .eager_limit = 65536, .rndv_eager_limit = 65536,
                            .flags = flags };

    snprintf(o.btl, sizeof(o.btl), "%s", btl);
    snprintf(o.pml, sizeof(o.pml), "%s", pml);
    return o;
}

Test(ob1, selections_include_and_exclude)
{
    cr_assert(pz_cal_ob1_selects("", "tcp"), "none: any");
    cr_assert(pz_cal_ob1_selects("self,tcp", "tcp"));
    cr_assert_not(pz_cal_ob1_selects("self,tcp", "vader"));
    cr_assert_not(pz_cal_ob1_selects("self,tcpx", "tcp"), "a whole word");
    cr_assert(pz_cal_ob1_selects("^uct,openib,ofi", "tcp"));
    cr_assert_not(pz_cal_ob1_selects("^uct,openib,ofi", "openib"));
    cr_assert(pz_cal_ob1_selects("^ucx", "ob1"));
    cr_assert_not(pz_cal_ob1_selects("ucx", "ob1"));
}

/* TCP with put (the default): no fragment.  Without put: 64 KiB. */
Test(ob1, put_means_no_fragment)
{
    struct pz_cal_ob1 o = tcp(0x13b, "self,tcp", "^ucx");

    pz_cal_ob1_decide(&o, 1);
    cr_assert_eq(o.fragment, 0);
    cr_assert_not_null(strstr(o.why, "has put"), "%s", o.why);
    o = tcp(0x39, "self,tcp", "^ucx");
    pz_cal_ob1_decide(&o, 1);
    cr_assert_eq(o.fragment, 65536);
    cr_assert_not_null(strstr(o.why, "65536 B"), "%s", o.why);
}

/* The fragment is the smaller of the two limits; get counts as put does. */
Test(ob1, the_smaller_limit_and_get)
{
    struct pz_cal_ob1 o = tcp(0x39, "self,tcp", "");

    o.rndv_eager_limit = 32768;
    pz_cal_ob1_decide(&o, 0);
    cr_assert_eq(o.fragment, 32768);
    o.flags |= PZ_OB1_BTL_GET;
    pz_cal_ob1_decide(&o, 0);
    cr_assert_eq(o.fragment, 0);
}

/* Not TCP between the two ranks: shared memory on one node unless the selection leaves
 * it out (on two nodes it cannot carry them); another pml; nothing read. */
Test(ob1, other_transports_and_pmls_and_nothing_read)
{
    struct pz_cal_ob1 o = tcp(0x39, "^openib", "");

    pz_cal_ob1_decide(&o, 1);
    cr_assert_eq(o.fragment, 0, "vader between the ranks of one node");
    pz_cal_ob1_decide(&o, 0);
    cr_assert_eq(o.fragment, 65536, "two nodes: TCP");
    o = tcp(0x39, "self,vader", "");
    pz_cal_ob1_decide(&o, 0);
    cr_assert_eq(o.fragment, 0, "TCP left out");
    o = tcp(0x39, "self,tcp", "ucx");
    pz_cal_ob1_decide(&o, 0);
    cr_assert_eq(o.fragment, 0, "ucx, not ob1");
    o = tcp(0x39, "self,tcp", "");
    o.read = 0;
    pz_cal_ob1_decide(&o, 0);
    cr_assert_eq(o.fragment, 0);
    cr_assert_not_null(strstr(o.why, "not measured"), "%s", o.why);
}
