/* The hooks of MPI-IO (wrapper/mpi_calls.tbl, categories io_*): the calls are recorded
 * as Score-P records them, with OTF2's I/O events on a handle per opened file
 * (handles.h): IoCreateHandle at MPI_File_open, IoDestroyHandle at MPI_File_close,
 * IoOperationBegin and IoOperationComplete around each read, write and sync, IoSeek.
 * A read or write is told from its function's name: the operation (read or write), and
 * whether it is collective (_all, _ordered).  A nonblocking one is issued by its call
 * and completes in the wait or test that completes its request (hooks_wait.c); a split
 * collective begins at its _begin call and completes at its _end call. */
#ifndef PZ_HOOKS_IO_H
#define PZ_HOOKS_IO_H

#include "hooks.h"

/* The matching id of a split collective's operation: at most one is active on a file
 * handle at a time.  Blocking operations, which complete within their call, have 0;
 * nonblocking ones their request id (requests.h), which is never 0. */
#define PZ_IO_SPLIT_MATCHING_ID (UINT64_C(1) << 63)

void pz_post_io_open(struct pz_call *c, MPI_Comm comm, const char *filename, int amode,
                     MPI_File *fh);
/* keeps the handle's local reference in c->comm for the post hook */
int pz_pre_io_close(struct pz_call *c, MPI_File *fh);
void pz_post_io_close(struct pz_call *c, MPI_File *fh);
int pz_pre_io_access(struct pz_call *c, MPI_Status **status);
void pz_post_io_access(struct pz_call *c, MPI_File fh, MPI_Count count, MPI_Datatype type,
                       MPI_Status *status);
void pz_post_io_iaccess(struct pz_call *c, MPI_File fh, MPI_Count count, MPI_Datatype type,
                        MPI_Request *request);
void pz_post_io_split_begin(struct pz_call *c, MPI_File fh, MPI_Count count, MPI_Datatype type);
int pz_pre_io_split_end(struct pz_call *c, MPI_Status **status);
void pz_post_io_split_end(struct pz_call *c, MPI_File fh, MPI_Status *status);
void pz_post_io_seek(struct pz_call *c, MPI_File fh, MPI_Offset offset, int whence);
void pz_post_io_sync(struct pz_call *c, MPI_File fh);

#endif
