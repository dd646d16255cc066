#ifndef PZ_SIZE_H
#define PZ_SIZE_H

#include <stddef.h>

/* Parses a number of bytes with an optional binary unit: K, M or G, alone or followed
 * by B or iB ("64M", "512KiB", "1G"); a plain number is bytes.  Returns 0 if text is
 * not such a size or does not fit a size_t. */
size_t pz_parse_size(const char *text);

#endif
