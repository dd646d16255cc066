/* Communicator registry.  Readers (every traced call) look handles up without locks in
 * an open-addressing table whose slots are published atomically; writers (communicator
 * constructors and destructors) take a mutex. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "calls_gen.h"
#include "comms.h"
#include "defs.h"

#define SLOTS (1u << 16)          /* live communicators at most, a power of two */
#define MAX_CHUNKS 4096u
#define EMPTY 0u
#define GONE UINT32_MAX           /* slot whose communicator was freed */

enum { GID_WORLD, GID_SELF, GID_UNKNOWN };

/* slot = handle << 32 | (ref + 1), 0 when empty, ref + 1 = GONE when freed */
static _Atomic uint64_t slots[SLOTS];
struct pz_comm_info *_Atomic pz_comm_chunks[MAX_CHUNKS];
static _Atomic uint32_t ncomms;
static _Atomic uint32_t next_counter = 1;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t slot_of(uint32_t handle)
{
    return (handle * 2654435761u) & (SLOTS - 1);
}

uint32_t pz_comm_ref_lookup(MPI_Comm comm)
{
    uint32_t handle = (uint32_t)MPI_Comm_c2f(comm);

    for (uint32_t i = slot_of(handle), n = 0; n < SLOTS; i = (i + 1) & (SLOTS - 1), n++) {
        uint64_t s = atomic_load_explicit(&slots[i], memory_order_acquire);

        if (s == EMPTY)
            break;
        if ((uint32_t)(s >> 32) == handle && (uint32_t)s != GONE)
            return (uint32_t)s - 1;
    }
    return PZ_COMM_UNKNOWN;
}

uint32_t pz_comms_count(void)
{
    return atomic_load(&ncomms);
}

/* Appends info as a new reference; caller holds the lock. */
static int add_info(const struct pz_comm_info *info, uint32_t *ref)
{
    uint32_t r = atomic_load(&ncomms);
    struct pz_comm_info *chunk;

    if (r / PZ_COMM_CHUNK >= MAX_CHUNKS)
        return -1;
    chunk = atomic_load(&pz_comm_chunks[r / PZ_COMM_CHUNK]);
    if (!chunk) {
        chunk = calloc(PZ_COMM_CHUNK, sizeof(*chunk));
        if (!chunk)
            return -1;
        atomic_store_explicit(&pz_comm_chunks[r / PZ_COMM_CHUNK], chunk, memory_order_release);
    }
    chunk[r % PZ_COMM_CHUNK] = *info;
    atomic_store(&ncomms, r + 1);
    *ref = r;
    return 0;
}

/* Points handle at ref, reusing the handle's old slot or a freed one; caller holds the
 * lock.  Returns -1 if the table is full. */
static int map_handle(uint32_t handle, uint32_t ref)
{
    uint32_t target = SLOTS;

    for (uint32_t i = slot_of(handle), n = 0; n < SLOTS; i = (i + 1) & (SLOTS - 1), n++) {
        uint64_t s = atomic_load(&slots[i]);

        if ((uint32_t)(s >> 32) == handle && s != EMPTY) {
            target = i;
            break;
        }
        if (target == SLOTS && (uint32_t)s == GONE)
            target = i;
        if (s == EMPTY) {
            if (target == SLOTS)
                target = i;
            break;
        }
    }
    if (target == SLOTS)
        return -1;
    atomic_store_explicit(&slots[target], (uint64_t)handle << 32 | (ref + 1),
                          memory_order_release);
    return 0;
}

static int *world_members(MPI_Group group, int n, MPI_Group world)
{
    int *ranks = malloc((size_t)n * sizeof(int)), *out = malloc((size_t)n * sizeof(int));

    if (ranks && out) {
        for (int i = 0; i < n; i++)
            ranks[i] = i;
        PMPI_Group_translate_ranks(group, n, ranks, world, out);
    } else {
        free(out);
        out = NULL;
    }
    free(ranks);
    return out;
}

