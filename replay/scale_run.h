/* One recorded run as the scaling reads it (scale_run.c): per process the sequence of
 * its MPI calls and interval boundaries, each with the computation before it, and every
 * reference that depends on the process count made relative: a point-to-point peer as
 * an offset in the process grid, a communicator as a class (the world, the process
 * alone, a slice of the grid such as a row or a column, blocks of consecutive ranks,
 * every k-th rank), a root as a rank counted from the first or the last.  Runs at different counts can then be compared call by call
 * (scale_program.h) and the run at another count synthesized.
 *
 * The process grid: the one MPI_Cart_create laid out when the recording has its
 * topology (OTF2 CartTopology definitions), else the one the ranks' arithmetic shows:
 * of the layouts MPI_Dims_create gives for 1, 2 and 3 dimensions (ranks in row-major
 * order, dims[0] varying slowest, as MPI_Cart_create numbers them, or when asked
 * fastest: pz_scale_run_read_layout), the one in which
 * the peers of point-to-point messages are the fewest distinct offsets, each of -1, 0
 * or +1 per dimension, the fewer dimensions winning a tie.  A dimension is periodic when
 * a message crosses its ends (which takes more than 2 processes in it).  A run without
 * point-to-point messages, or whose peers fit none of the layouts, has the 1-D grid (not
 * periodic). */
#ifndef PZ_SCALE_RUN_H
#define PZ_SCALE_RUN_H

#include <stddef.h>
#include <stdint.h>

#define PZ_SCALE_MAX_DIMS 3

/* A process grid: ranks in row-major order, dims[0] varying slowest, unless
 * first_fastest. */
struct pz_scale_grid {
    int ndims;                             /* 1 to PZ_SCALE_MAX_DIMS */
    int dims[PZ_SCALE_MAX_DIMS];           /* 1 beyond ndims */
    uint8_t periodic[PZ_SCALE_MAX_DIMS];
    uint8_t from_topology;                 /* MPI_Cart_create's, recorded; else inferred */
    uint8_t first_fastest;                 /* ranks numbered with dims[0] varying fastest,
                                              x + nx (y + ny z), as HPCG numbers them */
    uint8_t ascending;                     /* at counts not recorded, MPI_Dims_create's
                                              factors in increasing order (3 x 3 x 4 at
                                              36, as LAMMPS lays its processes out) */
};

enum pz_scale_comm_kind {
    PZ_SCALE_COMM_WORLD,   /* every process, ranks as in the world */
    PZ_SCALE_COMM_SELF,    /* the caller alone */
    PZ_SCALE_COMM_SLICE,   /* the processes sharing the coordinates of the dimensions not
                              kept (a row, a column, a plane), ranked row-major over the
                              kept ones: MPI_Cart_sub's, or MPI_Comm_split's by row */
    PZ_SCALE_COMM_OTHER,   /* anything else: cannot be extrapolated */
    PZ_SCALE_COMM_NONE,    /* no communicator: the records that have none
                              (PZ_SCALE_NO_COMM), as the model compares them */
    PZ_SCALE_COMM_BLOCKS,  /* the caller's block of k consecutive ranks (rank / k), the
                              last block shorter when k does not divide P: MPI_Comm_split
                              by rank / k */
    PZ_SCALE_COMM_STRIDE,  /* the ranks equal to the caller's modulo k, every k-th:
                              MPI_Comm_split by rank % k */
    PZ_SCALE_COMM_LEADERS, /* ranks 0, k, 2k ...; the others have none (MPI_COMM_NULL)
                              and make no call on it: MPI_Comm_split by rank % k == 0,
                              the others MPI_UNDEFINED */
    PZ_SCALE_COMM_PARTS    /* k blocks whatever P: the caller's block of q = ceil(P / k)
                              consecutive ranks (rank / q), the last shorter when q does
                              not divide P: blocks whose size the recordings show change
                              as P / k (pz_scale_runs_resolve_groups) */
};

