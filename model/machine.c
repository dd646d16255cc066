/* Machine files: `key = value` per line, `#` starts a comment, blank lines are ignored.
 * Each key has a kind of value; a wrong key, unit or value is reported with file and
 * line and what was expected. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "units.h"

enum kind { TIME, BANDWIDTH, BYTES, COUNT, FACTOR, DUPLEX, NAME, NETWORK, COST, PLACEMENT,
            MPI, PROGRESS };

struct key {
    const char *name;
    enum kind kind;
    size_t offset;
};

#define KEY(name, kind, member) { name, kind, offsetof(struct pz_machine, member) }

static const struct key keys[] = {
    KEY("name", NAME, name),
    KEY("network", NETWORK, network),
    KEY("channels", COUNT, channels),
    KEY("cost_model", COST, cost_model),
    KEY("latency", TIME, latency),
    KEY("latency_per_byte", TIME, latency_per_byte),
    KEY("bandwidth", BANDWIDTH, bandwidth),
    KEY("packet_size", BYTES, packet_size),
    KEY("packet_header", BYTES, packet_header),
    KEY("eager_threshold", BYTES, eager_threshold),
    KEY("rendezvous_overhead", TIME, rendezvous_overhead),
    KEY("progress", PROGRESS, progress),
    KEY("duplex_factor", DUPLEX, duplex_factor),
    KEY("procs_per_node", COUNT, procs_per_node),
    KEY("placement", PLACEMENT, placement),
    KEY("shm_latency", TIME, shm_latency),
    KEY("shm_bandwidth", BANDWIDTH, shm_bandwidth),
    KEY("cpu_scale", FACTOR, cpu_scale),
    KEY("mpi", MPI, mpi),
    KEY("reduce_byte_time", TIME, reduce_byte_time),
};

static const char *const expected[] = {
    [TIME] = "a time such as 50us, 1.5ms or 0s",
    [BANDWIDTH] = "a bandwidth such as 12.5MB/s or 1Gbit/s",
    [BYTES] = "a size such as 1500B, 64KiB or 0",
    [COUNT] = "a whole number of at least 1",
    [FACTOR] = "a positive number",
    [DUPLEX] = "a number from 1 (full duplex) to 2 (half duplex)",
    [NAME] = "a name",
    [NETWORK] = "bus, channels or switch",
    [COST] = "hockney or packet",
    [PLACEMENT] = "block or cyclic",
    [MPI] = "mpich1, mpich-1.2.5 or mpich4",
    [PROGRESS] = "background or in_calls",
};

void pz_machine_defaults(struct pz_machine *m)
{
    memset(m, 0, sizeof(*m));
    snprintf(m->name, sizeof(m->name), "unnamed");
    m->network = PZ_NET_SWITCH;
    m->channels = 1;
    m->cost_model = PZ_COST_HOCKNEY;
    m->latency = 50e-6;
    m->bandwidth = 125e6;
    m->packet_size = 1500;
    m->packet_header = 78;
    m->eager_threshold = 65536;
    m->procs_per_node = 1;
    m->placement = PZ_PLACE_BLOCK;
    m->duplex_factor = 1.0;
    m->shm_latency = 1e-6;
    m->shm_bandwidth = 5e9;
    m->cpu_scale = 1.0;
    snprintf(m->mpi, sizeof(m->mpi), "mpich4");
}

/* One of the words, by index; -1 if value is none of them. */
static int word(const char *value, const char *const *words, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(value, words[i]))
            return i;
    return -1;
}

int pz_machine_set_mpi(struct pz_machine *m, const char *set)
{
    static const char *const sets[] = { "mpich1", "mpich-1.2.5", "mpich4" };

    if (word(set, sets, 3) < 0)
        return -1;
    snprintf(m->mpi, sizeof(m->mpi), "%s", set);
    return 0;
}

