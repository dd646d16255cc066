/* Reading a part back (part.h).  Needs no MPI: the assembly runs in the prognoz
 * command (assemble.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "part.h"

static char *unescape(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;

    for (; out && *s; s++) {
        if (*s == '\\' && s[1]) {
            s++;
            *o++ = *s == 'n' ? '\n' : *s;
        } else {
            *o++ = *s;
        }
    }
    if (out)
        *o = '\0';
    return out;
}

static int add_string(struct pz_part_strings *list, const char *escaped)
{
    char **grown = realloc(list->s, (list->n + 1) * sizeof(char *));

    if (!grown)
        return -1;
    list->s = grown;
    return (list->s[list->n++] = unescape(escaped)) ? 0 : -1;
}

/* n integers read from *text on, which moves past them; NULL if they are not there. */
static int *read_ints(const char **text, int n)
{
    int *v = malloc((n ? (size_t)n : 1) * sizeof(int));

    for (int i = 0; v && i < n; i++) {
        char *end;
        long x = strtol(*text, &end, 10);

        if (end == *text) {
            free(v);
            return NULL;
        }
        v[i] = (int)x;
        *text = end;
    }
    return v;
}

static int add_thread(struct pz_part *p, const char *text)
{
    struct pz_part_thread t, *grown;
    unsigned long long events, first, last;

    if (sscanf(text, "%u %llu %llu %llu", &t.index, &events, &first, &last) != 4 ||
        !(grown = realloc(p->threads, (p->nthreads + 1) * sizeof(*grown))))
        return -1;
    t.events = events;
    t.first = first;
    t.last = last;
    t.saved = 0;
    p->threads = grown;
    p->threads[p->nthreads++] = t;
    return 0;
}

static int add_saved(struct pz_part *p, const char *text)
{
    unsigned index;
    unsigned long long size;

    if (sscanf(text, "%u %llu", &index, &size) != 2 || size == 0)
        return -1;
    for (uint32_t i = 0; i < p->nthreads; i++) {
        if (p->threads[i].index == index) {
            p->threads[i].saved = size;
            return 0;
        }
    }
    return -1;
}

static int add_comm(struct pz_part *p, const char *text)
{
    struct pz_comm_info c = { 0 }, *grown;
    unsigned long long gid;
    unsigned creator;
    int used;

    if (sscanf(text, "%llu %u %d %d %d%n", &gid, &creator, &c.size, &c.remote_size, &c.ndims,
               &used) != 5 || c.size < 0 || c.remote_size < 0 || c.ndims < 0 ||
        c.size > p->size || c.remote_size > p->size || c.ndims > 64)
        return -1;
    c.gid = gid;
    c.creator = (uint16_t)creator;
    text += used;
    c.members = c.size + c.remote_size ? read_ints(&text, c.size + c.remote_size) : NULL;
    c.cart = c.ndims ? read_ints(&text, 2 * c.ndims) : NULL;
    if ((c.size + c.remote_size && !c.members) || (c.ndims && !c.cart) ||
        !(grown = realloc(p->comms, (p->ncomms + 1) * sizeof(*grown)))) {
        free(c.members);
        free(c.cart);
        return -1;
    }
    p->comms = grown;
    p->comms[p->ncomms++] = c;
    return 0;
}

