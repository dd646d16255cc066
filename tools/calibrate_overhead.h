/* The overheads' probe (docs/calibrate.md, "Overheads"): the sender's MPI_Isend +
 * MPI_Wait of an eager message whose receive is posted, and the receiver's MPI_Wait for
 * a message that has arrived.  The receiver computes meanwhile, so that the message
 * arrives before its wait; but a sender descheduled meanwhile (the two ranks sharing a
 * core, another job's time slice) sends late, and the receiver's wait then includes
 * waiting for it.  The receiver cannot see whether the message is there without an MPI
 * call, which would take part of what it times; so each repetition's receive is kept
 * only when the two ranks' clocks show that the send had completed before the wait
 * began, and the repetitions whose message was late are repeated.  Rank 0 leads, rank 1
 * answers the order PZ_CAL_OVERHEAD_ARRIVED. */
#ifndef PZ_CALIBRATE_OVERHEAD_H
#define PZ_CALIBRATE_OVERHEAD_H

/* The order (calibrate_cpu.h's pz_cal_order) of the probe, with the size and the
 * receiver's delay in nanoseconds; apart from calibrate_cpu.h's orders. */
#define PZ_CAL_OVERHEAD_ARRIVED (-34)

/* A probe stops after this many times its repetitions were tried, kept or not: under a
 * load that makes every message late it ends all the same. */
#define PZ_CAL_OVERHEAD_TRIES 3

/* Whether the receiver's timed MPI_Wait began after the message had arrived: it began
 * at wait_start by rank 1's clock, the sender's MPI_Wait returned at sent by rank 0's,
 * rank 1's clock less rank 0's is offset, and a message reaches the receiver at most
 * lead seconds after its send completed (an eager send completes once the transport
 * has the data).  A repetition in which the sender was descheduled between the
 * receiver's "ready" and its send, or late for any reason, fails it: its receiver's
 * wait included waiting for the message. */
int pz_cal_arrived(double wait_start, double sent, double offset, double lead);

/* The receiver's time of a size from its n rounds: the median (pz_cal_round_time) of
 * kept, each round's time over the tries it kept (NAN: none kept), or, when no round
 * kept any, of all, each round's over every try. */
double pz_cal_overhead_recv_time(const double *kept, const double *all, int n);

/* One probe at one size. */
struct pz_cal_overhead_probe {
    double send;   /* s: pz_cal_typical of MPI_Isend + MPI_Wait over every try */
    double recv;   /* s: pz_cal_typical of the receiver's MPI_Wait over the kept tries,
                      NAN when none was kept */
    double recv_all;   /* s: the same over every try */
    int tried;     /* repetitions tried */
    int kept;      /* of them, whose message had arrived (pz_cal_arrived) */
};

/* Rank 0: tries repetitions of the probe at bytes until `repetitions` are kept or
 * PZ_CAL_OVERHEAD_TRIES x repetitions were tried: rank 1 posts its receive and says
 * so, rank 0 times MPI_Isend + MPI_Wait, rank 1 computes for delay seconds, times its
 * MPI_Wait and sends both when it began and how long it took; rank 0 keeps it when
 * pz_cal_arrived(began, its send's end, offset, lead).  Into *p. */
void pz_cal_lead_overhead_arrived(char *out, long bytes, int repetitions, double delay,
                                  double lead, double offset,
                                  struct pz_cal_overhead_probe *p);

/* Rank 1: its side of the probe ordered, until rank 0 says stop. */
void pz_cal_answer_overhead_arrived(char *buf, long bytes, double delay);

#endif
