/* Numbering the count lists of all processes at finalize (unify.h). */
#include <stdlib.h>

#include "unify.h"
#include "vcounts.h"

int pz_vcounts_unify(MPI_Comm comm, uint32_t *map, char ***all, uint32_t *nall)
{
    int len = 0, rc;
    char *packed = pz_vcounts_pack(&len);

    rc = pz_unify_strings(comm, packed ? packed : "", packed ? len : 0,
                          packed ? (int)pz_vcounts_count() : 0, map, all, nall);
    free(packed);
    return rc;
}

void pz_vcounts_free_global(char **all, uint32_t nall)
{
    pz_free_strings(all, nall);
}
