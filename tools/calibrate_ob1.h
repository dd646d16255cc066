/* Open MPI's ob1 and the rendezvous's first fragment (machine key
 * rendezvous_first_fragment, docs/machines.md).  ob1 sends a
 * message above its BTL's eager limit with a rendezvous header.  With a contiguous
 * buffer and a BTL that can put or get (TCP's default flags include put, and it needs
 * no memory registration) the header carries no data: the receiver's answer starts the
 * transfer of the whole message (MPICH's shape, fragment 0).  Otherwise (a BTL without
 * put and get, as TCP with btl_tcp_flags cleared of put) the header carries the first
 * min(eager limit, rndv eager limit) bytes, less ob1's header, and the rest follows the
 * receiver's acknowledgement.  The calibration reads TCP's limits and flags, and the
 * btl and pml selections, through MPI_T's control variables. */
#ifndef PZ_CALIBRATE_OB1_H
#define PZ_CALIBRATE_OB1_H

#include <stddef.h>

struct pz_cal_ob1 {
    int read;                  /* the control variables below were read (Open MPI) */
    double eager_limit;        /* B: btl_tcp_eager_limit */
    double rndv_eager_limit;   /* B: btl_tcp_rndv_eager_limit */
    unsigned flags;            /* btl_tcp_flags (MCA_BTL_FLAGS_*) */
    char btl[256];             /* the btl selection ("self,tcp", "^openib", "" any) */
    char pml[256];             /* the pml selection */
    double fragment;           /* B: the key */
    char why[768];             /* how it was obtained: the machine file's note */
};

/* Open MPI's MCA_BTL_FLAGS_PUT and MCA_BTL_FLAGS_GET (opal/mca/btl/btl.h). */
#define PZ_OB1_BTL_PUT 0x2u
#define PZ_OB1_BTL_GET 0x4u

/* Whether a comma-separated MCA selection ("self,tcp", or "^a,b" excluding) lets
 * component `name` be used ("": any). */
int pz_cal_ob1_selects(const char *selection, const char *name);

/* Sets o->fragment and o->why from what was read (same_node: both ranks on one node,
 * where shared memory carries the messages unless the btl selection leaves it out):
 * ob1 over TCP without put and get sends min(eager_limit, rndv_eager_limit); anything
 * else (not read, another pml, another transport, put or get) 0, the reason said. */
void pz_cal_ob1_decide(struct pz_cal_ob1 *o, int same_node);

/* Rank 0 under Open MPI: reads the control variables into o (o->read 0 elsewhere, or
 * when MPI_T cannot), then pz_cal_ob1_decide. */
void pz_cal_ob1_read(struct pz_cal_ob1 *o, int same_node);

#endif