/* A class of communicators: one per kind (and per kept dimensions, or k). */
struct pz_scale_comm {
    uint8_t kind;          /* enum pz_scale_comm_kind */
    uint8_t keep;          /* SLICE: bit d set when dimension d of the world's grid is kept */
    uint32_t k;            /* BLOCKS, STRIDE, LEADERS: the block's size or the stride;
                              PARTS: the number of blocks */
    uint32_t ref;          /* not 0: a communicator the program created (its reference in
                              the recording) that this recording alone classes the world
                              or the process alone, and the others may class otherwise
                              (pz_scale_runs_resolve_groups); not part of the class */
    uint8_t node;          /* enum pz_scale_node: the communicator follows the nodes of the
                              machine the run is predicted on; not part of the class */
};

/* The communicators that follow the replaying machine's nodes (scale_nodes.c).  A
 * recording made on one machine has every process on one node: the communicator of
 * MPI_Comm_split_type (MPI_COMM_TYPE_SHARED) is the world at every count, and a split
 * by its rank == 0 (the others MPI_UNDEFINED) rank 0 alone.  Read, they are marked
 * (COMM, LEADERS); pz_scale_runs_resolve_groups then classes them as blocks and the
 * leaders' communicator of PZ_SCALE_NODE_K ranks, exactly their members in every
 * recording, which the synthesis at P gives the machine's node size
 * (pz_scale_program_follow_nodes). */
enum pz_scale_node {
    PZ_SCALE_NODE_NONE,
    PZ_SCALE_NODE_COMM,    /* MPI_Comm_split_type's: the processes of one node */
    PZ_SCALE_NODE_LEADERS  /* MPI_Comm_split's of rank 0 alone in a program that has a
                              node's communicator: the first process of each node */
};

/* The node size the models are built with: more processes than any count, so that a
 * node is every process of each recording. */
#define PZ_SCALE_NODE_K (1u << 30)

/* Whether events of this kind end a request: a send's or receive's completion, a
 * nonblocking collective's, a cancellation. */
int pz_scale_ends_request(uint8_t kind);

/* The groups classes, BLOCKS, STRIDE, LEADERS and PARTS, at P processes (scale_groups.c): is
 * kind one; the instances of class c (how many communicators of the class there are);
 * the instance of process `rank` (-1: it has none, a LEADERS class off its ranks), its
 * size into *size and its rank in it into *in; the world rank of member j of instance i
 * (j below its size). */
int pz_scale_is_group(uint8_t kind);
uint32_t pz_scale_group_count(const struct pz_scale_comm *c, int nprocs);
int64_t pz_scale_group_of(const struct pz_scale_comm *c, int nprocs, int rank, uint32_t *size,
                          uint32_t *in);
int pz_scale_group_member(const struct pz_scale_comm *c, int nprocs, uint32_t instance,
                          uint32_t j);

