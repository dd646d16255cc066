/* The time one message takes on an idle link, by the machine's cost model. */
#ifndef PZ_COST_H
#define PZ_COST_H

#include "machine.h"

/* Between nodes: a message of at most the bound of one of the machine's segments takes
 * the first such segment's latency + bytes / bandwidth; a larger one (or any, without
 * segments) Hockney's latency + bytes / bandwidth, or the packet model of
 * shared/seeds/002 (model B): with n = ceil(bytes / (V_max - V_c)) packets (at least 1),
 *   n = 1:  t0 + bytes * t1 + (bytes + V_c) / bandwidth
 *   n > 1:  t0 + (V_max - V_c) * t1 + (bytes + n * V_c) / bandwidth
 * where t0 = latency, t1 = latency_per_byte, V_max = packet_size, V_c = packet_header. */
double pz_message_time(const struct pz_machine *m, double bytes);

/* How long a message of bytes between two nodes holds each link it uses: with link_hold
 * message its whole pz_message_time; with link_hold bytes, link_gap plus the part of
 * that time that grows with its bytes (bytes / bandwidth of its segment or the
 * machine's, and for the packet model its packets' headers too), the latency and the
 * packet model's preparation being spent off the links. */
double pz_link_time(const struct pz_machine *m, double bytes);

/* Between processes of one node: by shm_segments as above, else shm_latency + bytes /
 * shm_bandwidth. */
double pz_shm_time(const struct pz_machine *m, double bytes);

/* From a process to itself: by self_segments as above, else (a larger message, or any
 * without them) as between processes of one node, pz_shm_time. */
double pz_self_time(const struct pz_machine *m, double bytes);

/* MPI's copy of bytes of a member's own block inside a collective (from its send buffer
 * to its receive buffer, before it exchanges the others): by copy_segments as above,
 * the last segment also for any larger copy; 0 without them (the copy not modelled). */
double pz_copy_time(const struct pz_machine *m, double bytes);

/* The CPU time the sender, or the receiver, of a message of bytes spends on it inside
 * MPI: per message + bytes x per byte, of the machine's overheads between nodes or,
 * same_node, between processes of one node.  The per-byte part is the copies of an
 * eager message (at most eager_threshold bytes): a larger one's bytes move by
 * rendezvous, in its transfer. */
double pz_send_overhead(const struct pz_machine *m, double bytes, int same_node);
double pz_recv_overhead(const struct pz_machine *m, double bytes, int same_node);

/* The part of a send's overhead of a message of bytes that its sender spends after the
 * message left: send_tail, and send_tail_per_byte per byte of an eager message (not
 * bounded by the overhead here: the caller takes the least of the two). */
double pz_send_tail_time(const struct pz_machine *m, double bytes);

/* The CPU time a process spends besides on its first message after computing for
 * `computed` seconds (MPI's and the kernel's code and data gone cold meanwhile): the
 * resume overhead between nodes or, same_node, between processes of one node, in full
 * from resume_after on, in proportion to computed / resume_after below it. */
double pz_resume_overhead(const struct pz_machine *m, double computed, int same_node);

/* The node of rank among nprocs processes: by the node map if there is one (ranks
 * beyond it wrap around: rank r is placed as rank r mod its size), else by
 * procs_per_node and placement. */
int pz_node_of(const struct pz_machine *m, int rank, int nprocs);

/* Number of nodes nprocs processes take. */
int pz_nodes_for(const struct pz_machine *m, int nprocs);

#endif
