/* The global definitions of a recorded run, read once for every reader (the analyzer,
 * the replay, the SimGrid export): strings, regions classified, call sites, locations
 * numbered into processes and threads, groups, communicators as processes, their
 * Cartesian topologies, the clock and prognoz's attributes (names.h).
 *
 * Processes are the MPI processes (location groups with a thread) in the order of their
 * ids; threads (CPU thread locations: accelerator streams and metric locations are not
 * read) are numbered process after process and, in a process, by location id, so that
 * without threads thread p is process p.  A communicator's members are processes: a
 * member of a COMM_GROUP is a rank of the world, MPI's COMM_LOCATIONS group (Score-P's
 * trace of a hybrid program has OpenMP's too; without an MPI one, the last other one),
 * whose members are locations. */
#ifndef PZ_TRACE_DEFS_H
#define PZ_TRACE_DEFS_H

#include <stddef.h>
#include <stdint.h>
#include <otf2/otf2.h>

/* Definition ids above this are refused ("definition id N out of range"): arrays are
 * indexed by id, and no trace prognoz reads defines that many of a kind. */
#define PZ_DEFS_MAX_ID (1u << 24)

/* Cartesian topologies of more dimensions, or of none, are refused ("cart topology N has
 * D dimensions"): MPI's grids have a few, and the recorder writes no other. */
#define PZ_CART_MAX_DIMS 32

enum pz_region_kind { PZ_REGION_OTHER, PZ_REGION_MPI, PZ_REGION_INTERVAL };

/* A region: an MPI function (paradigm MPI), an interval (flag PHASE, named as
 * names.h's PZ_INTERVAL_NAME_FORMAT) or other code. */
struct pz_region_info {
    const char *name;      /* "?" if its string is not defined */
    int kind;              /* enum pz_region_kind */
    int call;              /* enum pz_call_id of MPI functions of prognoz's table, or -1 */
    uint32_t name_ref, file_ref, description_ref;
    uint32_t line;         /* where it begins in file */
    unsigned interval;     /* intervals: the programmer's number, from the name */
    uint8_t sequential;    /* an interval whose computation each process duplicates */
    /* sends of this function: always by rendezvous (Ssend, Issend), always eager (Bsend,
       Ibsend) */
    uint8_t synchronous, buffered;
};

struct pz_site_def {
    OTF2_StringRef file;
    uint32_t line;
};

struct pz_location_def {
    OTF2_LocationRef id;
    OTF2_LocationGroupRef group;
    OTF2_LocationType type;
    int thread;            /* -1: not read (an accelerator stream, metrics) */
    uint64_t events;       /* as its definition says */
};

struct pz_group_def {
    OTF2_GroupType type;
    OTF2_Paradigm paradigm;
    uint32_t n;
    uint64_t *members;
};

/* A communicator: its members as processes (-1: unknown).  An intercommunicator lists
 * its first group, then the second: local is the first's size (0 for an
 * intracommunicator), and a peer's rank in a message is a rank of the other group.
 * self: MPI_COMM_SELF-like, the caller alone (size 1, no procs). */
struct pz_comm_def {
    OTF2_GroupRef group, remote;
    int *procs;
    uint32_t size, local;
    uint8_t defined;       /* defined, and its groups too */
    uint8_t inter, self;
};

/* A Cartesian topology: MPI_Cart_create's grid of a communicator, or MPI_Cart_sub's (the
 * kept dimensions of its parent's), from CartDimension, CartTopology and CartCoordinate
 * definitions.  A coordinate's rank is a rank of the communicator; each is below its
 * dimension's size and the rank below the grid's size, or the trace is refused. */
struct pz_cart_def {
    uint32_t comm;         /* the communicator's reference (it may be undefined) */
    uint32_t ndims;        /* 1 to PZ_CART_MAX_DIMS; 0: no topology has this id */
    uint32_t *dims;        /* processes along each dimension, >= 1 */
    uint8_t *periodic;     /* of each dimension: 1 if it wraps around, else 0 */
    uint32_t ncoords;      /* ranks whose coordinates the trace gives */
    uint32_t *coords;      /* ncoords entries of 1 + ndims values, a rank then its
                              coordinates, by increasing rank (pz_cart_coords) */
    uint32_t coord_cap;    /* entries coords has room for */
};

struct pz_cart_dim_def {
    uint32_t size;
    uint8_t periodic, defined;
};

/* A node of the run: a system tree node that holds processes. */
struct pz_recorded_node {
    char *name;
    int processes;
    int cores;             /* online cores the recorder saw there; 0: unknown */
};

/* What a trace says of its recording (docs/trace-format.md, "Recording"): NULL or 0
 * where it says nothing (other tools' traces, older ones). */
struct pz_recording {
    char *program;         /* the executable's name */
    char *date;            /* when the run started, ISO 8601 UTC */
    char *mpi_library;     /* MPI_Get_library_version's first line */
    struct pz_recorded_node *nodes;   /* in the order of their first process */
    int nnodes;
    int cpu_times;         /* calls carry CPU times (PROGNOZ_CPU_TIME=1) */
    char *marker_warnings; /* the interval-marker mistakes the recorder warned of, each
                              ending in a line end, or NULL */
};

