/* Cartesian topologies of the definitions (defs.h): dimensions, topologies made of them
 * and the coordinates of ranks, each checked against what it refers to as it is read
 * (a definition refers to earlier ones), the coordinates sorted by rank at the end. */
#include <stdlib.h>
#include <string.h>

#include "defs_int.h"
#include "grow.h"

static OTF2_CallbackCode on_dimension(void *ud, OTF2_CartDimensionRef self, OTF2_StringRef name,
                                      uint32_t size, OTF2_CartPeriodicity periodicity)
{
    struct pz_defs *d = ud;

    (void)name;
    if (size == 0) {
        pz_defs_fail(d, "cart dimension %u has size 0", self);
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (pz_defs_reserve(d, (void **)&d->cart_dims, &d->ncart_dims, self,
                        sizeof(*d->cart_dims)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    d->cart_dims[self] = (struct pz_cart_dim_def){ size, periodicity != 0, 1 };
    return OTF2_CALLBACK_SUCCESS;
}

static void release_topology(struct pz_cart_def *t)
{
    free(t->dims);
    free(t->periodic);
    free(t->coords);
    memset(t, 0, sizeof(*t));
}

/* The sizes and periodicities of t's dimensions, refs[0..t->ndims - 1]. */
static int copy_dimensions(struct pz_defs *d, OTF2_CartTopologyRef self, struct pz_cart_def *t,
                           const OTF2_CartDimensionRef *refs)
{
    t->dims = malloc(t->ndims * sizeof(*t->dims));
    t->periodic = malloc(t->ndims);
    if (!t->dims || !t->periodic) {
        pz_defs_fail(d, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < t->ndims; i++) {
        if (refs[i] >= d->ncart_dims || !d->cart_dims[refs[i]].defined) {
            pz_defs_fail(d, "cart topology %u: dimension %u is not defined", self, refs[i]);
            return -1;
        }
        t->dims[i] = d->cart_dims[refs[i]].size;
        t->periodic[i] = d->cart_dims[refs[i]].periodic;
    }
    return 0;
}

static OTF2_CallbackCode on_topology(void *ud, OTF2_CartTopologyRef self, OTF2_StringRef name,
                                     OTF2_CommRef comm, uint8_t ndims,
                                     const OTF2_CartDimensionRef *dims)
{
    struct pz_defs *d = ud;
    struct pz_cart_def *t;

    (void)name;
    if (ndims < 1 || ndims > PZ_CART_MAX_DIMS) {
        pz_defs_fail(d, "cart topology %u has %u dimensions, expected 1 to %d", self,
                     (unsigned)ndims,
                     PZ_CART_MAX_DIMS);
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (pz_defs_reserve(d, (void **)&d->carts, &d->ncarts, self, sizeof(*d->carts)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    t = &d->carts[self];
    release_topology(t);
    t->comm = comm;
    t->ndims = ndims;
    if (copy_dimensions(d, self, t, dims) != 0) {
        release_topology(t);
        return OTF2_CALLBACK_INTERRUPT;
    }
    return OTF2_CALLBACK_SUCCESS;
}

/* Whether rank is a position of t's grid: below the product of its sizes. */
static int rank_in_grid(const struct pz_cart_def *t, uint32_t rank)
{
    uint64_t positions = 1;

    for (uint32_t i = 0; i < t->ndims && positions <= rank; i++)
        positions *= t->dims[i];    /* <= 2^32 * (2^32 - 1): cannot wrap */
    return rank < positions;
}

/* Why coordinates coords of rank in t cannot be, NULL if they can. */
static const char *bad_coordinate(const struct pz_cart_def *t, uint32_t rank, uint8_t ndims,
                                  const uint32_t *coords)
{
    if (ndims != t->ndims)
        return "has another number of dimensions than its topology";
    if (!rank_in_grid(t, rank))
        return "has a rank beyond its grid";
    for (uint32_t i = 0; i < t->ndims; i++)
        if (coords[i] >= t->dims[i])
            return "is beyond its grid";
    return NULL;
}

static OTF2_CallbackCode on_coordinate(void *ud, OTF2_CartTopologyRef topology, uint32_t rank,
                                       uint8_t ndims, const uint32_t *coords)
{
    struct pz_defs *d = ud;
    struct pz_cart_def *t = topology < d->ncarts ? &d->carts[topology] : NULL;
    const char *why;
    uint32_t *entry;

    if (!t || !t->ndims) {
        pz_defs_fail(d, "cart coordinate of rank %u: topology %u is not defined", rank,
                     topology);
        return OTF2_CALLBACK_INTERRUPT;
    }
    if ((why = bad_coordinate(t, rank, ndims, coords))) {
        pz_defs_fail(d, "cart coordinate of rank %u in topology %u %s", rank, topology, why);
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (pz_grow((void **)&t->coords, &t->coord_cap, t->ncoords,
                (1 + t->ndims) * sizeof(uint32_t)) != 0) {
        pz_defs_fail(d, "out of memory");
        return OTF2_CALLBACK_INTERRUPT;
    }
    entry = t->coords + (size_t)t->ncoords++ * (1 + t->ndims);
    entry[0] = rank;
    memcpy(entry + 1, coords, t->ndims * sizeof(uint32_t));
    return OTF2_CALLBACK_SUCCESS;
}

void pz_defs_cart_callbacks(OTF2_GlobalDefReaderCallbacks *cb)
{
    OTF2_GlobalDefReaderCallbacks_SetCartDimensionCallback(cb, on_dimension);
    OTF2_GlobalDefReaderCallbacks_SetCartTopologyCallback(cb, on_topology);
    OTF2_GlobalDefReaderCallbacks_SetCartCoordinateCallback(cb, on_coordinate);
}

static int by_rank(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

    return (a > b) - (a < b);
}

/* Sorts t's coordinates by rank; a rank given twice alike is kept once.  0, or -1 if a
 * rank is given two different coordinates. */
static int sort_coordinates(struct pz_defs *d, uint32_t id, struct pz_cart_def *t)
{
    size_t width = 1 + t->ndims, bytes = width * sizeof(uint32_t);
    uint32_t kept = 0;

    if (t->ncoords)
        qsort(t->coords, t->ncoords, bytes, by_rank);
    for (uint32_t i = 0; i < t->ncoords; i++) {
        const uint32_t *entry = t->coords + i * width;
        const uint32_t *last = kept ? t->coords + (kept - 1) * width : NULL;

        if (last && last[0] == entry[0]) {
            if (memcmp(last, entry, bytes) == 0)
                continue;
            pz_defs_fail(d, "cart topology %u gives rank %u two coordinates", id, entry[0]);
            return -1;
        }
        memmove(t->coords + kept++ * width, entry, bytes);
    }
    t->ncoords = kept;
    return 0;
}

int pz_defs_sort_carts(struct pz_defs *d)
{
    for (uint32_t i = 0; i < d->ncarts; i++)
        if (d->carts[i].ndims && sort_coordinates(d, i, &d->carts[i]) != 0)
            return -1;
    return 0;
}

void pz_defs_release_carts(struct pz_defs *d)
{
    for (uint32_t i = 0; i < d->ncarts; i++)
        release_topology(&d->carts[i]);
    free(d->carts);
    free(d->cart_dims);
}

const struct pz_cart_def *pz_defs_cart(const struct pz_defs *d, uint32_t comm)
{
    for (uint32_t i = 0; i < d->ncarts; i++)
        if (d->carts[i].ndims && d->carts[i].comm == comm)
            return &d->carts[i];
    return NULL;
}

const uint32_t *pz_cart_coords(const struct pz_cart_def *t, uint32_t rank)
{
    size_t width = 1 + t->ndims;
    uint32_t lo = 0, hi = t->ncoords;

    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;

        if (t->coords[mid * width] < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->ncoords && t->coords[lo * width] == rank ? t->coords + lo * width + 1 : NULL;
}