enum pz_scale_peer_kind {
    PZ_SCALE_PEER_NONE,    /* no peer (a collective without root, a completion) */
    PZ_SCALE_PEER_OFFSET,  /* the process at this offset in the communicator's grid (the
                              world's, or the kept dimensions of a slice, in order) */
    PZ_SCALE_PEER_RANK,    /* this rank of the communicator, from the first (0 = first) */
    PZ_SCALE_PEER_LAST,    /* this rank of the communicator, from the last (0 = last) */
    PZ_SCALE_PEER_ANY,     /* MPI_ANY_SOURCE: the sender the run matched is not a pattern
                              (a receive the recorder marked prognoz:any_source; traces
                              recorded before the mark name the matched sender only) */
    PZ_SCALE_PEER_NEIGHBOURS,  /* a neighbourhood collective's: the processes at offsets
                              in the communicator's grid, the bytes to and from each in
                              the process's neighbour table rank (struct pz_scale_nbr) */
    PZ_SCALE_PEER_XOR,     /* a stage of a butterfly (recursive doubling, hypercube
                              exchange) on the world: the process whose rank is the
                              caller's XOR 2^(rank + j), j the iteration of the loop right
                              around the step (0 outside one); when rank < 0, its bits go
                              down to -1 - rank, from the bit the loop's trip count n
                              gives: XOR 2^(-1 - rank + n - 1 - j) (from log2(P) - 1 where
                              n is log2(P) + rank + 1; from the highest bit of a row of NPB
                              CG's grid where n is its law).  off[1]: as PAIR's (below).
                              Never read from a recording: the model takes it
                              (scale_xor.c) */
    PZ_SCALE_PEER_TRANSPOSE,   /* NPB CG's transpose partner on the world of 2^l
                              processes: the rank written high to low as A B C, A and B
                              of floor(l / 2) bits, C of l mod 2, exchanges with B A C
                              (scale_transpose.c).  Never read from a recording */
    PZ_SCALE_PEER_PAIR,    /* a step of an exchange with every other member of the
                              communicator in turn: at iteration j of the loop right
                              around the step (0 outside one) the member d = rank + j
                              away, off[0] saying how (enum pz_scale_pair_form,
                              scale_pair_forms.c).  Never read from a recording: the
                              model takes it (scale_pairs.c) */
    PZ_SCALE_PEER_TREE,    /* a binomial tree's parent on the world (root 0, MPICH's
                              broadcast and reduction): the caller's rank less its lowest
                              set bit.  Never read from a recording: the model takes it
                              (scale_tree.c) */
    PZ_SCALE_PEER_TURN,    /* a rooted collective's root that turns with the iteration:
                              at iteration j of the loop right around the step (0 outside
                              one) the member (rank + j) mod n of the communicator of n
                              members (SUMMA's panels broadcast from member k mod n of a
                              row at step k).  Never read from a recording: the model
                              takes it (scale_turns.c) */
    PZ_SCALE_PEER_SKEW     /* a skew (Cannon's matrix product's first shift of A along
                              the rows by the row, of B along the columns by the column):
                              the process at an offset along world dimension off[0] of the
                              grid equal to off[2] (+1 or -1) times the caller's coordinate
                              along world dimension off[1], off[0] periodic, modulo its
                              extent; on a slice, off[0] one of its kept dimensions.  A
                              message sent at minus the coordinate is received from plus
                              it: a receive's sign is the opposite of its send's.  Never
                              read from a recording: the model takes it
                              (scale_skew.c) */
};

/* The forms of PZ_SCALE_PEER_PAIR's partners (struct pz_scale_peer.off[0]): the member
 * d away from the caller of n members is */
enum pz_scale_pair_form {
    PZ_SCALE_PAIR_PLUS = 1,    /* caller + d modulo n (a ring schedule) */
    PZ_SCALE_PAIR_MINUS,       /* caller - d modulo n */
    PZ_SCALE_PAIR_XOR,         /* caller XOR d (a pairwise schedule) */
    PZ_SCALE_PAIR_UP,          /* the d-th other member in ascending rank order (a loop
                                  over the ranks that skips the caller's own) */
    PZ_SCALE_PAIR_DOWN         /* the d-th other member in descending rank order */
};
#define PZ_SCALE_PAIR_FORMS PZ_SCALE_PAIR_DOWN
/* A PZ_SCALE_PEER_PAIR's or PZ_SCALE_PEER_XOR's off[1]: 0, or the place of its call in
 * two blocking calls with the partner ordered by rank (a send and a receive, step nodes
 * side by side): the call made first where the caller's rank is below the partner's,
 * second where it is above; or the other one.  The synthesis makes the two the other
 * way round where the rank is above (a process cannot send first on both sides). */
#define PZ_SCALE_ORDERED_FIRST 1
#define PZ_SCALE_ORDERED_SECOND 2