/* World ranks of comm's local group followed by its remote group. */
static int *members_of(MPI_Comm comm, int size, int remote_size)
{
    MPI_Group world, local, remote;
    int *all = malloc((size_t)(size + remote_size) * sizeof(int)), *part;

    if (!all)
        return NULL;
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    PMPI_Comm_group(comm, &local);
    part = world_members(local, size, world);
    if (part)
        memcpy(all, part, (size_t)size * sizeof(int));
    free(part);
    PMPI_Group_free(&local);
    if (remote_size > 0) {
        PMPI_Comm_remote_group(comm, &remote);
        part = world_members(remote, remote_size, world);
        if (part)
            memcpy(all + size, part, (size_t)remote_size * sizeof(int));
        free(part);
        PMPI_Group_free(&remote);
    }
    PMPI_Group_free(&world);
    return all;
}

/* Registers info as a new reference, *ref, that handle comm names unless it is
 * MPI_COMM_NULL.  Returns 0, or -1 if memory ran out or the table is full. */
static int register_comm_as(MPI_Comm comm, const struct pz_comm_info *info, uint32_t *ref)
{
    int rc;

    pthread_mutex_lock(&lock);
    rc = add_info(info, ref);
    if (rc == 0 && comm != MPI_COMM_NULL)
        rc = map_handle((uint32_t)MPI_Comm_c2f(comm), *ref);
    pthread_mutex_unlock(&lock);
    return rc;
}

static int register_comm(MPI_Comm comm, const struct pz_comm_info *info)
{
    uint32_t ref;

    return register_comm_as(comm, info, &ref);
}

int pz_comms_init(void)
{
    struct pz_comm_info unknown = { .gid = GID_UNKNOWN, .creator = PZ_NCALLS };
    struct pz_comm_info world = { .gid = GID_WORLD, .creator = PZ_CALL_MPI_Init };
    struct pz_comm_info self = { .gid = GID_SELF, .rank = 0, .size = 1,
                                 .creator = PZ_CALL_MPI_Init };

    PMPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &world.size);
    world.members = malloc((size_t)world.size * sizeof(int));
    if (!world.members)
        return -1;
    for (int i = 0; i < world.size; i++)
        world.members[i] = i;
    if (register_comm(MPI_COMM_NULL, &unknown) || register_comm(MPI_COMM_WORLD, &world) ||
        register_comm(MPI_COMM_SELF, &self))
        return -1;
    return 0;
}

/* A global id agreed by the members of intracommunicator comm: its rank 0 makes it. */
static uint64_t agree_gid(MPI_Comm comm)
{
    int rank, world_rank;
    uint64_t gid = 0;

    PMPI_Comm_rank(comm, &rank);
    if (rank == 0) {
        PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
        gid = (uint64_t)(world_rank + 1) << 32 | atomic_fetch_add(&next_counter, 1);
    }
    PMPI_Bcast(&gid, 1, MPI_UINT64_T, 0, comm);
    return gid;
}

/* The Cartesian topology of comm, made by MPI_Cart_create or MPI_Cart_sub (whose grid
 * is the kept dimensions of its parent's), into info; none if comm has another. */
static void topology_of(MPI_Comm comm, struct pz_comm_info *info)
{
    int kind, ndims, coords[PZ_CART_MAX_DIMS];

    if (info->creator != PZ_CALL_MPI_Cart_create && info->creator != PZ_CALL_MPI_Cart_sub)
        return;
    PMPI_Topo_test(comm, &kind);
    if (kind != MPI_CART)
        return;
    PMPI_Cartdim_get(comm, &ndims);
    if (ndims < 1 || ndims > PZ_CART_MAX_DIMS)
        return;
    if (!(info->cart = malloc(2 * (size_t)ndims * sizeof(int))))
        return;
    PMPI_Cart_get(comm, ndims, info->cart, info->cart + ndims, coords);
    for (int d = 0; d < ndims; d++)
        info->cart[ndims + d] = info->cart[ndims + d] != 0;
    info->ndims = ndims;
}

