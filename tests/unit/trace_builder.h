/* Hand-built OTF2 traces for the analyzer's tests, written through the OTF2 writer API
 * with serial collective callbacks: one process per location group, one location each,
 * timestamps in nanoseconds (resolution 1e9), so that a test states each Enter and
 * Leave and derives the characteristics by hand.
 *
 *     struct tb *b = tb_open(dir, 2);
 *     tb_call(b, 0, "MPI_Init", 0, 1000000);          // rank 0 in MPI_Init for 1 ms
 *     uint32_t i1 = tb_interval(b, 1, "x.c", 10);     // "interval 1 at x.c:10", PHASE
 *     tb_enter(b, 0, 1000000, i1);
 *     ...
 *     tb_close(b);                                    // DIR/traces.otf2 is complete
 *
 * Events of one process must come in time order; processes may interleave. */
#ifndef PZ_TEST_TRACE_BUILDER_H
#define PZ_TEST_TRACE_BUILDER_H

#include <stdint.h>
#include <otf2/otf2.h>

#define TB_MS(x) ((uint64_t)((x) * 1000000.0 + 0.5))   /* milliseconds in ns */

struct tb;

/* A new archive DIR/traces.otf2 of nprocs processes; NULL on failure. */
struct tb *tb_open(const char *dir, int nprocs);

/* The same, with location ids[p] for process p instead of p (ids distinct, nprocs of
 * them): the ranks of MPI_COMM_WORLD are then positions in the COMM_LOCATIONS group,
 * not location ids. */
struct tb *tb_open_locations(const char *dir, int nprocs, const uint64_t *ids);

/* Another thread of process proc: a new location in its location group, whose number,
 * returned, the event functions take like a process's (the processes are locations 0
 * to nprocs - 1).  Its id is one more than the largest so far. */
int tb_thread(struct tb *b, int proc);

/* Sets the clock's global offset (default 0): the analyzer measures times from it. */
void tb_set_offset(struct tb *b, uint64_t offset);

/* Regions, each defined once per name: an MPI function (paradigm MPI, as the recorder
 * and Score-P define them), an interval (flag PHASE, named "interval ID at BASE:LINE"
 * with BASE the file's last component) and a region of the program's own code. */
uint32_t tb_mpi(struct tb *b, const char *name);
uint32_t tb_interval(struct tb *b, unsigned id, const char *file, unsigned line);
/* A sequential interval, as the recorder writes one begun by PROGNOZ_BEGIN_SEQ:
 * "sequential interval ID at FILE:LINE", PHASE, description "prognoz:sequential". */
uint32_t tb_sequential_interval(struct tb *b, unsigned id, const char *file, unsigned line);
uint32_t tb_user(struct tb *b, const char *name);

void tb_enter(struct tb *b, int proc, uint64_t ns, uint32_t region);
void tb_leave(struct tb *b, int proc, uint64_t ns, uint32_t region);

/* An MPI call of process proc from enter to leave (ns). */
void tb_call(struct tb *b, int proc, const char *name, uint64_t enter, uint64_t leave);

/* Communicators, as prognoz and Score-P define them: a COMM_LOCATIONS group of the
 * processes' locations in world-rank order (process p is world rank p), a COMM_SELF
 * group, and per communicator a COMM_GROUP whose members are world ranks.  TB_WORLD
 * (MPI_COMM_WORLD) and TB_SELF (MPI_COMM_SELF) exist once any of the functions below is
 * used; tb_comm defines another one, of world_ranks[0..n-1] as its ranks 0..n-1, and
 * returns its id. */
#define TB_WORLD 0u
#define TB_SELF 1u
#define TB_NO_ROOT OTF2_UNDEFINED_UINT32
uint32_t tb_comm(struct tb *b, const char *name, int n, const int *world_ranks);
/* An intercommunicator between the world ranks a[0..na-1] and b[0..nb-1] (an
 * InterComm definition of two COMM_GROUPs): a message's peer is a rank of the other
 * group, as in MPI. */