struct pz_scale_peer {
    uint8_t kind;                          /* enum pz_scale_peer_kind */
    int8_t off[PZ_SCALE_MAX_DIMS];         /* OFFSET, per dimension; a periodic wrap is
                                              the short way round (+1 from the last
                                              process to the first); SKEW: its dimensions
                                              and sign */
    int32_t rank;                          /* RANK and LAST; XOR: the bit of the first
                                              stage (< 0: from log2(P), going down);
                                              PAIR: the distance at the first iteration;
                                              TURN: the root at the first iteration */
};

#define PZ_SCALE_NO_COMM UINT16_MAX

/* One-sided events (trace.h, pz_rec_is_rma) have as communicator the class of their
 * window's, as peer their target (an offset, like a message's receiver), and as tag the
 * recorded one (a level of synchronicity, below this) plus the window's slot times this:
 * the window's place among the process's windows alive on the same communicator when it
 * was made (0: none other), so that windows made and freed in a loop are one window of
 * the program, and two alive at once two. */
#define PZ_SCALE_WINDOW_SLOT (1u << 24)

/* The tag of a request-based transfer (MPI_Rput, MPI_Rget, MPI_Raccumulate,
 * MPI_Rget_accumulate: a put, get or atomic with a matching id) has this bit too: it
 * posts a request, which its RMA_OP_COMPLETE in a wait or test completes. */
#define PZ_SCALE_RMA_REQUEST (1u << 23)

/* Whether a one-sided event of this kind is a transfer (a put, get or atomic). */
int pz_scale_is_transfer(uint8_t kind);

/* One event record of a call, as trace.h's struct pz_rec, relative. */
struct pz_scale_event {
    uint8_t kind;          /* enum pz_rec_kind, other than ENTER, LEAVE and FLUSH */
    uint8_t coll_op;       /* OTF2_CollectiveOp of COLL_END and NBC_COMPLETE */
    uint16_t comm;         /* class, index in pz_scale_run.comms; PZ_SCALE_NO_COMM for
                              records without one (COLL_BEGIN, ISEND_COMPLETE, and
                              the requests, tests and cancels) */
    struct pz_scale_peer peer;   /* receiver, sender or root */
    uint32_t tag;
    uint64_t bytes, bytes2;      /* as struct pz_rec's */
    int32_t posted_by;     /* a record that refers to an earlier request (a completion, a
                              test, a cancel): how many steps of its process before
                              this one the call that posted the request is (0: this
                              call); -1 for the others and when no call posted it */
};

enum pz_scale_step_kind {
    PZ_SCALE_CALL,         /* an MPI call */
    PZ_SCALE_BEGIN,        /* an interval begins (the Enter of its region) */
    PZ_SCALE_END           /* an interval ends */
};

/* One step of a process: an MPI call or an interval boundary, after a computation. */
struct pz_scale_step {
    uint8_t kind;          /* enum pz_scale_step_kind */
    uint8_t ordered;       /* never read from a recording: 0, or the place of the step
                              in a butterfly's blocking send and receive with one
                              partner ordered by rank (PZ_SCALE_ORDERED_FIRST, SECOND;
                              replay/scale_order.c's copies) */
    uint32_t region;       /* the region's reference in the recording (names[]) */
    double gap_wall;       /* s of computation since the previous step (the recorder's
                              buffer flushes left out) */
    double gap_cpu;        /* the CPU time of that computation, s; < 0 if not recorded */
    double duration;       /* s inside the call, recorded, its buffer flushes left out (0
                              for interval boundaries) */
    uint32_t first, n;     /* its event records: events[first .. first + n - 1] */
};

/* The offsets -1, 0 and +1 in each of PZ_SCALE_MAX_DIMS dimensions, as the code
 * sum of (off[i] + 1) * 3^(PZ_SCALE_MAX_DIMS - 1 - i) over the communicator's dimensions
 * i (struct pz_scale_peer.off; the dimensions beyond them at offset 0). */
#define PZ_SCALE_OFFSETS 27