void pz_comms_created(MPI_Comm newcomm, uint16_t creator)
{
    struct pz_comm_info info = { .creator = creator };
    int inter;

    if (newcomm == MPI_COMM_NULL)
        return;
    PMPI_Comm_rank(newcomm, &info.rank);
    PMPI_Comm_size(newcomm, &info.size);
    PMPI_Comm_test_inter(newcomm, &inter);
    if (inter) {
        MPI_Comm merged;

        PMPI_Comm_remote_size(newcomm, &info.remote_size);
        PMPI_Intercomm_merge(newcomm, 0, &merged);
        info.gid = agree_gid(merged);
        PMPI_Comm_free(&merged);
    } else {
        info.gid = agree_gid(newcomm);
    }
    info.members = members_of(newcomm, info.size, info.remote_size);
    topology_of(newcomm, &info);
    register_comm(newcomm, &info);
}

/* The communicators derived from another without communication, each kind numbered by
 * its own counter of the parent: MPI_Comm_idup's duplicates and the contexts of
 * persistent collectives, which a program may make in different interleavings on
 * different members as long as each kind keeps its order. */
enum derivation { DERIVED_IDUP, DERIVED_PERSISTENT };

/* The global id of the communicator number k of kind how derived from the communicator
 * of global id parent: splitmix64's finalizer of the three, with the top bit set, which
 * agree_gid's ids never have. */
static uint64_t derived_gid(uint64_t parent, enum derivation how, uint32_t k)
{
    uint64_t z = parent * 0x9e3779b97f4a7c15u + ((uint64_t)how << 32) + k + 1;

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return (z ^ (z >> 31)) | (uint64_t)1 << 63;
}

/* A copy of n ints, NULL if there are none or memory ran out. */
static int *copy_ints(const int *v, size_t n)
{
    int *c = v && n ? malloc(n * sizeof(int)) : NULL;

    if (c)
        memcpy(c, v, n * sizeof(int));
    return c;
}

/* The info of the next communicator of kind how derived from the one of reference ref
 * by the call creator: ref's members, and for a duplicate its topology too. */
static struct pz_comm_info derived(uint32_t ref, enum derivation how, uint16_t creator)
{
    struct pz_comm_info *p, info;
    uint32_t k;

    pthread_mutex_lock(&lock);
    p = (struct pz_comm_info *)pz_comm_get(ref);
    k = how == DERIVED_IDUP ? p->idups++ : p->pinits++;
    info = *p;
    pthread_mutex_unlock(&lock);
    info.gid = derived_gid(info.gid, how, k);
    info.creator = creator;
    info.idups = info.pinits = 0;
    info.members = copy_ints(info.members, (size_t)info.size + (size_t)info.remote_size);
    info.cart = how == DERIVED_IDUP ? copy_ints(info.cart, 2 * (size_t)info.ndims) : NULL;
    if (!info.cart)
        info.ndims = 0;
    return info;
}

void pz_comms_duplicating(MPI_Comm parent, MPI_Comm newcomm, uint16_t creator)
{
    uint32_t ref = pz_comm_ref(parent);
    struct pz_comm_info info;

    if (newcomm == MPI_COMM_NULL || ref == PZ_COMM_UNKNOWN)
        return;
    info = derived(ref, DERIVED_IDUP, creator);
    register_comm(newcomm, &info);
}

uint32_t pz_comms_persistent(uint32_t parent, uint16_t creator)
{
    struct pz_comm_info info;
    uint32_t ref;

    if (parent == PZ_COMM_UNKNOWN)
        return parent;
    info = derived(parent, DERIVED_PERSISTENT, creator);
    if (register_comm_as(MPI_COMM_NULL, &info, &ref) != 0) {
        free(info.members);
        return parent;
    }
    return ref;
}

void pz_comms_freed(MPI_Comm comm)
{
    uint32_t handle = (uint32_t)MPI_Comm_c2f(comm);

    pthread_mutex_lock(&lock);
    for (uint32_t i = slot_of(handle), n = 0; n < SLOTS; i = (i + 1) & (SLOTS - 1), n++) {
        uint64_t s = atomic_load(&slots[i]);

        if (s == EMPTY)
            break;
        if ((uint32_t)(s >> 32) == handle && (uint32_t)s != GONE) {
            atomic_store(&slots[i], (uint64_t)handle << 32 | GONE);
            break;
        }
    }
    pthread_mutex_unlock(&lock);
}
