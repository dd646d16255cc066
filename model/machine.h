/* A target machine: its network, its nodes and its MPI, from a machine file of
 * `key = value` lines (docs/machines.md documents every key; share/machines/ holds
 * examples). */
#ifndef PZ_MACHINE_H
#define PZ_MACHINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What this installed header declares is libprognoz-comsys's API: exported, while the
 * library's other functions stay hidden. */
#pragma GCC visibility push(default)

enum pz_network_kind {
    PZ_NET_BUS,        /* Ethernet with a hub: one transfer at a time on the network */
    PZ_NET_CHANNELS,   /* Myrinet-like: `channels` transfers at once */
    PZ_NET_SWITCH,     /* switched: contention only at shared endpoints, and between the
                          directions of a node by duplex_factor */
};

enum pz_cost_model {
    PZ_COST_HOCKNEY,   /* latency + bytes / bandwidth */
    PZ_COST_PACKET,    /* the packet model of shared/seeds/002 (model B) */
};

enum pz_placement { PZ_PLACE_BLOCK, PZ_PLACE_CYCLIC };

/* Where a message between two nodes of a switch waits while the link into its
 * receiver's node is busy (docs/machines.md, switch_queue). */
enum pz_switch_queue {
    PZ_QUEUE_SENDER,   /* at its sender, whose link it holds meanwhile: a switch without
                          buffers (cut-through with back-pressure, wormhole routing) */
    PZ_QUEUE_SWITCH,   /* in the switch: the sender's link is free once the message is
                          sent (Ethernet's store-and-forward switches) */
};

/* How long a message between two nodes holds the links it uses (docs/machines.md,
 * link_hold). */
enum pz_link_hold {
    PZ_HOLD_MESSAGE,   /* its whole time, latency included: no two messages overlap on
                          a link */
    PZ_HOLD_BYTES,     /* link_gap plus its bytes at the bandwidth: the latency, spent in
                          the hosts' stacks and the switch, overlaps the next messages */
};

/* Where the MPI library moves a rendezvous message along (docs/machines.md). */
enum pz_progress {
    PZ_PROGRESS_BACKGROUND,   /* as soon as the protocol allows, whatever the processes do */
    PZ_PROGRESS_IN_CALLS,     /* only while the process whose step it is is in an MPI call:
                                 the receiver's clear-to-send, the sender's data */
};

/* Piecewise-linear transfer costs: a message of at most upto bytes (and more than the
 * previous segment's bound) takes latency + bytes / bandwidth. */
struct pz_segment {
    double upto;               /* B */
    double latency;            /* s */
    double bandwidth;          /* B/s */
};

#define PZ_MAX_SEGMENTS 16

/* A factor by message size: a message of at most upto bytes (and more than the previous
 * step's bound) takes factor; one larger than every bound, the last step's. */
struct pz_size_factor {
    double upto;               /* B */
    double factor;
};

/* The largest duplex factor (struct pz_machine.duplex_factors): an exchange both ways
 * that takes longer than this many one-way times waited for something else than the
 * other direction. */
#define PZ_DUPLEX_FACTORS_MAX 4.0

/* Steps by increasing bound, at most PZ_MAX_SEGMENTS; n = 0: none. */
struct pz_size_factors {
    int n;
    struct pz_size_factor step[PZ_MAX_SEGMENTS];
};

/* Segments by increasing bound; n = 0: none. */
struct pz_segments {
    int n;
    struct pz_segment seg[PZ_MAX_SEGMENTS];
};

/* The CPU time a process spends inside MPI on one message, on its side: per message
 * plus per byte (LogGP's o and O). */
struct pz_overhead {
    double send, send_per_byte;   /* s, s/B: the sender's */
    double recv, recv_per_byte;   /* s, s/B: the receiver's */
};