/* What a neighbourhood collective (MPI_Neighbor_*, recorded as an Alltoallv whose
 * per-peer lists name the topology's neighbours) moves to and from the process at each
 * offset; 0 for an offset that is no neighbour. */
struct pz_scale_nbr {
    uint64_t sent[PZ_SCALE_OFFSETS], received[PZ_SCALE_OFFSETS];
};

struct pz_scale_process {
    int coords[PZ_SCALE_MAX_DIMS];   /* in the world's grid */
    struct pz_scale_step *steps;
    size_t nsteps;
    struct pz_scale_event *events;
    size_t nevents;
    double tail_wall, tail_cpu;      /* computation after the last step (tail_cpu < 0:
                                        not recorded) */
    struct pz_scale_nbr *nbrs;       /* of its neighbourhood collectives' events */
    size_t nnbrs;
};

struct pz_scale_run {
    char *path;            /* the recording, as given */
    int nprocs;
    struct pz_scale_grid grid;
    int cpu_times;         /* CPU times were recorded (PROGNOZ_CPU_TIME=1) */
    int oversubscribed;    /* some node ran more processes than it has cores */
    double resolution;     /* the recording's clock: ticks per second, */
    uint64_t offset;       /* and its global offset, in ticks */
    char **names;          /* of each region reference: its name ("MPI_Send",
                              "interval 1 at x.c:10"), NULL if undefined */
    uint32_t nnames;
    struct pz_scale_comm *comms;
    uint32_t ncomms;
    struct pz_scale_process *procs;  /* by world rank */
    uint64_t polls;        /* the calls that completed nothing, left out of the steps (an
                              MPI_Test finding its request incomplete, an MPI_Wait on a
                              request already done) */
    uint64_t polls_many;   /* as polls, of MPI_Testall, MPI_Testany, MPI_Testsome and
                              the waits after them */
    uint64_t probes;       /* the calls of MPI_Iprobe and MPI_Improbe, left out of the
                              steps: their records do not say what they found */
};

/* Reads the recording at path (DIR or DIR/traces.otf2) into run.  Returns 0, or -1
 * with a one-line message in err naming the file and, for what cannot be made relative
 * (a communicator of no class, threads, an intercommunicator, a neighbourhood
 * collective whose neighbours are not at offsets -1, 0 or +1 in the grid), the process,
 * the call and the reason. */
int pz_scale_run_read(const char *path, struct pz_scale_run *run, char *err, size_t errlen);

/* The same, the grid inferred in ndims dimensions (1 to PZ_SCALE_MAX_DIMS; 0: as above)
 * unless the recording has a topology: for recordings at small counts, where a grid of
 * fewer dimensions fits as well (2 processes of a 2-D stencil are a 1-D pair), so that
 * they are read in the grid of the others. */
int pz_scale_run_read_grid(const char *path, int ndims, struct pz_scale_run *run, char *err,
                           size_t errlen);

/* The same, the ranks of an inferred grid numbered with dims[0] varying fastest when
 * first_fastest (struct pz_scale_grid): a program that numbers its blocks x + nx (y +
 * ny z) with nx the largest side, as HPCG does, is one whose recordings at 2, 4 and 8
 * processes fit either numbering, but one numbering only across them. */
int pz_scale_run_read_layout(const char *path, int ndims, int first_fastest,
                             struct pz_scale_run *run, char *err, size_t errlen);

void pz_scale_run_free(struct pz_scale_run *run);