/* Stores value for key k into m; returns 0 or -1. */
static int store(struct pz_machine *m, const struct key *k, const char *value)
{
    static const char *const networks[] = { "bus", "channels", "switch" };
    static const char *const costs[] = { "hockney", "packet" };
    static const char *const places[] = { "block", "cyclic" };
    static const char *const progress[] = { "background", "in_calls" };
    void *field = (char *)m + k->offset;
    double d;
    char *end;
    long n;
    int w;

    switch (k->kind) {
    case TIME:
        return pz_parse_time(value, (double *)field);
    case BANDWIDTH:
        return pz_parse_bandwidth(value, (double *)field) || *(double *)field <= 0 ? -1 : 0;
    case BYTES:
        return pz_parse_bytes(value, (double *)field);
    case FACTOR:
    case DUPLEX:
        d = strtod(value, &end);
        if (end == value || *end || !(k->kind == FACTOR ? d > 0 : d >= 1 && d <= 2))
            return -1;
        *(double *)field = d;
        return 0;
    case COUNT:
        n = strtol(value, &end, 10);
        if (end == value || *end || n < 1 || n > 1000000)
            return -1;
        *(int *)field = (int)n;
        return 0;
    case NAME:
        return snprintf((char *)field, sizeof(m->name), "%s", value) < (int)sizeof(m->name) &&
               *value ? 0 : -1;
    case NETWORK:
        return (w = word(value, networks, 3)) < 0 ? -1 : (*(enum pz_network_kind *)field = w, 0);
    case COST:
        return (w = word(value, costs, 2)) < 0 ? -1 : (*(enum pz_cost_model *)field = w, 0);
    case PLACEMENT:
        return (w = word(value, places, 2)) < 0 ? -1 : (*(enum pz_placement *)field = w, 0);
    case MPI:
        return pz_machine_set_mpi(m, value);
    case PROGRESS:
        return (w = word(value, progress, 2)) < 0 ? -1 : (*(enum pz_progress *)field = w, 0);
    }
    return -1;
}

static char *trim(char *s)
{
    char *end;

    while (isspace((unsigned char)*s))
        s++;
    end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

/* One line of the file: "" if it is fine, else what is wrong with it in why. */
static int parse_line(struct pz_machine *m, const char *path, char *line, char *why,
                      size_t len)
{
    char *hash = strchr(line, '#'), *eq, *name, *value;

    if (hash)
        *hash = '\0';
    if (!*trim(line))
        return 0;
    if (!(eq = strchr(line, '='))) {
        snprintf(why, len, "expected 'key = value'");
        return -1;
    }
    *eq = '\0';
    name = trim(line);
    value = trim(eq + 1);
    if (!strcmp(name, "node_map"))
        return pz_node_map_load(m, path, value, why, len);
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        if (strcmp(name, keys[i].name) != 0)
            continue;
        if (store(m, &keys[i], value) == 0)
            return 0;
        snprintf(why, len, "%s = '%s': expected %s", name, value, expected[keys[i].kind]);
        return -1;
    }
    snprintf(why, len, "unknown key '%s' (docs/machines.md lists the keys)", name);
    return -1;
}

int pz_machine_load(const char *path, struct pz_machine *m, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char line[1024], why[1024];
    int lineno = 0, rc = 0;

    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    while (rc == 0 && fgets(line, sizeof(line), f)) {
        lineno++;
        if (parse_line(m, path, line, why, sizeof(why)) != 0) {
            snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
            rc = -1;
        }
    }
    fclose(f);
    if (rc == 0 && m->packet_header >= m->packet_size && m->cost_model == PZ_COST_PACKET) {
        snprintf(err, errlen, "%s: packet_header must be smaller than packet_size", path);
        rc = -1;
    }
    if (rc == 0 && m->duplex_factor != 1 && m->network != PZ_NET_SWITCH) {
        snprintf(err, errlen, "%s: duplex_factor applies to network = switch only (a bus "
                              "carries one transfer at a time, channels are full duplex)", path);
        rc = -1;
    }
    return rc;
}