struct pz_machine {
    char name[128];
    enum pz_network_kind network;
    int channels;
    enum pz_cost_model cost_model;
    double latency;            /* s: Hockney's alpha, the packet model's t_start0 */
    double latency_per_byte;   /* s/B: the packet model's t_start1 */
    double bandwidth;          /* B/s: 1 / t_k */
    double packet_size;        /* B: the largest packet, V_max */
    double packet_header;      /* B: overhead of each packet, V_c */
    double eager_threshold;    /* B: larger messages go by rendezvous */
    double rendezvous_overhead;   /* s: added to every rendezvous message beyond its three
                                     transfers (the protocol's own handling) */
    enum pz_progress progress;
    double duplex_factor;      /* switch: a transfer's time stretches by duplex_factor - 1
                                  times its overlap with traffic the other way at its
                                  nodes; 1 full duplex, 2 half duplex */
    int procs_per_node;
    enum pz_placement placement;
    double shm_latency;        /* s: between processes of one node */
    double shm_bandwidth;      /* B/s */
    double cpu_scale;          /* computation takes cpu_scale times its recorded time */
    char mpi[32];              /* collective algorithm set: mpich1, mpich-1.2.5, mpich4, openmpi4 */
    double reduce_byte_time;   /* s/B of reduction arithmetic */
    int *node_map;             /* node_map file: the node of each rank, or NULL */
    int node_map_size;
    struct pz_segments segments;       /* between nodes, for messages up to their bounds */
    struct pz_segments shm_segments;   /* between processes of one node */
    struct pz_overhead overhead;       /* of a message between nodes */
    struct pz_overhead shm_overhead;   /* of a message between processes of one node */
    double io_scale;           /* an MPI-IO call takes io_scale times its recorded time */
    double resume_overhead;    /* s: a process's, on its first message after computing
                                  for resume_after or longer (in proportion after a
                                  shorter computation), between nodes */
    double shm_resume_overhead;   /* s: the same between processes of one node */
    double resume_after;       /* s: the computation after which it is paid in full */
    double duplex_overhead;    /* s: what a send's CPU time grows by when its whole
                                  overhead overlaps its receiver's latest message to it
                                  on its way (from that send's overhead until its data
                                  arrives; in proportion to the overlap), any two
                                  processes */
    double send_tail;          /* s: the part of a send's overhead (its per-message and
                                  per-byte ones, not the resume's nor the duplex's) that
                                  its sender still spends after the message left, any
                                  two processes */
    double send_tail_per_byte; /* s/B: the tail grows by this per byte of an eager
                                  message (at most its whole overhead) */
    double collective_overhead;   /* s: CPU time a process spends in each collective
                                     call besides its messages, at the call's start */
    struct pz_segments self_segments;  /* a process's messages to itself */
    struct pz_segments copy_segments;  /* MPI's copy of a member's own block within a
                                          collective (MPICH's MPIR_Localcopy) */
    struct pz_size_factors duplex_factors;   /* switch: a message between two nodes
                                                arrives later by its size's factor - 1
                                                times how long it was on its way while
                                                a message the other way at its nodes
                                                was (none: no such delay) */
    double rendezvous_first_fragment;   /* B: a rendezvous message's first bytes that
                                           travel with its request-to-send (Open MPI's
                                           ob1), the rest after the clear-to-send; 0:
                                           none (MPICH's rendezvous) */
    enum pz_switch_queue switch_queue;  /* switch: where a message waits for a busy link
                                           into its receiver's node */
    enum pz_link_hold link_hold;   /* how long a message between nodes holds its links */
    double link_gap;           /* s: link_hold bytes: what each message holds them for
                                  besides its bytes at the bandwidth (LogGP's g) */
};

/* The keys of a machine file, in the order pz_machine_write and pz_machine_write_json
 * write them (docs/machines.md documents each). */
