/* The hooks of MPI-IO (hooks_io.h). */
#include <string.h>

#include <otf2/otf2.h>

#include "hooks_io.h"
#include "handles.h"

/* The value of a file handle, as the registry knows it (handles.h). */
static uint64_t file_key(MPI_File fh)
{
    return (uint64_t)(uintptr_t)fh;
}

/* A new I/O event of the call on handle ref, its other fields neutral. */
static struct pz_item *io_item(struct pz_call *c, enum pz_item_kind kind, uint32_t ref)
{
    struct pz_item *it = pz_call_item(c, kind);

    if (it) {
        it->comm = ref;
        it->collective = 0;
        it->peer = -1;
        it->tag = 0;
        it->request = 0;
        it->bytes = it->bytes_received = 0;
    }
    return it;
}

static OTF2_IoOperationMode mode_of(enum pz_call_id id)
{
    return strstr(pz_calls[id].name, "read") ? OTF2_IO_OPERATION_MODE_READ
                                              : OTF2_IO_OPERATION_MODE_WRITE;
}

static OTF2_IoOperationFlag collective_of(enum pz_call_id id)
{
    const char *name = pz_calls[id].name;

    return strstr(name, "_all") || strstr(name, "_ordered") ? OTF2_IO_OPERATION_FLAG_COLLECTIVE
                                                             : OTF2_IO_OPERATION_FLAG_NONE;
}

static void begin(struct pz_call *c, uint32_t ref, OTF2_IoOperationMode mode,
                  OTF2_IoOperationFlag flags, uint64_t bytes, uint64_t matching)
{
    struct pz_item *it = io_item(c, PZ_ITEM_IO_BEGIN, ref);

    if (it) {
        it->collective = (uint8_t)mode;
        it->tag = (int32_t)flags;
        it->bytes = bytes;
        it->request = matching;
    }
}

/* The operation's completion: the bytes status says it transferred, else bytes. */
static void complete(struct pz_call *c, uint32_t ref, uint64_t matching, uint64_t bytes,
                     const MPI_Status *status)
{
    struct pz_item *it = io_item(c, PZ_ITEM_IO_COMPLETE, ref);

    if (!it)
        return;
    it->request = matching;
    it->bytes = bytes;
    if (status && status != MPI_STATUS_IGNORE)
        pz_item_keep_status(it, status);
}

static OTF2_IoAccessMode access_mode(int amode)
{
    if (amode & MPI_MODE_RDWR)
        return OTF2_IO_ACCESS_MODE_READ_WRITE;
    return amode & MPI_MODE_WRONLY ? OTF2_IO_ACCESS_MODE_WRITE_ONLY
                                   : OTF2_IO_ACCESS_MODE_READ_ONLY;
}

void pz_post_io_open(struct pz_call *c, MPI_Comm comm, const char *filename, int amode,
                     MPI_File *fh)
{
    uint32_t ref = pz_handles_made(&pz_io_files, comm, filename, file_key(*fh));
    struct pz_item *it;

    if (ref == PZ_NO_HANDLE || !(it = io_item(c, PZ_ITEM_IO_CREATE, ref)))
        return;
    it->collective = (uint8_t)access_mode(amode);
    it->tag = (amode & MPI_MODE_CREATE ? OTF2_IO_CREATION_FLAG_CREATE : 0) |
              (amode & MPI_MODE_EXCL ? OTF2_IO_CREATION_FLAG_EXCLUSIVE : 0);
    it->bytes = (amode & MPI_MODE_APPEND ? OTF2_IO_STATUS_FLAG_APPEND : 0) |
                (amode & MPI_MODE_DELETE_ON_CLOSE ? OTF2_IO_STATUS_FLAG_DELETE_ON_CLOSE : 0);
}

int pz_pre_io_close(struct pz_call *c, MPI_File *fh)
{
    c->comm = pz_handles_find(&pz_io_files, file_key(*fh));
    return 0;
}

void pz_post_io_close(struct pz_call *c, MPI_File *fh)
{
    (void)fh;  /* MPI_FILE_NULL now: the pre hook kept its reference */
    if (c->comm == PZ_NO_HANDLE)
        return;
    io_item(c, PZ_ITEM_IO_DESTROY, c->comm);
    pz_handles_freed(&pz_io_files, c->comm);
}

