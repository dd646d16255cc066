/* What the tests of a program's messages synthesized at new counts share (the all-pairs,
 * red-black and rank-ordered butterfly tests): MPI_Dims_create's 2-D grid, the model of
 * three hand-built recordings read as prognoz scale reads them, a note of the model
 * found by its words, and a sink keeping every process's messages, the communicators
 * they are on and a few counts of other records, for checking message by message. */
#ifndef PZ_TEST_SCALE_MESSAGES_H
#define PZ_TEST_SCALE_MESSAGES_H

#include <stddef.h>
#include <stdint.h>

#include "scale_program.h"
#include "scale_traces.h"

#define SM_MAX_PROCS 64
#define SM_MAX_RECS 512   /* messages of one process, at most */

/* MPI_Dims_create's 2-D grid at nprocs: rows x cols, cols <= rows, as balanced as can
 * be (2: 2 x 1, 4: 2 x 2, 6: 3 x 2, 8: 4 x 2, 9: 3 x 3, 12: 4 x 3, 16: 4 x 4, 24: 6 x 4,
 * 64: 8 x 8). */
void sm_dims2(int nprocs, int *rows, int *cols);

/* MPI_Cart_create's 2-D grid at nprocs (sm_dims2) in the trace b is writing, and each of
 * its rows a communicator with a grid of its own (MPI_Cart_sub's), named "row Y", into
 * rowcomm[Y]. */
struct tb;
void sm_cart_rows(struct tb *b, int nprocs, uint32_t *rowcomm);

/* Reads the traces in dirs[0..2] as prognoz scale reads them, each in the dimensions of
 * the one of most (a Criterion assertion fails when one cannot be read), and builds
 * their model into md->m: NULL, with err saying why, when it cannot be built. */
void sm_model_read(struct st_model *md, const char *const dirs[3], char *err,
                   size_t errlen);

/* Writes a hand-built program's trace at nprocs processes under name, its directory
 * into dir (len bytes). */
typedef void sm_record_fn(const char *name, int nprocs, char *dir, size_t len);

/* Writes the trace of a hand-built program at nprocs processes into top/name<nprocs>
 * (its directory into dir, len bytes): process(b, p, nprocs) writes process p's records
 * (a Criterion assertion fails when the trace cannot be written). */
typedef void sm_process_fn(struct tb *b, int p, int nprocs);
void sm_write(const char *top, const char *name, int nprocs, sm_process_fn *process,
              char *dir, size_t len);

/* The program `record` writes, recorded at counts[0..2], read and modelled into md
 * (sm_model_read): a Criterion assertion fails when the model cannot be built. */
void sm_model_of(struct st_model *md, const char *name, const int counts[3],
                 sm_record_fn *record);

/* The first note of m (NULL or not) containing words, or NULL. */
const char *sm_note(const struct pz_scale_program *m, const char *words);

/* A message of a process: its kind (PZ_REC_SEND, RECV, ISEND, IRECV), the world rank
 * of its peer, its tag and bytes. */
struct sm_message {
    uint8_t kind;
    int peer;
    uint32_t tag;
    uint64_t bytes;
};

#define SM_MAX_COLLS 320   /* collectives of one process kept, at most */

/* A collective of a process (its COLL_END, or a nonblocking one's NBC_COMPLETE): its
 * operation (OTF2_CollectiveOp), its
 * communicator (an index in struct sm_run.comms), the world rank of its root (-1:
 * none), and the bytes it sent and received. */
struct sm_collective {
    uint8_t op;
    uint32_t comm;
    int root;
    uint64_t sent, received;
};

/* A synthesized run as the sink kept it, per process: its messages in order, the
 * receives it posted (IRECV_REQUEST), the sends it completed (ISEND_COMPLETE), its
 * collective calls (COLL_END, NBC_COMPLETE), the first SM_MAX_COLLS of them in order, and its
 * messages on a communicator other than the world (communicator 0). */
struct sm_run {
    int n[SM_MAX_PROCS];
    struct sm_message m[SM_MAX_PROCS][SM_MAX_RECS];
    int requests[SM_MAX_PROCS], completed_sends[SM_MAX_PROCS];
    int collectives[SM_MAX_PROCS], off_world[SM_MAX_PROCS];
    struct sm_collective coll[SM_MAX_PROCS][SM_MAX_COLLS];
    /* the communicators, to give peers as world ranks */
    uint32_t ncomms;
    struct pz_synth_comm comms[SM_MAX_PROCS + 2];
    int members[SM_MAX_PROCS + 2][SM_MAX_PROCS];
};

/* The run of m synthesized at nprocs (at most SM_MAX_PROCS) into got, which it clears;
 * a Criterion assertion fails when it cannot be. */
void sm_synthesize(const struct pz_scale_program *m, int nprocs, struct sm_run *got,
                   char *err, size_t errlen);

/* The run of m synthesized at nprocs, its records dropped: 0, or -1 with a one-line
 * message in err (a refusal). */
int sm_synthesize_none(const struct pz_scale_program *m, int nprocs, char *err,
                       size_t errlen);

/* The world rank of rank `rank` of communicator comm of got. */
int sm_world_rank(const struct sm_run *got, uint32_t comm, uint32_t rank);

/* Expects message j of process p of got, synthesized at nprocs, to be want. */
void sm_expect_message(const struct sm_run *got, int nprocs, int p, int j,
                       const struct sm_message *want);

/* Expects process p's first messages in got, synthesized at nprocs, to be want[0..n-1]
 * (worked out by hand). */
void sm_expect_first(const struct sm_run *got, int nprocs, int p,
                     const struct sm_message *want, int n);

/* Expects process p's messages in got, synthesized at nprocs, to be want[0..n-1] (a
 * pass of the program, worked out by hand) `passes` times, and no more. */
void sm_expect_passes(const struct sm_run *got, int nprocs, int p,
                      const struct sm_message *want, int n, int passes);

#endif
