/* Growing an array indexed by a 32-bit id (definitions, stacks): one helper, so that
 * no caller's capacity arithmetic can wrap. */
#ifndef PZ_TRACE_GROW_H
#define PZ_TRACE_GROW_H

#include <stddef.h>
#include <stdint.h>

/* Grows *v, an array of *n elements of size bytes, so that index i is valid: the
 * capacity doubles from 64 up to what i needs, computed without wrapping, and the new
 * elements are zero.  *n is the capacity.  0, or -1 (v and n untouched) when memory
 * runs out or i + 1 elements cannot be counted in 32 bits. */
int pz_grow(void **v, uint32_t *n, uint32_t i, size_t size);

#endif