/* Whether some node ran more processes than it has cores (known cores only). */
int pz_recording_oversubscribed(const struct pz_recording *r);

/* When r is oversubscribed, one line into line saying so and what it does to the
 * computation times, naming the most oversubscribed node, and 1; else 0. */
int pz_recording_caveat(const struct pz_recording *r, char *line, size_t len);

void pz_recording_release(struct pz_recording *r);

/* Arrays indexed by definition id have their capacity as count (zero beyond what is
 * defined); locations are sorted by id. */
struct pz_defs {
    const char *path;
    char **strings;
    uint32_t nstrings;
    struct pz_region_info *regions;
    uint32_t nregions;
    struct pz_site_def *sites;
    uint32_t nsites;
    struct pz_location_def *locations;
    uint32_t nlocations, location_cap;
    uint32_t *location_slots;      /* hash of location ids: index in locations + 1 */
    uint32_t nlocation_slots;
    struct pz_group_def *groups;
    uint32_t ngroups;
    struct pz_comm_def *comms;
    uint32_t ncomms;
    uint32_t *window_comms;        /* by window id: its communicator + 1, 0 if undefined */
    uint32_t nwindows;
    struct pz_cart_dim_def *cart_dims;   /* by dimension id */
    uint32_t ncart_dims;
    struct pz_cart_def *carts;     /* by topology id */
    uint32_t ncarts;
    uint64_t resolution, offset;   /* ticks per second, the clock's global offset */
    OTF2_AttributeRef callsite, send_list, recv_list, cpu, any_source;   /* or UNDEFINED
                                                                              (older traces) */
    int nprocs, nthreads;
    int threaded;                  /* some process has more than one thread */
    uint64_t *thread_location;     /* of each thread */
    int *thread_rank;              /* of each thread: its process */
    int *first_thread;             /* of each process (its threads follow it) */
    uint64_t *group_node;          /* by location group id: its system tree node + 1 */
    uint32_t ngroup_nodes;
    uint32_t *node_names;          /* by system tree node id: its name's string */
    uint32_t nnode_names;
    struct pz_recording recording; /* whoever keeps it takes it, leaving zeros */
    char error[4096 + 256];
};

/* Reads the global definitions of otf (opened from path) into d.  0, or -1 with a
 * one-line message naming path in d->error.  Release d even when it fails. */
int pz_defs_read(struct pz_defs *d, OTF2_Reader *otf, const char *path);
void pz_defs_release(struct pz_defs *d);

/* Makes d, read from a recording, the definitions of a run made in memory on that
 * recording's program (its strings, regions, call sites, clock and attributes stay):
 * nprocs processes of one thread each, thread p at location p of location group p
 * (their events not counted: 0); the communicators
 * comms[0..ncomms-1] (comm i is reference i; each procs array malloc'd or NULL), which
 * d takes, whatever the result.  The recording's locations, communicators and
 * Cartesian topologies are dropped.  0, or -1 out of memory. */
int pz_defs_set_run(struct pz_defs *d, int nprocs, struct pz_comm_def *comms, uint32_t ncomms);

/* The string with reference ref, NULL if none. */
const char *pz_defs_string(const struct pz_defs *d, uint32_t ref);

/* Defines texts[0..n-1] (copied) as the strings right after d's last one, as a writer of
 * an archive that adds strings to its recording's would: *first, the reference of
 * texts[0].  0, or -1 out of memory. */
int pz_defs_add_strings(struct pz_defs *d, const char *const *texts, uint32_t n,
                        uint32_t *first);

/* The events of the threads' locations, as their definitions say: what a reader of
 * every thread reads. */
uint64_t pz_defs_thread_events(const struct pz_defs *d);

/* The thread of location loc, -1 if it is not read. */
int pz_defs_thread(const struct pz_defs *d, OTF2_LocationRef loc);

/* The members of COMM_GROUP group (world ranks, as a one-sided epoch's group) as
 * processes (-1: unknown) into *procs, malloc'd (NULL for none): their number, or -1 if
 * the group is not defined or memory ran out. */
int pz_defs_group_processes(const struct pz_defs *d, uint32_t group, int **procs);

/* Communicator comm, NULL if it or its groups are not defined. */
const struct pz_comm_def *pz_defs_comm(const struct pz_defs *d, uint32_t comm);

/* The Cartesian topology of communicator comm (the one of lowest id if several), NULL
 * if it has none. */
const struct pz_cart_def *pz_defs_cart(const struct pz_defs *d, uint32_t comm);

/* The t->ndims coordinates of rank `rank` in topology t, NULL if the trace gives none. */
const uint32_t *pz_cart_coords(const struct pz_cart_def *t, uint32_t rank);

/* The rank of process p in c (0 on MPI_COMM_SELF; in both groups of an
 * intercommunicator, the first then the second), c->size if p is no member. */
uint32_t pz_comm_rank(const struct pz_comm_def *c, int p);

/* The process behind rank `rank` of c as process p sees it: p itself for rank 0 of
 * MPI_COMM_SELF, a process of the group p is not in on an intercommunicator; -1 if c is
 * NULL or the rank is not defined. */
int pz_comm_process(const struct pz_comm_def *c, uint32_t rank, int p);

#endif
