/* Sizes written by people: "64M", "512KiB", "1G", "4096". */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "size.h"

/* Parses "64M", "512KiB", "1G" or a plain number of bytes; 0 if malformed. */
size_t pz_parse_size(const char *text)
{
    char *end;
    unsigned long long n = strtoull(text, &end, 10);
    size_t shift = 0;

    if (end == text)
        return 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    }
    if (shift && (!strcmp(end, "iB") || !strcmp(end, "B")))
        end += strlen(end);
    if (*end || n > (SIZE_MAX >> shift))
        return 0;
    return (size_t)n << shift;
}
