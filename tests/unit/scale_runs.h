/* Recorded runs of the scaling (replay/scale_run.h) built by hand: a program is a
 * function that, for one process of a run at P processes, makes its steps with relative
 * peers, and says with each event what a run at P really does (the peer's world rank,
 * the communicator's members), so that a synthesized run can be checked against it. */
#ifndef PZ_TEST_SCALE_RUNS_H
#define PZ_TEST_SCALE_RUNS_H

#include <stdint.h>

#include "scale_program.h"
#include "scale_run.h"

/* Region references of every built run. */
enum sr_region {
    SR_SEND, SR_RECV, SR_ISEND, SR_IRECV, SR_WAIT, SR_ALLREDUCE, SR_REDUCE, SR_BCAST,
    SR_ALLTOALL, SR_BARRIER, SR_INTERVAL, SR_WAITALL, SR_WAITANY, SR_INEIGHBOR, SR_SENDRECV,
    SR_FILE_WRITE_ALL, SR_NREGIONS
};

/* Communicator classes of every built run: the world, the process alone, a row of a 2-D
 * grid (dimension 1 kept), a column (dimension 0 kept). */
enum sr_comm { SR_WORLD, SR_SELF, SR_ROW, SR_COLUMN, SR_NCOMMS };

/* What the event really is at this P. */
struct sr_truth {
    int peer;                  /* world rank of the peer or root, -1 none */
    int first, size, stride;   /* the communicator's members: first + i * stride */
    int posted_by;             /* completions: steps back to the posting one */
};

struct sr_run {
    struct pz_scale_run run;
    struct sr_truth **truth;   /* [proc][event] */
    size_t *ntruth, *captruth;
    size_t *capsteps, *capevents;
};

/* A program: makes the steps of process proc at coords in run (grid b->run.grid). */
typedef void (*sr_program)(struct sr_run *b, int proc, const int *coords, void *arg);

/* Builds the run of program at nprocs processes in the grid MPI_Dims_create lays out in
 * ndims dimensions, periodic as given.  Aborts on lack of memory. */
struct sr_run *sr_build(const char *path, int nprocs, int ndims, const uint8_t *periodic,
                        sr_program program, void *arg);
void sr_free(struct sr_run *b);

/* A step of process proc after gap s of computation (CPU the same). */
void sr_step(struct sr_run *b, int proc, uint8_t kind, uint32_t region, double gap);
/* An event of the last step. */
void sr_event(struct sr_run *b, int proc, const struct pz_scale_event *e,
              const struct sr_truth *t);

/* The world rank at coords + off in b's grid (-1 outside), by plain arithmetic. */
int sr_rank_at(const struct sr_run *b, const int *coords, const int *off);
/* The offset to that process as a recording shows it (scale_run.h): across the ends of
 * a periodic dimension the short way round, so that in a periodic dimension of 2
 * processes both neighbours are at +1 from the first and at -1 from the last, and in one
 * of 1 process at 0.  Into out. */
void sr_recorded_offset(const struct sr_run *b, const int *coords, const int *off, int *out);

/* A program recorded at 3 counts and the model built from them. */
struct sr_recorded {
    struct sr_run *runs[3];
    const struct pz_scale_run *list[3];
    struct pz_scale_program *m;
};

/* Records prog at the 3 counts given and builds its model (a Criterion assertion fails
 * if it cannot be built). */
void sr_record_at(struct sr_recorded *r, const int *counts, int ndims,
                  const uint8_t *periodic, sr_program prog, void *arg);
void sr_recorded_free(struct sr_recorded *r);

/* A synthesis sink's comms callback that keeps nothing. */
int sr_no_comms(void *ctx, const struct pz_synth_comm *comms, uint32_t n);

/* A message of kind on the world to the process off away along the first dimension
 * (its peer an offset), with tag and bytes. */
struct pz_scale_event sr_message_along(uint8_t kind, int off, uint32_t tag, uint64_t bytes);

/* One iteration of a ring along the first dimension at process p (coordinates c), after
 * gap s of computation: MPI_Isend of bytes with tag to the east, MPI_Recv of as many from
 * the west, MPI_Wait for the send. */
void sr_ring_iteration(struct sr_run *b, int p, const int *c, uint32_t tag, uint64_t bytes,
                       double gap);

#endif
