/* The one growth helper (grow.h). */
#include <stdlib.h>
#include <string.h>

#include "grow.h"

int pz_grow(void **v, uint32_t *n, uint32_t i, size_t size)
{
    uint64_t cap = *n ? *n : 64;
    void *grown;

    if (i < *n)
        return 0;
    if (i == UINT32_MAX || size == 0)
        return -1;
    while (cap <= i)
        cap *= 2;
    if (cap > UINT32_MAX)
        cap = (uint64_t)i + 1;
    if (cap > SIZE_MAX / size || !(grown = realloc(*v, (size_t)cap * size)))
        return -1;
    memset((char *)grown + (size_t)*n * size, 0, (size_t)(cap - *n) * size);
    *v = grown;
    *n = (uint32_t)cap;
    return 0;
}