uint32_t tb_intercomm(struct tb *b, const char *name, int na, const int *a, int nb,
                      const int *bb);

/* Cartesian topologies, written after the communicators as the recorder and Score-P
 * write them.  tb_cart: a CartDimension of each dims[d] (periodic[d] nonzero: periodic;
 * periodic may be NULL), a CartTopology of communicator comm made of them and, with
 * coordinates set, the CartCoordinate of every rank of the grid in row-major order
 * (dims[0] varying slowest); it returns the topology's id (0, 1, ... in order).  At
 * most 255 dimensions: OTF2 counts them in a byte.
 * tb_cart_coordinate: one CartCoordinate of rank in topology, of n values, after the
 * topologies and coordinates before it.  Nothing is checked, so that a test can write
 * what no recorder writes (no dimension, a coordinate beyond its grid, a topology that
 * does not exist). */
uint32_t tb_cart(struct tb *b, uint32_t comm, int ndims, const uint32_t *dims,
                 const int *periodic, int coordinates);
void tb_cart_coordinate(struct tb *b, uint32_t topology, uint32_t rank, int n,
                        const uint32_t *coords);

/* MPI event records of process proc at ns; peers (dest, source, root) are ranks of the
 * communicator. */
void tb_mpi_send(struct tb *b, int proc, uint64_t ns, uint32_t comm, uint32_t dest,
                 uint32_t tag, uint64_t bytes);
void tb_mpi_isend(struct tb *b, int proc, uint64_t ns, uint32_t comm, uint32_t dest,
                  uint32_t tag, uint64_t bytes, uint64_t request);
void tb_mpi_isend_complete(struct tb *b, int proc, uint64_t ns, uint64_t request);
void tb_mpi_irecv_request(struct tb *b, int proc, uint64_t ns, uint64_t request);
void tb_mpi_recv(struct tb *b, int proc, uint64_t ns, uint32_t comm, uint32_t source,
                 uint32_t tag, uint64_t bytes);
void tb_mpi_irecv(struct tb *b, int proc, uint64_t ns, uint32_t comm, uint32_t source,
                  uint32_t tag, uint64_t bytes, uint64_t request);
/* a test that found the request incomplete */
void tb_request_test(struct tb *b, int proc, uint64_t ns, uint64_t request);
/* a nonblocking collective: its request in the I-call, its completion in the wait */
void tb_nbc_request(struct tb *b, int proc, uint64_t ns, uint64_t request);
void tb_nbc_complete(struct tb *b, int proc, uint64_t ns, OTF2_CollectiveOp op,
                     uint32_t comm, uint32_t root, uint64_t sent, uint64_t received,
                     uint64_t request);
void tb_collective_begin(struct tb *b, int proc, uint64_t ns);
void tb_collective_end(struct tb *b, int proc, uint64_t ns, OTF2_CollectiveOp op,
                       uint32_t comm, uint32_t root, uint64_t sent, uint64_t received);

/* MPI-IO and one-sided records of process proc at ns, as prognoz and Score-P write them
 * (docs/trace-format.md); the analyzer needs no definition of their handles and
 * windows, so none is written (the handles and window are 0). */
void tb_io_begin(struct tb *b, int proc, uint64_t ns, OTF2_IoOperationMode mode,
                 uint64_t bytes, uint64_t matching);
/* A nonblocking operation's begin (MPI_File_iwrite ...): flag NON_BLOCKING, matching
 * id the request's. */
void tb_io_begin_nonblocking(struct tb *b, int proc, uint64_t ns, OTF2_IoOperationMode mode,
                             uint64_t bytes, uint64_t matching);