static int read_header(struct pz_part *p, const char *key, const char *text)
{
    unsigned long long a, b;
    long long off;

    if (!strcmp(key, "rank"))
        return sscanf(text, "%d", &p->rank) == 1 ? 0 : -1;
    if (!strcmp(key, "size"))
        return sscanf(text, "%d", &p->size) == 1 && p->size > 0 ? 0 : -1;
    if (!strcmp(key, "ending"))
        return (p->ending = unescape(text)) ? 0 : -1;
    if (!strcmp(key, "program"))
        return !p->program && (p->program = unescape(text)) ? 0 : -1;
    if (!strcmp(key, "library"))
        return !p->library && (p->library = unescape(text)) ? 0 : -1;
    if (!strcmp(key, "cores"))
        return sscanf(text, "%d", &p->cores) == 1 && p->cores >= 0 ? 0 : -1;
    if (!strcmp(key, "node"))
        return add_string(&p->nodes, text);
    if (!strcmp(key, "node_of_rank"))
        return p->size > 0 && (p->node_of_rank = read_ints(&text, p->size)) ? 0 : -1;
    if (!strcmp(key, "cpu"))
        return sscanf(text, "%d", &p->cpu) == 1 ? 0 : -1;
    if (!strcmp(key, "offset")) {
        if (sscanf(text, "%llu %lld %lg", &a, &off, &p->deviation) != 3)
            return -1;
        p->offset_time = a;
        p->offset = off;
        return 0;
    }
    if (!strcmp(key, "clock")) {
        if (sscanf(text, "%llu %llu", &a, &b) != 2)
            return -1;
        p->clock_now = a;
        p->clock_real = b;
        return 0;
    }
    return -1;
}

/* One line "KEY VALUE" (its newline removed). */
static int read_line(struct pz_part *p, char *line)
{
    char *space = strchr(line, ' ');
    const char *text = space ? space + 1 : "";

    if (space)
        *space = '\0';
    if (!strcmp(line, "thread"))
        return add_thread(p, text);
    if (!strcmp(line, "saved"))
        return add_saved(p, text);
    if (!strcmp(line, "comm"))
        return add_comm(p, text);
    if (!strcmp(line, "list"))
        return add_string(&p->lists, text);
    if (!strcmp(line, "interval"))
        return add_string(&p->intervals, text);
    if (!strcmp(line, "site"))
        return add_string(&p->sites, text);
    if (!strcmp(line, "iohandle"))
        return add_string(&p->io_handles, text);
    if (!strcmp(line, "window"))
        return add_string(&p->windows, text);
    if (!strcmp(line, "rmagroup"))
        return add_string(&p->rma_groups, text);
    return read_header(p, line, text);
}

/* Whether what was read makes a part: its end seen, the header whole and consistent. */
static int complete(const struct pz_part *p, int ended)
{
    for (int r = 0; p->node_of_rank && r < p->size; r++)
        if (p->node_of_rank[r] < 0 || (uint32_t)p->node_of_rank[r] >= p->nodes.n)
            return 0;
    return ended && p->rank >= 0 && p->rank < p->size && p->ending && p->node_of_rank &&
           p->nthreads > 0;
}

int pz_part_read(const char *path, struct pz_part *p, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long number = 1;
    int ok = 1, ended = 0;

    memset(p, 0, sizeof(*p));
    p->rank = -1;
    if (!f) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    if ((len = getline(&line, &cap, f)) <= 0 || strcmp(line, PZ_PART_MAGIC "\n"))
        ok = 0;
    while (ok && !ended && (len = getline(&line, &cap, f)) > 0) {
        number++;
        if (line[len - 1] == '\n')
            line[len - 1] = '\0';
        ended = !strcmp(line, "end");
        ok = ended || read_line(p, line) == 0;
    }
    free(line);
    fclose(f);
    if (ok && complete(p, ended))
        return 0;
    snprintf(err, errlen, "'%s' is not a whole part of a trace (line %ld)", path, number);
    pz_part_free(p);
    return -1;
}

static void strings_free(struct pz_part_strings *list)
{
    for (uint32_t i = 0; i < list->n; i++)
        free(list->s[i]);
    free(list->s);
}

void pz_part_free(struct pz_part *p)
{
    free(p->ending);
    free(p->program);
    free(p->library);
    strings_free(&p->nodes);
    free(p->node_of_rank);
    free(p->threads);
    for (uint32_t i = 0; i < p->ncomms; i++) {
        free(p->comms[i].members);
        free(p->comms[i].cart);
    }
    free(p->comms);
    strings_free(&p->lists);
    strings_free(&p->intervals);
    strings_free(&p->sites);
    strings_free(&p->io_handles);
    strings_free(&p->windows);
    strings_free(&p->rma_groups);
    memset(p, 0, sizeof(*p));
}
