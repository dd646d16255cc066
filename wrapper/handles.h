/* The MPI-IO file handles and the one-sided windows a process made, each with a small
 * local reference that its events carry, and their unification at finalize into one
 * numbering for the whole run (docs/trace-format.md).  The members of a collective
 * MPI_File_open or window creation share one handle: its identity is the communicator's
 * (its global id and the world rank of its first member), the number of handles made
 * on it before, and the file's name, the same on every member. */
#ifndef PZ_HANDLES_H
#define PZ_HANDLES_H

#include <mpi.h>
#include <pthread.h>
#include <stdint.h>

#include "keymap.h"
#include "unify.h"

/* The reference of a handle the wrapper did not see made. */
#define PZ_NO_HANDLE UINT32_MAX

/* One kind of handles; its functions are thread-safe.  A program may make and free
 * tens of thousands (a Global Arrays code: a window for every array), so the live
 * handles and the count made on each communicator are found through maps. */
struct pz_handles {
    pthread_mutex_t lock;
    struct pz_handle *list;
    uint32_t count, cap;
    struct pz_keymap live;     /* handle value -> reference of the live handle */
    struct pz_keymap made_on;  /* (communicator's global id, leader) -> handles made */
};

/* The files of MPI_File_open (hooks_io.c) and the windows (hooks_rma.c). */
extern struct pz_handles pz_io_files, pz_rma_windows;

/* Registers handle (the MPI handle's value), just made on comm, of a file named name
 * (NULL for a window); returns its local reference, or PZ_NO_HANDLE if memory ran out. */
uint32_t pz_handles_made(struct pz_handles *h, MPI_Comm comm, const char *name,
                         uint64_t handle);

/* Local reference of the live handle `handle`, PZ_NO_HANDLE if unknown. */
uint32_t pz_handles_find(struct pz_handles *h, uint64_t handle);

/* Forgets the MPI handle of reference ref, being freed; the reference stays defined. */
void pz_handles_freed(struct pz_handles *h, uint32_t ref);

/* Number of local references so far. */
uint32_t pz_handles_count(struct pz_handles *h);

/* Appends the identity of every local reference, in order, to out (what the
 * unification gathers; a part keeps it, part.h). */
void pz_handles_identities(struct pz_handles *h, struct pz_strings *out);

/* Collective over comm: numbers the handles of the run.  map[ref] receives the global
 * number of each local reference.  On rank 0, *keys and *nkeys receive the identity
 * of every handle in global order, "GID LEADER SEQ NAME" (io_defs.h); elsewhere NULL and
 * 0.  Free with pz_free_strings (unify.h).  Returns 0 or -1. */
int pz_handles_unify(struct pz_handles *h, MPI_Comm comm, uint32_t *map, char ***keys,
                     uint32_t *nkeys);

#endif
