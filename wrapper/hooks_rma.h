/* The hooks of one-sided communication (wrapper/mpi_calls.tbl, categories rma_*): the
 * calls are recorded as Score-P records them, with OTF2's RMA events on a window per
 * window creation (handles.h).  A window's creation and MPI_Win_free are collective
 * operations on it (RmaCollectiveBegin at enter; RmaWinCreate, or RmaWinDestroy at
 * enter; RmaCollectiveEnd CREATE_HANDLE or DESTROY_HANDLE at leave); MPI_Win_fence is a
 * collective BARRIER on it; a put, a get and an atomic operation (accumulate, fetch and
 * op, compare and swap) are RmaPut, RmaGet and RmaAtomic at enter with the target rank
 * and the bytes of the origin buffer (and of the result buffer received); lock and
 * unlock are RmaRequestLock and RmaReleaseLock, flushes and MPI_Win_sync RmaSync, at
 * leave.  MPI_Win_post and MPI_Win_start are RmaGroupSync (sync level PROCESS) at leave
 * with the group they name, MPI_Win_complete and MPI_Win_wait RmaGroupSync (PROCESS and
 * MEMORY) with the group of the epoch they end, MPI_Win_test too when it ends the
 * epoch, else with sync level NONE (rma_groups.h).  The lock id is the target rank: a process holds at most one lock per target
 * of a window.  A request-based operation (MPI_Rput, MPI_Rget, MPI_Raccumulate,
 * MPI_Rget_accumulate; request not NULL) has its request id as matching id, and the
 * wait or test that completes the request an RmaOpCompleteNonBlocking (hooks_wait.c);
 * the others have matching id 0. */
#ifndef PZ_HOOKS_RMA_H
#define PZ_HOOKS_RMA_H

#include "hooks.h"

void pz_post_rma_win_new(struct pz_call *c, MPI_Comm comm, MPI_Win *win);
/* keeps the window's local reference in c->comm for the post hook */
int pz_pre_rma_win_free(struct pz_call *c, MPI_Win *win);
void pz_post_rma_win_free(struct pz_call *c, MPI_Win *win);
void pz_post_rma_put(struct pz_call *c, MPI_Count count, MPI_Datatype type, int peer, MPI_Win win,
                     MPI_Request *request);
void pz_post_rma_get(struct pz_call *c, MPI_Count count, MPI_Datatype type, int peer, MPI_Win win,
                     MPI_Request *request);
/* rtype is MPI_DATATYPE_NULL for an accumulate that fetches nothing */
void pz_post_rma_acc(struct pz_call *c, MPI_Count count, MPI_Datatype type, MPI_Count rcount,
                     MPI_Datatype rtype, int peer, MPI_Win win, MPI_Request *request);
void pz_post_rma_fetch(struct pz_call *c, MPI_Datatype type, int peer, MPI_Win win);
void pz_post_rma_fence(struct pz_call *c, MPI_Win win);
/* peer MPI_PROC_NULL: every process of the window (the _all forms) */
void pz_post_rma_lock(struct pz_call *c, int locktype, int peer, MPI_Win win);
void pz_post_rma_unlock(struct pz_call *c, int peer, MPI_Win win);
void pz_post_rma_flush(struct pz_call *c, int peer, MPI_Win win);
/* MPI_Win_post, MPI_Win_start: an epoch of win opens with group */
void pz_post_rma_epoch(struct pz_call *c, MPI_Group group, MPI_Win win);
/* MPI_Win_complete, MPI_Win_wait, MPI_Win_test (flag: whether the test ended the
 * exposure epoch; NULL for the others) */
void pz_post_rma_epoch_end(struct pz_call *c, MPI_Win win, int *flag);

#endif