void tb_io_complete(struct tb *b, int proc, uint64_t ns, uint64_t bytes, uint64_t matching);
void tb_rma_put(struct tb *b, int proc, uint64_t ns, uint32_t target, uint64_t bytes);
void tb_rma_get(struct tb *b, int proc, uint64_t ns, uint32_t target, uint64_t bytes);
/* A put with a matching id (MPI_Rput's request), and the completion of the request of
 * that matching id (RmaOpCompleteNonBlocking, in the wait). */
void tb_rma_put_request(struct tb *b, int proc, uint64_t ns, uint32_t target, uint64_t bytes,
                        uint64_t matching);
void tb_rma_op_complete(struct tb *b, int proc, uint64_t ns, uint64_t matching);
void tb_rma_atomic(struct tb *b, int proc, uint64_t ns, uint32_t target, uint64_t sent,
                   uint64_t received);
/* For the replay, which needs the window's communicator: tb_rma_window defines window 0
 * on MPI_COMM_WORLD ("MPI window 0", as the recorder names it).  tb_fence_call: an
 * MPI_Win_fence on it from enter to leave, RmaCollectiveBegin at its enter and
 * RmaCollectiveEnd (BARRIER) at its leave; tb_rma_lock, tb_rma_unlock: the
 * RmaRequestLock (exclusive) and RmaReleaseLock of target, lock id the target's rank. */
void tb_rma_window(struct tb *b);
/* Windows of other communicators: tb_rma_window_on defines the next window (0, 1 ... at
 * most TB_MAX_WINDOWS; window 0 on MPI_COMM_WORLD is then not defined unless made so)
 * on comm and returns its id; the one-sided records written after tb_rma_use name
 * window `window` (0 until then). */
#define TB_MAX_WINDOWS 16
uint32_t tb_rma_window_on(struct tb *b, uint32_t comm);
void tb_rma_use(struct tb *b, uint32_t window);
void tb_fence_call(struct tb *b, int proc, uint64_t enter, uint64_t leave);
void tb_rma_lock(struct tb *b, int proc, uint64_t ns, uint32_t target);
void tb_rma_lock_type(struct tb *b, int proc, uint64_t ns, uint32_t target, OTF2_LockType type);
void tb_rma_unlock(struct tb *b, int proc, uint64_t ns, uint32_t target);
/* tb_win_create_call, tb_win_free_call: MPI_Win_create and MPI_Win_free of window 0
 * from enter to leave as the recorder writes them: RmaCollectiveBegin at enter, then
 * RmaWinCreate, RmaCollectiveEnd (CREATE_HANDLE) at leave; RmaCollectiveBegin and
 * RmaWinDestroy at enter, RmaCollectiveEnd (DESTROY_HANDLE) at leave.  tb_rma_flush: the
 * RmaSync (MEMORY) of MPI_Win_flush on target (TB_NO_ROOT: every process, as
 * MPI_Win_flush_all; a lock and an unlock of TB_NO_ROOT are MPI_Win_lock_all's and
 * MPI_Win_unlock_all's). */
void tb_win_create_call(struct tb *b, int proc, uint64_t enter, uint64_t leave);
void tb_win_free_call(struct tb *b, int proc, uint64_t enter, uint64_t leave);
void tb_rma_flush(struct tb *b, int proc, uint64_t ns, uint32_t target);
/* The group of a one-sided epoch, world_ranks[0..n-1]: a COMM_GROUP, defined with a
 * communicator of its own (the next tb_comm's); returns the group's id.  tb_epoch_call:
 * a call (MPI_Win_post, _start, _complete, _wait, _test) on window 0 from enter to
 * leave with the RmaGroupSync of group at level at its leave. */
uint32_t tb_group(struct tb *b, int n, const int *world_ranks);
void tb_epoch_call(struct tb *b, int proc, const char *name, uint64_t enter, uint64_t leave,
                   OTF2_RmaSyncLevel level, uint32_t group);