/* Classes, across recordings runs[0..n-1] of one program (read), the communicators the
 * program created that one recording alone classes the world or the process alone
 * (struct pz_scale_comm.ref): a split into groups of 2 is the world at 2 processes, its
 * leaders' communicator rank 0 alone, a split by rank % 2 each process alone.  First,
 * blocks whose size changes with the count as P / b for one b in every recording that
 * shows them at the same call (below) are b blocks whatever P (PARTS).  Then such a
 * communicator takes the groups class (BLOCKS, STRIDE, LEADERS, PARTS) that the other
 * recordings show at the same call of the same process (its lowest member's first call
 * on it: the same function, called as many times before), when they show one, all the
 * same, and it gives that process the communicator's members in this recording; else it
 * keeps its class.  One on which messages are sent keeps it too (their peers are
 * offsets in the world's grid).  Last, one still the world or the process alone whose
 * call every other recording that classes it makes on one slice of the grid (the rows
 * MPI_Comm_split makes of MPI_Dims_create's grid, a row of a grid of 2 x 1 the process
 * alone) takes that slice where this recording's grid gives it as many members, else
 * it is of no class: the grids are read in another numbering than the program's. */
void pz_scale_runs_resolve_groups(struct pz_scale_run *runs, size_t n);

/* Classes the communicators marked as a node's (struct pz_scale_comm.node) in runs[0..n-1]
 * once their groups are resolved: a node's communicator still the world, on which no
 * message is sent, as blocks of PZ_SCALE_NODE_K ranks; the leaders' one still rank 0
 * alone, in a run that has a node's communicator, as the leaders' communicator of every
 * PZ_SCALE_NODE_K-th rank.  Any other loses its mark and keeps its class.  Called by
 * pz_scale_runs_resolve_groups. */
void pz_scale_runs_class_nodes(struct pz_scale_run *runs, size_t n);

/* How much longer the run's computations took than their CPU time: the sum of their
 * wall-clock times over the sum of their CPU times, over every process; about 1 when
 * each process had a core to itself, more when processes shared cores (more processes
 * than cores, or other load).  -1 when the recording has no CPU times. */
double pz_scale_run_stretch(const struct pz_scale_run *run);

/* The coordinates of rank r in grid g, and the rank at coordinates c (-1 outside a
 * non-periodic grid; a periodic dimension wraps). */
void pz_scale_grid_coords(const struct pz_scale_grid *g, int r, int *c);
int pz_scale_grid_rank(const struct pz_scale_grid *g, const int *c);

/* MPI_Dims_create's balanced layout of n processes in ndims dimensions (dims
 * non-increasing), into g (not periodic, not from a topology). */
void pz_scale_grid_balanced(struct pz_scale_grid *g, int n, int ndims);

/* The same, its first ndims dimensions in increasing order when ascending (g->ascending
 * set so). */
void pz_scale_grid_layout(struct pz_scale_grid *g, int n, int ndims, int ascending);

/* The order of dims[0..ndims-1] among the layouts of their product's processes. */
enum pz_scale_grid_order {
    PZ_SCALE_GRID_EITHER,       /* MPI_Dims_create's in either order (3 x 3 x 3) */
    PZ_SCALE_GRID_DESCENDING,   /* MPI_Dims_create's own alone (4 x 3 x 3) */
    PZ_SCALE_GRID_ASCENDING,    /* its factors in increasing order alone (3 x 3 x 4) */
    PZ_SCALE_GRID_OTHER         /* neither (2 x 6 at 12) */
};
enum pz_scale_grid_order pz_scale_grid_order(const int *dims, int ndims);

/* Whether the grids of recordings runs[0..n-1] continue in increasing order (a program
 * that lays its processes out itself, smallest side first): one is
 * PZ_SCALE_GRID_ASCENDING and every other is too or PZ_SCALE_GRID_EITHER. */
int pz_scale_grid_ascending(const struct pz_scale_run *const *runs, size_t n);

/* The periodicity of each dimension of the grid of recordings runs[0..n-1] (of as many
 * dimensions as runs[largest]'s) into periodic: the one every recording that shows it
 * has (a recorded topology at any size, messages across more than 2 processes); of a
 * dimension none shows, runs[largest]'s.  Returns 0, or -1 with a one-line message in
 * err naming the dimension and two recordings that disagree. */
int pz_scale_grid_periodicity(const struct pz_scale_run *const *runs, size_t n,
                              size_t largest, uint8_t *periodic, char *err, size_t errlen);

#endif
