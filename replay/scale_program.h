/* The model of a program's run as a function of the process count P, built from
 * recordings of it at a few counts (scale_run.h), and the run it predicts at any count.
 *
 * Each recording's processes are folded (a sequence of steps that repeats is a loop
 * with a trip count) and merged into one template per program: a sequence of steps,
 * each with the events of its call, where a step whose peer is missing at some
 * processes (the edges of a non-periodic grid) is guarded by that peer's existence, and
 * a step only some processes make (a root's) by the class of those processes.  The
 * recordings must agree on the template (same intervals, same calls once loops are
 * folded, same peers as offsets); where they differ the build fails naming the
 * recordings, the interval, the process and the call.
 *
 * A step's guard is that the peers its point-to-point events address (and those of the
 * request it completes, for MPI_Wait and MPI_Test) exist in the grid, and that the
 * process's position in each dimension (first, middle, last) is one of those allowed:
 * the simplest choice that says exactly which processes of every recording made the
 * step; where no position does, the parity of the process's coordinate along a
 * dimension, or of the sum of its coordinates along several, with positions (the even
 * processes sending first and the odd ones receiving first: a red-black ordering).  A
 * class of processes is the set of these conditions that hold at them, and
 * whether they are the root of a rooted collective on the world (interior, edge,
 * corner, root ...).  A point-to-point call to MPI_PROC_NULL, which records no message,
 * is the step of that call made where its peer does not exist: the step is then made
 * everywhere and its events only where their peers exist.  In a periodic dimension of 1
 * or 2 processes an offset is the one the recordings where the dimension is longer show;
 * when none is, which neighbour it is cannot be told, and the synthesis refuses the
 * counts at which the dimension is longer than in every recording.
 *
 * A completion belongs to the request its posting event made, not to the call that
 * completes it: a call over many requests (MPI_Waitall, MPI_Testall, MPI_Waitany,
 * MPI_Waitsome ...) is the same step whatever it completes: its region, its other
 * events (a failed test's) and, for MPI_Waitall and MPI_Testall, which kinds of
 * requests it completes (receives, sends, collectives: a Waitall of the receives and
 * one of the sends are two steps), never how many or whose.  The template learns from the recordings which step
 * completes each posting event's request and how (completed, or cancelled; its size),
 * and whether that step completes every request posted for it and not yet completed or
 * a fixed number per call, the first posted first (MPI_Waitany: one); the synthesis
 * emits at that step the completions of the requests posted by the steps it emitted,
 * with the ids given at posting, so a process completes exactly the requests of the
 * neighbours it has, even at a position no recording has (the interior, recorded at 2
 * to 4 processes).  A request completed by different calls at different processes (a
 * test that succeeds at times), or calls completing numbers of requests that follow
 * neither rule (MPI_Waitsome), make the build fail naming the place.  MPI_Wait and
 * MPI_Test complete one request: the call exists when the request does, and its
 * completion stays part of the step, naming its posting step.
 *
 * Trip counts and message sizes are fitted as functions of P with exact forms where the
 * recordings determine them (c, c * P^a, c / P^a, c * log2(P), and with 3 counts or
 * more c0 + c1 * P^a, c0 + c1 / P^a, c0 + c1 * log2(P)), else scale_fit.h's model, with
 * a note.  The computation before each step is fitted per class of processes, the same
 * way (an exact form first, then scale_fit.h's); a class found in too few recordings (3,
 * or 2 that an exact form joins) falls back on the processes with the same steps around
 * the computation, a note saying so (at the level of its pair of steps' recordings
 * where the pair is in too few of them).  That fit is the class's mean: each computation of
 * the synthesized run is the mean times a ratio to it drawn among those recorded before
 * the same step (scale_vary.h), so that the processes do not all compute alike; the first
 * step of a loop of a butterfly's stages has the computation of its pair of steps, the
 * loop's beginning (a time step's work) or the previous stage, undrawn.  What
 * cannot be extrapolated (a receive from
 * MPI_ANY_SOURCE, a communicator of no class, a size recorded at one count only) is
 * named in the model's notes with its treatment. */
#ifndef PZ_SCALE_PROGRAM_H
#define PZ_SCALE_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "scale_fit.h"
#include "scale_run.h"
#include "synth_out.h"
#include "trace.h"

struct pz_scale_program;

/* Builds the model of the n runs (n >= 1, distinct process counts, grids of the same
 * number of dimensions, periodic alike where they show it (pz_scale_grid_periodicity),
 * any order; the model keeps pointers to them, not to the array: free the runs after
 * the model).  compute_cpu: the computation from the recorded CPU times (runs without
 * them fail).  Returns NULL with a one-line message in err. */
struct pz_scale_program *pz_scale_program_build(const struct pz_scale_run *const *runs, size_t n,
                                            int compute_cpu, char *err, size_t errlen);
void pz_scale_program_free(struct pz_scale_program *m);

/* The recording whose definitions a synthesized archive copies (synth_out.h): the
 * largest. */
const char *pz_scale_program_recording(const struct pz_scale_program *m);

/* Notes for the user, one line each: what could not be extrapolated and how it is
 * treated.  Their number, and the i-th. */
size_t pz_scale_program_nnotes(const struct pz_scale_program *m);
const char *pz_scale_program_note(const struct pz_scale_program *m, size_t i);

/* The computation model of each interval, for the report: the interval's region name
 * ("" for the whole run), the class of processes ("all", "interior", "corner (first,
 * last)", "root" ...), the fitted model of the computation (s per process over the
 * interval's executions, the mean over the class's processes).  Each interval has its
 * "all" entry, followed by those of the classes with fits of their own that differ. */