enum pz_machine_key {
    PZ_KEY_NAME, PZ_KEY_NETWORK, PZ_KEY_CHANNELS, PZ_KEY_COST_MODEL, PZ_KEY_LATENCY,
    PZ_KEY_LATENCY_PER_BYTE, PZ_KEY_BANDWIDTH, PZ_KEY_PACKET_SIZE, PZ_KEY_PACKET_HEADER,
    PZ_KEY_EAGER_THRESHOLD, PZ_KEY_RENDEZVOUS_OVERHEAD, PZ_KEY_PROGRESS,
    PZ_KEY_DUPLEX_FACTOR, PZ_KEY_PROCS_PER_NODE, PZ_KEY_PLACEMENT, PZ_KEY_SHM_LATENCY,
    PZ_KEY_SHM_BANDWIDTH, PZ_KEY_CPU_SCALE, PZ_KEY_MPI, PZ_KEY_REDUCE_BYTE_TIME,
    PZ_KEY_NODE_MAP,   /* read only: the map lives in a file of its own */
    /* written only when they are not 0 (or empty), so that a machine that does not use
     * them is written as before they existed: */
    PZ_KEY_SEGMENTS, PZ_KEY_SHM_SEGMENTS, PZ_KEY_SEND_OVERHEAD,
    PZ_KEY_SEND_OVERHEAD_PER_BYTE, PZ_KEY_RECV_OVERHEAD, PZ_KEY_RECV_OVERHEAD_PER_BYTE,
    PZ_KEY_SHM_SEND_OVERHEAD, PZ_KEY_SHM_SEND_OVERHEAD_PER_BYTE, PZ_KEY_SHM_RECV_OVERHEAD,
    PZ_KEY_SHM_RECV_OVERHEAD_PER_BYTE,
    /* written only when it is not its default, 1 */
    PZ_KEY_IO_SCALE,
    /* written only when they are not 0 */
    PZ_KEY_RESUME_OVERHEAD, PZ_KEY_SHM_RESUME_OVERHEAD, PZ_KEY_RESUME_AFTER,
    PZ_KEY_DUPLEX_OVERHEAD, PZ_KEY_SEND_TAIL, PZ_KEY_SEND_TAIL_PER_BYTE,
    PZ_KEY_COLLECTIVE_OVERHEAD,
    /* written only when they are not empty */
    PZ_KEY_SELF_SEGMENTS, PZ_KEY_COPY_SEGMENTS, PZ_KEY_DUPLEX_FACTORS,
    /* written only when it is not 0 */
    PZ_KEY_RENDEZVOUS_FIRST_FRAGMENT,
    /* written only when it is not its default, sender */
    PZ_KEY_SWITCH_QUEUE,
    /* written only when it is not its default, message */
    PZ_KEY_LINK_HOLD,
    /* written only when it is not 0 */
    PZ_KEY_LINK_GAP,
    PZ_NKEYS
};

/* The key's name in a machine file: "eager_threshold". */
const char *pz_machine_key_name(enum pz_machine_key key);

/* The word m's value of a key of words (network, cost_model, progress, placement, mpi)
 * is written as: "switch"; NULL for other keys and for a value out of range. */
const char *pz_machine_word(const struct pz_machine *m, enum pz_machine_key key);

/* The values a key not given takes (docs/machines.md). */
void pz_machine_defaults(struct pz_machine *m);

/* Reads the machine file at path over the defaults.  Returns 0, or -1 with a one-line
 * message "PATH:LINE: what is wrong" (or "PATH: ..." when the file cannot be read) in
 * err. */
int pz_machine_load(const char *path, struct pz_machine *m, char *err, size_t errlen);

/* Sets the collective algorithm set: "mpich1", "mpich-1.2.5", "mpich4" or "openmpi4";
 * -1 (m unchanged) for anything else. */
int pz_machine_set_mpi(struct pz_machine *m, const char *set);

/* Reads the node_map file at path (relative to machine_file's directory) into m.
 * Returns 0, or -1 with "node_map = 'PATH': ..." in why. */
int pz_node_map_load(struct pz_machine *m, const char *machine_file, const char *path,
                     char *why, size_t len);

/* Frees what pz_machine_load allocated (the node map). */
void pz_machine_release(struct pz_machine *m);

/* Writes m as a machine file that pz_machine_load reads back into exactly the same
 * values: every key, numbers with as many digits as it takes to read back the same
 * double, in units that multiply by 1 (s, B, B/s).  pz_machine_write_notes writes
 * before each key the comment note(key, arg) returns ("# " before each of its lines;
 * nothing for NULL).  Both return 0, or -1 when m cannot be written as a machine file
 * (a name empty, with '#', a line break or blanks at its ends; a node map, which only
 * a file of its own can hold; a value the parser refuses) or writing fails (errno). */
int pz_machine_write(FILE *f, const struct pz_machine *m);
int pz_machine_write_notes(FILE *f, const struct pz_machine *m,
                           const char *(*note)(enum pz_machine_key key, void *arg),
                           void *arg);

/* Writes m as a JSON object: {"name": ..., "network": ..., ...}, every key that
 * pz_machine_write writes, in its order, numbers in SI units (s, B, B/s) with 9
 * significant digits.  Returns 0, or -1 if writing failed. */
int pz_machine_write_json(FILE *f, const struct pz_machine *m);

/* One line naming the machine and its main parameters ("Predicted on machine NAME:
 * network switch, latency 50 us, ..."), with progress and duplex_factor when they are
 * not the defaults. */
void pz_machine_summary(FILE *out, const struct pz_machine *m);

#pragma GCC visibility pop

#endif
