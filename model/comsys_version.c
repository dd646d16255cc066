/* The library's version, compiled in from the configured header. */
#include "comsys_version.h"

const char *pz_comsys_version(void)
{
    return PZ_COMSYS_VERSION;
}
