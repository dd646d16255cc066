/* Rank 0 gathers every process's strings, keeps the distinct ones with a hash of their
 * text, and scatters back each process's numbers. */
#include <stdlib.h>
#include <string.h>

#include "unify.h"

struct gathered {
    int *counts, *displs;   /* per rank: number of strings, offset in the number array */
    int *lens, *offsets;    /* per rank: bytes of text, offset in text */
    char *text;
    uint32_t *global;       /* global number of every gathered string */
};

void pz_strings_add(struct pz_strings *list, const char *s)
{
    size_t need = strlen(s) + 1;

    if (list->len + need > list->cap) {
        size_t cap = 2 * (list->len + need) + 256;
        char *grown = realloc(list->text, cap);

        if (!grown)
            return;
        list->text = grown;
        list->cap = cap;
    }
    memcpy(list->text + list->len, s, need);
    list->len += need;
    list->n++;
}

static int prefix_sums(const int *v, int *sums, int n)
{
    int total = 0;

    for (int i = 0; i < n; i++) {
        sums[i] = total;
        total += v[i];
    }
    return total;
}

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;

    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* Rank 0: numbers the n gathered strings; returns the distinct ones. */
static char **number(struct gathered *g, int n, uint32_t *nall)
{
    uint32_t cap = 16, count = 0;
    char **all = malloc((size_t)(n ? n : 1) * sizeof(char *)), *p = g->text;
    uint32_t *slots;

    while (cap < 2u * (uint32_t)n)
        cap *= 2;
    slots = malloc(cap * sizeof(*slots));   /* number + 1, 0 when empty */
    if (!all || !slots) {
        free(all);
        free(slots);
        return NULL;
    }
    memset(slots, 0, cap * sizeof(*slots));
    for (int i = 0; i < n; i++, p += strlen(p) + 1) {
        uint32_t s = hash(p) & (cap - 1);

        while (slots[s] && strcmp(all[slots[s] - 1], p) != 0)
            s = (s + 1) & (cap - 1);
        if (!slots[s]) {
            all[count] = strdup(p);
            slots[s] = ++count;
        }
        g->global[i] = slots[s] - 1;
    }
    free(slots);
    *nall = count;
    return all;
}

static void release(struct gathered *g)
{
    free(g->counts);
    free(g->displs);
    free(g->lens);
    free(g->offsets);
    free(g->text);
    free(g->global);
}

int pz_unify_strings(MPI_Comm comm, const char *packed, int len, int n, uint32_t *map,
                     char ***all, uint32_t *nall)
{
    struct gathered g = { 0 };
    int rank, size, total = 0, ok = 1;

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
    PMPI_Gather(&n, 1, MPI_INT, g.counts, 1, MPI_INT, 0, comm);
    PMPI_Gather(&len, 1, MPI_INT, g.lens, 1, MPI_INT, 0, comm);
    if (rank == 0) {
        total = prefix_sums(g.counts, g.displs, size);
        g.text = malloc((size_t)prefix_sums(g.lens, g.offsets, size) + 1);
        g.global = calloc((size_t)(total ? total : 1), sizeof(uint32_t));
    }
    PMPI_Gatherv(packed, len, MPI_CHAR, g.text, g.lens, g.offsets, MPI_CHAR, 0, comm);
    if (rank == 0 && !(*all = number(&g, total, nall)))
        ok = 0;
    PMPI_Scatterv(g.global, g.counts, g.displs, MPI_UINT32_T, map, n, MPI_UINT32_T, 0, comm);
    release(&g);
    PMPI_Bcast(&ok, 1, MPI_INT, 0, comm);
    return ok ? 0 : -1;
}

void pz_free_strings(char **all, uint32_t n)
{
    for (uint32_t i = 0; all && i < n; i++)
        free(all[i]);
    free(all);
}