/* Whole calls with their records where prognoz writes them: the MpiSend of a send call
 * at its enter, the MpiRecv of a receive call at its leave, a collective's
 * MpiCollectiveBegin at its enter and MpiCollectiveEnd at its leave.  8 bytes each. */
void tb_send_call(struct tb *b, int proc, const char *name, uint64_t enter, uint64_t leave,
                  uint32_t comm, uint32_t dest, uint32_t tag);
void tb_recv_call(struct tb *b, int proc, const char *name, uint64_t enter, uint64_t leave,
                  uint32_t comm, uint32_t source, uint32_t tag);
void tb_collective_call(struct tb *b, int proc, const char *name, uint64_t enter,
                        uint64_t leave, OTF2_CollectiveOp op, uint32_t comm, uint32_t root);
/* The same, moving sent and received bytes. */
void tb_collective_call_bytes(struct tb *b, int proc, const char *name, uint64_t enter,
                              uint64_t leave, OTF2_CollectiveOp op, uint32_t comm,
                              uint32_t root, uint64_t sent, uint64_t received);

/* Call sites, as the recorder writes them with PROGNOZ_CALLSITES=1: a
 * SourceCodeLocation definition per (file, line), returned by tb_site, and the attribute
 * "prognoz:callsite" of type SOURCE_CODE_LOCATION on the Enter of an MPI call made from
 * one.  A trace that uses no site defines neither. */
uint32_t tb_site(struct tb *b, const char *file, unsigned line);
void tb_enter_site(struct tb *b, int proc, uint64_t ns, uint32_t region, uint32_t site);

/* A receive posted with MPI_ANY_SOURCE, as the recorder writes it: the MpiRecv of the
 * sender that matched with the attribute "prognoz:any_source" (UINT8, 1), which a trace
 * using it defines. */
void tb_mpi_recv_any(struct tb *b, int proc, uint64_t ns, uint32_t comm, uint32_t source,
                     uint32_t tag, uint64_t bytes);

/* Defines the attributes of the per-peer byte lists of v collectives,
 * "prognoz:send_bytes" and "prognoz:recv_bytes" (STRING), as the recorder does in every
 * trace; no event carries them. */
void tb_define_lists(struct tb *b);
/* A collective end without root carrying the per-peer lists send_list and recv_list
 * ("0,2048,0"), which it defines (tb_define_lists). */
void tb_collective_end_lists(struct tb *b, int proc, uint64_t ns, OTF2_CollectiveOp op,
                             uint32_t comm, uint64_t sent, uint64_t received,
                             const char *send_list, const char *recv_list);
/* The same as a nonblocking collective's completion of request. */
void tb_nbc_complete_lists(struct tb *b, int proc, uint64_t ns, OTF2_CollectiveOp op,
                           uint32_t comm, uint64_t sent, uint64_t received,
                           const char *send_list, const char *recv_list, uint64_t request);

/* A BufferFlush of process proc from ns to stop: the recorder's own time, which the
 * predictor removes. */
void tb_flush(struct tb *b, int proc, uint64_t ns, uint64_t stop);

/* Enter and Leave with the attribute "prognoz:cpu_time" (type UINT64: the thread's CPU
 * time in ns so far), as the recorder writes it on MPI calls with PROGNOZ_CPU_TIME=1. */
void tb_enter_cpu(struct tb *b, int proc, uint64_t ns, uint32_t region, uint64_t cpu_ns);
void tb_leave_cpu(struct tb *b, int proc, uint64_t ns, uint32_t region, uint64_t cpu_ns);

/* The archive's property name set to value (OTF2_Archive_SetProperty), as the
 * recorder's assembly sets PZ_PARTIAL_PROPERTY. */
void tb_property(struct tb *b, const char *name, const char *value);

/* Writes the definitions and closes the archive; 0 or -1.  Frees b. */
int tb_close(struct tb *b);

/* A fresh temporary directory (free the result), and its recursive removal. */
char *tb_tempdir(void);
void tb_remove(const char *dir);

#endif
