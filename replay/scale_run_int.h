/* Between the parts of scale_run.c's reading: the steps and events are read first with
 * each event's communicator and peer as the recording states them (raw); the grid is
 * inferred from them (scale_run_grid.c), then they are made relative (scale_run_comm.c). */
#ifndef PZ_SCALE_RUN_INT_H
#define PZ_SCALE_RUN_INT_H

#include <stddef.h>
#include <stdint.h>

#include "scale_run.h"
#include "trace_in.h"

/* Of one event: its communicator and its peer (a rank of the communicator), PZ_NONE32
 * when it has none; of the end of a neighbourhood collective (nbr), its per-peer lists
 * (string references, PZ_NONE32 when absent), whose nonzero entries are its neighbours. */
struct pz_scale_raw {
    uint32_t comm, peer;
    uint32_t send_list, recv_list;
    uint8_t nbr;
    uint8_t common;        /* a one-sided target that is the same process for every
                              process (scale_run_comm.c), a send to a process that
                              receives from any source (scale_run_any.c): a rank, not
                              an offset */
    uint8_t any;           /* a receive posted with MPI_ANY_SOURCE: peer is the sender
                              that matched, no pattern of the grid */
    uint8_t rooted;        /* a message of a communicator and tag that only messages to
                              or from world rank 0 carry (a gather or scatter written by
                              hand): left out of the grid's choice */
};


/* What the parts share: the recording, the run being read, the raw part of each
 * process's events (raw[p][i] of run->procs[p].events[i]), where errors go. */
struct pz_scale_reading {
    struct pz_trace_in *in;
    struct pz_scale_run *run;
    struct pz_scale_raw **raw;
    int ndims;             /* of the grid inferred; 0: whichever fits best */
    int first_fastest;     /* its ranks numbered with dims[0] varying fastest */
    uint8_t *left_out;     /* by region reference: 1 where a call was left out of the
                              steps (a poll), which the template may still name */
    uint32_t nleft_out;
    uint8_t *persistent_nbr;   /* by communicator reference: 1 where it is a persistent
                                  neighbourhood collective's own (scale_run.c) */
    uint32_t npersistent_nbr;
    char *err;
    size_t errlen;
};

/* Puts "PATH: " and the formatted reason into r->err; returns -1. */
int pz_scale_fail(struct pz_scale_reading *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Whether events of this kind name a peer: point-to-point messages. */
int pz_scale_is_message(uint8_t kind);

/* Whether events of this kind name a process of their communicator that they address,
 * made an offset in the grid like a message's peer: point-to-point messages, and the
 * one-sided transfers, locks, releases and flushes, whose target is a rank of their
 * window's communicator (PZ_NONE32: every process, MPI_Win_lock_all's). */
int pz_scale_has_target(uint8_t kind);

/* Marks (struct pz_scale_raw.common) the one-sided targets that are one process for all
 * (scale_run_comm.c): where every process of a run of 2 or more has as many one-sided
 * events with a target, the k-th of every process that names the same process as every
 * other's k-th (every process accumulating into rank 0's window, locking it).  Such a
 * target is a rank of the communicator at every count, where an offset would follow the
 * position (the last process of 4 three back, of 16 fifteen), and says nothing of the
 * grid.  0, or -1 when memory runs out. */
int pz_scale_mark_common(struct pz_scale_reading *r);

/* Marks (struct pz_scale_raw.common) the sends to a process that receives from
 * MPI_ANY_SOURCE (struct pz_scale_raw.any) on their communicator with their tag
 * (scale_run_any.c): a collector is a rank, not a position in the grid.  0, or -1 when
 * memory runs out. */
int pz_scale_mark_collected(struct pz_scale_reading *r);

/* Infers run->grid from the messages (scale_run.h) and sets every process's coords. */
void pz_scale_infer_grid(struct pz_scale_reading *r);

/* The offset from coordinates a to b in dimension d of g, the short way round if it is
 * periodic. */
int pz_scale_grid_offset(const struct pz_scale_grid *g, int d, const int *a, const int *b);

/* The per-peer lists of raw event e of process p, by rank j of its communicator of n:
 * the bytes sent to j and received from it at (*bytes)[j] and (*bytes)[n + j], j's
 * world rank at (*q)[j] (-1 undefined), both allocated; returns n, or -1 when the lists
 * are absent or malformed, -2 when memory runs out (both NULL then). */
int pz_scale_nbr_lists(struct pz_scale_reading *r, int p, const struct pz_scale_raw *e,
                       double **bytes, int **q);

/* A groups class (scale_run.h: BLOCKS, STRIDE, LEADERS) that communicators of a run
 * propose by their shape (a block of their size, the ranks a step apart), and how many
 * of them are whole instances of it. */
struct pz_scale_group_candidate {
    struct pz_scale_comm c;
    uint32_t support;
};

/* The classes sib[0..nsib-1], every communicator the run's events use, propose, each
 * once, into *out (allocated), the most supported first, in the order proposed on a tie;
 * every k-th rank from 0 is proposed as the leaders' communicator unless another
 * communicator has the ranks equal to another modulo k, and as those ranks otherwise.
 * Their number, or -1 when memory runs out (scale_groups.c). */
int pz_scale_group_candidates(int nprocs, const struct pz_comm_def *const *sib, uint32_t nsib,
                              struct pz_scale_group_candidate **out);

/* The groups class of communicator x, of fewer members than the run's nprocs: the
 * first of cand[0..ncand-1] (pz_scale_group_candidates) whose instance x's members are
 * exactly, so that a last block shorter than the others takes theirs (at 6 processes in
 * groups of 4, {4, 5} is a short block of 4, not a block of 2).  1 with *k, 0 when none
 * fits. */
int pz_scale_group_infer(int nprocs, const struct pz_comm_def *x,
                         const struct pz_scale_group_candidate *cand, uint32_t ncand,
                         struct pz_scale_comm *k);

/* Classifies the communicators of the events and makes their peers relative: 0, or -1
 * with the message in r->err. */
int pz_scale_relate(struct pz_scale_reading *r);

#endif