struct pz_scale_compute {
    const char *interval;
    const char *class_name;
    struct pz_scale_model time;   /* scale_fit.h */
};
size_t pz_scale_program_ncompute(const struct pz_scale_program *m);
const struct pz_scale_compute *pz_scale_program_compute(const struct pz_scale_program *m,
                                                      size_t i);

/* The nodes of the machine a synthesized run is replayed on, as the communicators that
 * follow them (scale_run.h, enum pz_scale_node) are made at P: blocks of k consecutive
 * ranks (block placement; k = P: one node of every process), or the ranks equal modulo
 * k, one per node of k nodes (cyclic placement, rank r on node r mod k). */
struct pz_scale_nodes {
    uint8_t cyclic;
    uint32_t k;
};

/* Which communicators of m's template follow the nodes: PZ_SCALE_HAS_NODE, a node's
 * (MPI_Comm_split_type's); PZ_SCALE_HAS_LEADERS, the first process of each node's; 0:
 * none, and the syntheses are the same on every machine. */
#define PZ_SCALE_HAS_NODE 1
#define PZ_SCALE_HAS_LEADERS 2
int pz_scale_program_nodes(const struct pz_scale_program *m);

/* The nodes at nprocs processes of a machine of procs_per_node processes per node, its
 * ranks placed cyclically or in blocks, into *out.  Returns 0, or -1 when m's
 * communicators cannot follow them (cyclic placement over several nodes, whose first
 * processes, ranks 0 to nodes - 1, no class holds, when m has the leaders'): *out is
 * then one node of every process. */
int pz_scale_nodes_at(const struct pz_scale_program *m, int procs_per_node, int cyclic,
                      int nprocs, struct pz_scale_nodes *out);

/* Makes the syntheses that follow (pz_scale_synth_new, pz_scale_synthesize, until the
 * next call) give the communicators that follow the nodes the members of nodes n: a
 * node's communicator each process's node, the leaders' the first process of each, and
 * the steps on it and the intervals around them made there.  A synthesis reads them as
 * it goes: call it between syntheses only. */
void pz_scale_program_follow_nodes(struct pz_scale_program *m, const struct pz_scale_nodes *n);

/* Where the synthesized run goes: the communicators first, once, then every process's
 * records in time order per process (processes one after the other).  Each returns 0, or
 * -1 to stop the synthesis. */
struct pz_scale_sink {
    int (*comms)(void *ctx, const struct pz_synth_comm *comms, uint32_t n);
    int (*event)(void *ctx, int proc, const struct pz_rec *rec);
    void *ctx;
};

/* Synthesizes the run at nprocs processes into sink: regions as the recording of
 * pz_scale_program_recording references them, times in its ticks from its clock's
 * offset (scale_run.h does not carry them yet: nanoseconds from 0 are assumed),
 * communicators as indexes in the list given to sink->comms: 0 the world, 1 the process
 * alone, then every instance of each slice ("row 3", "column 0" ...).  Each call's
 * Enter and Leave carry the computation so far as their CPU time.  The synthesis
 * streams process after process: its memory does not grow with their number.  Returns
 * 0, or -1 with a one-line message in err (a count the grid cannot take, a periodic
 * dimension longer than the recordings tell its neighbours in, naming the first call
 * concerned, a root beyond the communicator, a sink that failed). */
int pz_scale_synthesize(const struct pz_scale_program *m, int nprocs,
                        const struct pz_scale_sink *sink, char *err, size_t errlen);

/* The same synthesis made on demand, process by process in any interleaving (the
 * replay's): the run at nprocs processes, its values at P computed once; NULL with a
 * one-line message in err.  Its communicators are those pz_scale_synthesize gives the
 * sink.  m must outlive it. */
struct pz_scale_synth;
struct pz_scale_synth *pz_scale_synth_new(const struct pz_scale_program *m, int nprocs,
                                          char *err, size_t errlen);
void pz_scale_synth_free(struct pz_scale_synth *s);
const struct pz_synth_comm *pz_scale_synth_comms(const struct pz_scale_synth *s, uint32_t *n);
int pz_scale_synth_nprocs(const struct pz_scale_synth *s);
const struct pz_scale_program *pz_scale_synth_program(const struct pz_scale_synth *s);

/* Where a cursor's records go: 0, or -1 to stop. */
typedef int pz_scale_put_fn(void *ctx, int proc, const struct pz_rec *rec);

/* Process proc's synthesis, from its start: its records are exactly those
 * pz_scale_synthesize gives the sink for proc, in the same order.  NULL if memory ran
 * out.  s must outlive it. */
struct pz_scale_cursor;
struct pz_scale_cursor *pz_scale_cursor_new(struct pz_scale_synth *s, int proc);
void pz_scale_cursor_free(struct pz_scale_cursor *c);

/* Makes the process's next step: its records (at least one) through put(ctx, proc, rec).
 * Returns 1, 0 when the process has no step left, or -1 with a one-line message in err
 * (a peer that does not exist, put failing, memory). */
int pz_scale_cursor_next(struct pz_scale_cursor *c, pz_scale_put_fn *put, void *ctx,
                         char *err, size_t errlen);

/* Every process's steps through put, process after process (what pz_scale_synthesize
 * gives its sink's event).  0, or -1 with a one-line message in err. */
int pz_scale_synth_all(struct pz_scale_synth *s, pz_scale_put_fn *put, void *ctx, char *err,
                       size_t errlen);

/* The per-peer byte lists of the run's v collectives whose members move different
 * amounts ("8,0,24", docs/trace-format.md), n of them: a record's send_list and
 * recv_list are numbers in this array (PZ_NONE32: none), not string references, which
 * whoever defines the strings (an archive, a replay's definitions) maps to its own. */
const char *const *pz_scale_synth_lists(const struct pz_scale_synth *s, uint32_t *n);

#endif
