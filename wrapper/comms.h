/* The communicators a process knows, each with a small local reference that its events
 * carry, and their unification at finalize into one numbering for the whole run. */
#ifndef PZ_COMMS_H
#define PZ_COMMS_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>

/* Local references every process has. */
#define PZ_COMM_UNKNOWN 0u  /* made by a call the wrapper did not see */
#define PZ_COMM_WORLD 1u
#define PZ_COMM_SELF 2u

struct pz_comm_info {
    uint64_t gid;        /* the same on every member; 0 world, 1 self, 2 unknown */
    int rank, size;      /* of this process in the local group */
    int remote_size;     /* intercommunicators: size of the remote group, else 0 */
    uint32_t idups;      /* MPI_Comm_idup calls on it so far (under the registry's lock) */
    uint32_t pinits;     /* persistent collectives initialized on it so far (idem) */
    uint16_t creator;    /* enum pz_call_id of the creating call */
    int *members;        /* world ranks: local group, then remote group */
    int ndims;           /* Cartesian topology (MPI_Cart_create, MPI_Cart_sub), else 0 */
    int *cart;           /* ndims sizes, then ndims periodicities (0 or 1); NULL if none */
};

/* One communicator of the whole run, as rank 0 learns it at unification. */
struct pz_global_comm {
    uint64_t gid;
    uint16_t creator;
    int size, remote_size;
    int *members;        /* size + remote_size world ranks, NULL if unknown */
    int ndims;           /* its Cartesian topology, as struct pz_comm_info's */
    int *cart;
};

/* Registers MPI_COMM_WORLD, MPI_COMM_SELF and the unknown communicator; no
 * communication.  Returns 0, or -1 if memory ran out. */
int pz_comms_init(void);

/* Local reference of comm, PZ_COMM_UNKNOWN if it was never registered.  Lock-free. */
uint32_t pz_comm_ref_lookup(MPI_Comm comm);

/* pz_comm_ref_lookup, inline for MPI_COMM_WORLD, the communicator of most calls, whose
 * reference never changes (pz_comms_init). */
static inline uint32_t pz_comm_ref(MPI_Comm comm)
{
    return comm == MPI_COMM_WORLD ? PZ_COMM_WORLD : pz_comm_ref_lookup(comm);
}

/* The infos of the local references, in chunks of PZ_COMM_CHUNK (comms.c). */
#define PZ_COMM_CHUNK 256u
extern struct pz_comm_info *_Atomic pz_comm_chunks[];

/* The communicator with local reference ref (ref < pz_comms_count()).  Inline: every
 * collective asks it. */
static inline const struct pz_comm_info *pz_comm_get(uint32_t ref)
{
    return &atomic_load_explicit(&pz_comm_chunks[ref / PZ_COMM_CHUNK],
                                 memory_order_acquire)[ref % PZ_COMM_CHUNK];
}

/* Number of local references so far. */
uint32_t pz_comms_count(void);

/* Registers newcomm, just created by the call creator.  Collective over newcomm as the
 * creating call was: the members agree on a global id with one broadcast on newcomm
 * (on intercommunicators, on their merge).  The topology of a communicator made by
 * MPI_Cart_create or MPI_Cart_sub is asked of MPI (local calls); one of no dimension or
 * of more than PZ_CART_MAX_DIMS (trace/defs.h) is left out.  No-op for MPI_COMM_NULL. */
void pz_comms_created(MPI_Comm newcomm, uint16_t creator);

/* Registers newcomm, a duplicate of parent that MPI_Comm_idup (creator) is still making:
 * the program may not use it before the request completes, nor may the recorder, so no
 * MPI call asks anything of it.  Its members and topology are parent's, and its global
 * id is derived from parent's and the number of MPI_Comm_idup calls on parent before it,
 * the same on every member, as they make them in the same order.  No-op for
 * MPI_COMM_NULL or a parent the wrapper does not know. */
void pz_comms_duplicating(MPI_Comm parent, MPI_Comm newcomm, uint16_t creator);

/* Registers the communicator of a persistent collective request that the call creator
 * (MPI_Bcast_init, MPI_Neighbor_alltoall_init...) makes on the communicator of local
 * reference parent, and returns its reference.  MPI matches the starts of such a request
 * with those of the same request on the other members only, whatever the order of the
 * starts, as if it had a communicator of its own; the events of its starts are on that
 * one.  Its members are parent's (not its topology: the request's bytes already say
 * which neighbours it reaches), no handle names it, and its global id is derived from
 * parent's and the number of persistent collectives initialized on parent before it,
 * the same on every member, as MPI has them initialized in the same order.  No MPI call.
 * Returns parent itself if parent is unknown or memory ran out. */
uint32_t pz_comms_persistent(uint32_t parent, uint16_t creator);

/* Forgets the handle of a communicator being freed; its reference stays defined. */
void pz_comms_freed(MPI_Comm comm);

/* Collective over comm (a duplicate of MPI_COMM_WORLD): numbers every communicator of the
 * run.  Fills map[ref] with the global number of each local reference.  On rank 0,
 * *all and *nall receive every communicator, in global-number order (free them with
 * pz_comms_free_global); elsewhere they are set to NULL and 0.  Returns 0 or -1. */
int pz_comms_unify(MPI_Comm comm, uint32_t *map, struct pz_global_comm **all,
                   uint32_t *nall);

void pz_comms_free_global(struct pz_global_comm *all, uint32_t nall);

#endif
