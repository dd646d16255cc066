/* Count lists interned per process; a chained hash over their text, locked because
 * threads of one process share it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hooks.h"
#include "vcounts.h"

#define BUCKETS 1024u

struct entry {
    char *text;
    uint32_t id;
    struct entry *next;
};

static struct entry *buckets[BUCKETS];
static char **texts;                 /* by local id */
static uint32_t ntexts, texts_cap;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;

    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* "b0,b1,...": at most 20 digits and a comma per count. */
static char *format(struct pz_counts counts, MPI_Datatype type, const MPI_Datatype *types,
                    int n)
{
    char *text = malloc((size_t)n * 21 + 1), *p = text;

    if (!text)
        return NULL;
    *p = '\0';
    for (int i = 0; i < n; i++)
        p += sprintf(p, i ? ",%llu" : "%llu",
                     (unsigned long long)pz_bytes(pz_count_at(counts, i),
                                                  types ? types[i] : type));
    return text;
}

static uint32_t add(char *text, uint32_t h)
{
    struct entry *e;

    if (ntexts == texts_cap) {
        uint32_t cap = texts_cap ? 2 * texts_cap : 64;
        char **grown = realloc(texts, cap * sizeof(*grown));

        if (!grown)
            return PZ_NO_COUNTS;
        texts = grown;
        texts_cap = cap;
    }
    if (!(e = malloc(sizeof(*e))))
        return PZ_NO_COUNTS;
    e->text = text;
    e->id = ntexts;
    e->next = buckets[h % BUCKETS];
    buckets[h % BUCKETS] = e;
    texts[ntexts] = text;
    return ntexts++;
}

uint32_t pz_vcounts_intern(struct pz_counts counts, MPI_Datatype type,
                           const MPI_Datatype *types, int n)
{
    char *text;
    uint32_t h, id = PZ_NO_COUNTS;

    if (!counts.at || n <= 0 || !(text = format(counts, type, types, n)))
        return PZ_NO_COUNTS;
    h = hash(text);
    pthread_mutex_lock(&lock);
    for (struct entry *e = buckets[h % BUCKETS]; e; e = e->next) {
        if (!strcmp(e->text, text)) {
            id = e->id;
            break;
        }
    }
    if (id == PZ_NO_COUNTS)
        id = add(text, h);
    else
        free(text);
    pthread_mutex_unlock(&lock);
    if (id == PZ_NO_COUNTS)
        free(text);
    return id;
}

uint32_t pz_vcounts_count(void)
{
    return ntexts;
}

char *pz_vcounts_pack(int *len)
{
    size_t total = 0;
    char *buf, *p;

    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < ntexts; i++)
        total += strlen(texts[i]) + 1;
    p = buf = malloc(total ? total : 1);
    for (uint32_t i = 0; buf && i < ntexts; i++)
        p = stpcpy(p, texts[i]) + 1;
    pthread_mutex_unlock(&lock);
    *len = buf ? (int)total : 0;
    return buf;
}