int pz_pre_io_access(struct pz_call *c, MPI_Status **status)
{
    return pz_stand_in_status(c, status);
}

void pz_post_io_access(struct pz_call *c, MPI_File fh, MPI_Count count, MPI_Datatype type,
                       MPI_Status *status)
{
    uint32_t ref = pz_handles_find(&pz_io_files, file_key(fh));
    uint64_t bytes = pz_bytes(count, type);

    if (ref == PZ_NO_HANDLE)
        return;
    begin(c, ref, mode_of(c->id), collective_of(c->id), bytes, 0);
    complete(c, ref, 0, bytes, status);
}

void pz_post_io_iaccess(struct pz_call *c, MPI_File fh, MPI_Count count, MPI_Datatype type,
                        MPI_Request *request)
{
    struct pz_request r = { .kind = PZ_REQ_IO, .comm = pz_handles_find(&pz_io_files, file_key(fh)), .peer = -1,
                            .bytes = pz_bytes(count, type), .send_counts = PZ_NO_COUNTS,
                            .recv_counts = PZ_NO_COUNTS };
    struct pz_item *it;

    if (r.comm == PZ_NO_HANDLE || *request == MPI_REQUEST_NULL)
        return;
    pz_requests_post(c->thread->requests, request, &r);
    begin(c, r.comm, mode_of(c->id), OTF2_IO_OPERATION_FLAG_NON_BLOCKING | collective_of(c->id),
          r.bytes, r.id);
    if ((it = io_item(c, PZ_ITEM_IO_ISSUED, r.comm)))
        it->request = r.id;
}

void pz_post_io_split_begin(struct pz_call *c, MPI_File fh, MPI_Count count, MPI_Datatype type)
{
    uint32_t ref = pz_handles_find(&pz_io_files, file_key(fh));

    if (ref != PZ_NO_HANDLE)
        begin(c, ref, mode_of(c->id), OTF2_IO_OPERATION_FLAG_COLLECTIVE, pz_bytes(count, type),
              PZ_IO_SPLIT_MATCHING_ID);
}

int pz_pre_io_split_end(struct pz_call *c, MPI_Status **status)
{
    return pz_stand_in_status(c, status);
}

void pz_post_io_split_end(struct pz_call *c, MPI_File fh, MPI_Status *status)
{
    uint32_t ref = pz_handles_find(&pz_io_files, file_key(fh));

    if (ref != PZ_NO_HANDLE)
        complete(c, ref, PZ_IO_SPLIT_MATCHING_ID, 0, status);
}

static OTF2_IoSeekOption seek_option(int whence)
{
    if (whence == MPI_SEEK_CUR)
        return OTF2_IO_SEEK_FROM_CURRENT;
    return whence == MPI_SEEK_END ? OTF2_IO_SEEK_FROM_END : OTF2_IO_SEEK_FROM_START;
}

void pz_post_io_seek(struct pz_call *c, MPI_File fh, MPI_Offset offset, int whence)
{
    uint32_t ref = pz_handles_find(&pz_io_files, file_key(fh));
    MPI_Offset position = 0, byte = 0;
    struct pz_item *it;

    if (ref == PZ_NO_HANDLE || !(it = io_item(c, PZ_ITEM_IO_SEEK, ref)))
        return;
    /* the resulting offset in bytes from the file's start, through the view */
    if (c->id == PZ_CALL_MPI_File_seek_shared)
        PMPI_File_get_position_shared(fh, &position);
    else
        PMPI_File_get_position(fh, &position);
    PMPI_File_get_byte_offset(fh, position, &byte);
    it->tag = seek_option(whence);
    it->bytes = (uint64_t)offset;
    it->bytes_received = (uint64_t)byte;
}

void pz_post_io_sync(struct pz_call *c, MPI_File fh)
{
    uint32_t ref = pz_handles_find(&pz_io_files, file_key(fh));

    if (ref == PZ_NO_HANDLE)
        return;
    begin(c, ref, OTF2_IO_OPERATION_MODE_FLUSH, OTF2_IO_OPERATION_FLAG_COLLECTIVE, 0, 0);
    complete(c, ref, 0, 0, NULL);
}
