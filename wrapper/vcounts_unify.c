/* Numbering the count lists of all processes at finalize: rank 0 collects every
 * process's lists, keeps each distinct one once in order of first appearance, and sends
 * every process the global ids of its own lists. */
#include <stdlib.h>
#include <string.h>

#include "vcounts.h"

struct gathered {
    int *counts, *displs;   /* per rank: number of lists, offset in the id arrays */
    int *lens, *offsets;    /* per rank: bytes of text, offset in text */
    char *text;
    uint32_t *global;       /* global id of every gathered list */
};

static int prefix_sums(const int *v, int *sums, int n)
{
    int total = 0;

    for (int i = 0; i < n; i++) {
        sums[i] = total;
        total += v[i];
    }
    return total;
}

/* Rank 0: gives each gathered list its global id; returns the distinct lists. */
static char **number(struct gathered *g, int nlists, uint32_t *nall)
{
    char **all = malloc((size_t)(nlists ? nlists : 1) * sizeof(char *)), *p = g->text;
    uint32_t n = 0;

    for (int i = 0; i < nlists; i++, p += strlen(p) + 1) {
        uint32_t k = 0;

        while (k < n && strcmp(all[k], p) != 0)
            k++;
        if (k == n)
            all[n++] = strdup(p);
        g->global[i] = k;
    }
    *nall = n;
    return all;
}

int pz_vcounts_unify(MPI_Comm comm, uint32_t *map, char ***all, uint32_t *nall)
{
    struct gathered g = { 0 };
    int rank, size, len = 0, nlists = 0, mine = (int)pz_vcounts_count();
    char *buf = pz_vcounts_pack(&len);

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    *all = NULL;
    *nall = 0;
    if (rank == 0) {
        g.counts = malloc((size_t)size * sizeof(int));
        g.displs = malloc((size_t)size * sizeof(int));
        g.lens = malloc((size_t)size * sizeof(int));
        g.offsets = malloc((size_t)size * sizeof(int));
    }
    PMPI_Gather(&mine, 1, MPI_INT, g.counts, 1, MPI_INT, 0, comm);
    PMPI_Gather(&len, 1, MPI_INT, g.lens, 1, MPI_INT, 0, comm);
    if (rank == 0) {
        nlists = prefix_sums(g.counts, g.displs, size);
        g.text = malloc((size_t)prefix_sums(g.lens, g.offsets, size) + 1);
        g.global = malloc((size_t)(nlists ? nlists : 1) * sizeof(uint32_t));
    }
    PMPI_Gatherv(buf, len, MPI_CHAR, g.text, g.lens, g.offsets, MPI_CHAR, 0, comm);
    if (rank == 0)
        *all = number(&g, nlists, nall);
    PMPI_Scatterv(g.global, g.counts, g.displs, MPI_UINT32_T, map, mine, MPI_UINT32_T, 0, comm);
    free(buf);
    free(g.counts);
    free(g.displs);
    free(g.lens);
    free(g.offsets);
    free(g.text);
    free(g.global);
    return 0;
}

void pz_vcounts_free_global(char **all, uint32_t nall)
{
    for (uint32_t i = 0; all && i < nall; i++)
        free(all[i]);
    free(all);
}
