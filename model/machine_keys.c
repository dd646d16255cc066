/* The table of a machine file's keys, what each kind of value accepts, and the choice
 * of the collective algorithm set among the values of the key mpi. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine_keys.h"
#include "units.h"

static const char *const networks[] = { "bus", "channels", "switch" };
static const char *const costs[] = { "hockney", "packet" };
static const char *const progress[] = { "background", "in_calls" };
static const char *const places[] = { "block", "cyclic" };
static const char *const mpis[] = { "mpich1", "mpich-1.2.5", "mpich4", "openmpi4" };
static const char *const queues[] = { "sender", "switch" };
static const char *const holds[] = { "message", "bytes" };

#define KEY(member, type) \
    .name = #member, .kind = PZ_KIND_##type, .offset = offsetof(struct pz_machine, member)
/* A key whose field is not named like the key: a member of a struct of fields. */
#define KEY_AT(key, member, type) \
    .name = key, .kind = PZ_KIND_##type, .offset = offsetof(struct pz_machine, member), .quiet = 1
#define WORDS(list) .words = list, .nwords = (int)(sizeof(list) / sizeof(list[0]))

/* Defaults are written in the units whose factor is 1, so that parsing them gives the
 * same doubles as the literals (50e-6 s, not 50us: 50 x 1e-6 is not 50e-6). */
const struct pz_key_def pz_machine_keys[PZ_NKEYS] = {
    [PZ_KEY_NAME] = { KEY(name, NAME), .fallback = "unnamed" },
    [PZ_KEY_NETWORK] = { KEY(network, WORD), WORDS(networks), .fallback = "switch",
                         .summary = "network %s" },
    [PZ_KEY_CHANNELS] = { KEY(channels, COUNT), .fallback = "1" },
    [PZ_KEY_COST_MODEL] = { KEY(cost_model, WORD), WORDS(costs), .fallback = "hockney" },
    [PZ_KEY_LATENCY] = { KEY(latency, TIME), .fallback = "50e-6 s",
                         .summary = "latency %s us", .times = 1e6 },
    [PZ_KEY_LATENCY_PER_BYTE] = { KEY(latency_per_byte, TIME), .fallback = "0 s" },
    [PZ_KEY_BANDWIDTH] = { KEY(bandwidth, BANDWIDTH), .fallback = "125e6 B/s",
                           .summary = "bandwidth %s MB/s", .per = 1e6 },
    [PZ_KEY_PACKET_SIZE] = { KEY(packet_size, BYTES), .fallback = "1500 B" },
    [PZ_KEY_PACKET_HEADER] = { KEY(packet_header, BYTES), .fallback = "78 B" },
    [PZ_KEY_EAGER_THRESHOLD] = { KEY(eager_threshold, BYTES), .fallback = "65536 B",
                                 .summary = "eager up to %s B" },
    [PZ_KEY_RENDEZVOUS_OVERHEAD] = { KEY(rendezvous_overhead, TIME), .fallback = "0 s" },
    [PZ_KEY_PROGRESS] = { KEY(progress, WORD), WORDS(progress), .fallback = "background",
                          .summary = "progress in calls", .unless_default = 1 },
    [PZ_KEY_DUPLEX_FACTOR] = { KEY(duplex_factor, DUPLEX), .fallback = "1",
                               .summary = "duplex_factor %s", .unless_default = 1 },
    [PZ_KEY_PROCS_PER_NODE] = { KEY(procs_per_node, COUNT), .fallback = "1",
                                .summary = "%s process per node",
                                .plural = "%s processes per node" },
    [PZ_KEY_PLACEMENT] = { KEY(placement, WORD), WORDS(places), .fallback = "block" },
    [PZ_KEY_SHM_LATENCY] = { KEY(shm_latency, TIME), .fallback = "1e-6 s" },
    [PZ_KEY_SHM_BANDWIDTH] = { KEY(shm_bandwidth, BANDWIDTH), .fallback = "5e9 B/s" },
    [PZ_KEY_CPU_SCALE] = { KEY(cpu_scale, FACTOR), .fallback = "1",
                           .summary = "cpu_scale %s" },
    [PZ_KEY_MPI] = { KEY(mpi, MPI), WORDS(mpis), .fallback = "mpich4", .summary = "MPI %s" },
    [PZ_KEY_REDUCE_BYTE_TIME] = { KEY(reduce_byte_time, TIME), .fallback = "0 s" },
    [PZ_KEY_NODE_MAP] = { KEY(node_map, NODE_MAP) },
    [PZ_KEY_SEGMENTS] = { KEY_AT("segments", segments, SEGMENTS),
                          .summary = "%s size segments", .unless_default = 1 },
    [PZ_KEY_SHM_SEGMENTS] = { KEY_AT("shm_segments", shm_segments, SEGMENTS) },
    [PZ_KEY_SEND_OVERHEAD] = { KEY_AT("send_overhead", overhead.send, TIME),
                               .summary = "send overhead %s us", .times = 1e6,
                               .unless_default = 1 },
    [PZ_KEY_SEND_OVERHEAD_PER_BYTE] = { KEY_AT("send_overhead_per_byte",
                                               overhead.send_per_byte, TIME) },
    [PZ_KEY_RECV_OVERHEAD] = { KEY_AT("recv_overhead", overhead.recv, TIME),
                               .summary = "receive overhead %s us", .times = 1e6,
                               .unless_default = 1 },
    [PZ_KEY_RECV_OVERHEAD_PER_BYTE] = { KEY_AT("recv_overhead_per_byte",
                                               overhead.recv_per_byte, TIME) },
    [PZ_KEY_SHM_SEND_OVERHEAD] = { KEY_AT("shm_send_overhead", shm_overhead.send, TIME) },
    [PZ_KEY_SHM_SEND_OVERHEAD_PER_BYTE] = { KEY_AT("shm_send_overhead_per_byte",
                                                   shm_overhead.send_per_byte, TIME) },
    [PZ_KEY_SHM_RECV_OVERHEAD] = { KEY_AT("shm_recv_overhead", shm_overhead.recv, TIME) },
    [PZ_KEY_SHM_RECV_OVERHEAD_PER_BYTE] = { KEY_AT("shm_recv_overhead_per_byte",
                                                   shm_overhead.recv_per_byte, TIME) },
    [PZ_KEY_IO_SCALE] = { KEY(io_scale, FACTOR), .fallback = "1", .quiet = 1 },
    [PZ_KEY_RESUME_OVERHEAD] = { KEY_AT("resume_overhead", resume_overhead, TIME) },
    [PZ_KEY_SHM_RESUME_OVERHEAD] = { KEY_AT("shm_resume_overhead", shm_resume_overhead,
                                            TIME) },
    [PZ_KEY_RESUME_AFTER] = { KEY_AT("resume_after", resume_after, TIME) },
    [PZ_KEY_DUPLEX_OVERHEAD] = { KEY_AT("duplex_overhead", duplex_overhead, TIME) },
    [PZ_KEY_SEND_TAIL] = { KEY_AT("send_tail", send_tail, TIME) },
    [PZ_KEY_SEND_TAIL_PER_BYTE] = { KEY_AT("send_tail_per_byte", send_tail_per_byte, TIME) },
    [PZ_KEY_COLLECTIVE_OVERHEAD] = { KEY_AT("collective_overhead", collective_overhead, TIME) },
    [PZ_KEY_SELF_SEGMENTS] = { KEY_AT("self_segments", self_segments, SEGMENTS) },
    [PZ_KEY_COPY_SEGMENTS] = { KEY_AT("copy_segments", copy_segments, SEGMENTS) },
    [PZ_KEY_DUPLEX_FACTORS] = { KEY_AT("duplex_factors", duplex_factors, FACTORS),
                                .summary = "duplex factors by size",
                                .unless_default = 1 },
    [PZ_KEY_RENDEZVOUS_FIRST_FRAGMENT] = { KEY_AT("rendezvous_first_fragment",
                                                  rendezvous_first_fragment, BYTES),
                                           .summary = "rendezvous first fragment %s B",
                                           .unless_default = 1 },
    [PZ_KEY_SWITCH_QUEUE] = { KEY(switch_queue, WORD), WORDS(queues), .fallback = "sender",
                              .quiet = 1, .summary = "messages queued in the switch",
                              .unless_default = 1 },
    [PZ_KEY_LINK_HOLD] = { KEY(link_hold, WORD), WORDS(holds), .fallback = "message",
                           .quiet = 1, .summary = "links held for the %s",
                           .unless_default = 1 },
    [PZ_KEY_LINK_GAP] = { KEY_AT("link_gap", link_gap, TIME), .summary = "link gap %s us",
                          .times = 1e6, .unless_default = 1 },
};

const char *pz_machine_key_name(enum pz_machine_key key)
{
    return pz_machine_keys[key].name;
}

static const void *field_of(const struct pz_machine *m, const struct pz_key_def *k)
{
    return (const char *)m + k->offset;
}

const char *pz_machine_word(const struct pz_machine *m, enum pz_machine_key key)
{
    const struct pz_key_def *k = &pz_machine_keys[key];

    if (k->kind == PZ_KIND_MPI)
        return m->mpi;
    return k->kind == PZ_KIND_WORD && pz_key_fits(m, k) ? k->words[*(const int *)field_of(m, k)]
                                                        : NULL;
}

double pz_key_number(const struct pz_machine *m, const struct pz_key_def *k)
{
    if (k->kind == PZ_KIND_COUNT || k->kind == PZ_KIND_WORD)
        return *(const int *)field_of(m, k);
    if (k->kind == PZ_KIND_SEGMENTS)
        return ((const struct pz_segments *)field_of(m, k))->n;
    if (k->kind == PZ_KIND_FACTORS)
        return ((const struct pz_size_factors *)field_of(m, k))->n;
    return *(const double *)field_of(m, k);
}

/* The number of value among k's words; -1 if it is none of them. */
static int word_number(const struct pz_key_def *k, const char *value)
{
    for (int i = 0; i < k->nwords; i++)
        if (!strcmp(value, k->words[i]))
            return i;
    return -1;
}

/* Whether the machine file's parser reads back the name exactly: it trims blanks, cuts
 * at '#' and reads one line of at most 127 bytes. */
static int name_fits(const char *name)
{
    size_t len = strlen(name);

    if (!len || len >= sizeof(((struct pz_machine *)0)->name) || strpbrk(name, "#\n\r"))
        return 0;
    return !strchr(" \t\v\f", name[0]) && !strchr(" \t\v\f", name[len - 1]);
}

/* The physical range of each kind of number, and how an error message says it.  Every
 * bound keeps predicted times far below the replay clock's 2^63 ns (292 years) for any
 * sane trace: a message costs at most a few latencies of 1000 s plus its bytes over a
 * bandwidth of at least 1 B/s.  A huge bandwidth only makes communication free (an
 * ideal machine says 1.7e308B/s), and a tiny CPU factor free computation, so those
 * directions are not bounded. */
static const struct {
    double min, max;
    int above_min;     /* min itself is out of range */
    const char *says;
} ranges[] = {
    [PZ_KIND_TIME] = { 0, 1e3, 0, "a time between 0s and 1000s" },
    [PZ_KIND_BANDWIDTH] = { 1, DBL_MAX, 0, "a bandwidth of at least 1B/s" },
    [PZ_KIND_BYTES] = { 0, 9007199254740992.0, 0, "a size between 0B and 2^53B" },
    [PZ_KIND_COUNT] = { 1, 1000000, 0, "a whole number from 1 to 1000000" },
    [PZ_KIND_FACTOR] = { 0, 1e6, 1, "a number above 0 and at most 1e6" },
    [PZ_KIND_DUPLEX] = { 1, 2, 0, "a number from 1 (full duplex) to 2 (half duplex)" },
};

/* (The parser of quantities refuses infinite numbers itself.) */
int pz_kind_fits(enum pz_key_kind kind, double v)
{
    if (kind > PZ_KIND_DUPLEX || !(v <= ranges[kind].max))
        return 0;
    return ranges[kind].above_min ? v > ranges[kind].min : v >= ranges[kind].min;
}

const char *pz_kind_range(enum pz_key_kind kind)
{
    return kind <= PZ_KIND_DUPLEX ? ranges[kind].says : "";
}

int pz_key_fits(const struct pz_machine *m, const struct pz_key_def *k)
{
    switch (k->kind) {
    case PZ_KIND_NAME:
        return name_fits(m->name);
    case PZ_KIND_MPI:
        return word_number(k, m->mpi) >= 0;
    case PZ_KIND_WORD:
        return (unsigned)*(const int *)field_of(m, k) < (unsigned)k->nwords;
    case PZ_KIND_NODE_MAP:
        return 1;
    case PZ_KIND_SEGMENTS:
        return pz_segments_fit(field_of(m, k));
    case PZ_KIND_FACTORS:
        return pz_factors_fit(field_of(m, k));
    default:
        return isfinite(pz_key_number(m, k)) && pz_kind_fits(k->kind, pz_key_number(m, k));
    }
}

/* Parses value as a number of kind into *v; 0 or -1. */
static int parse_number(enum pz_key_kind kind, const char *value, double *v)
{
    char *end;

    switch (kind) {
    case PZ_KIND_TIME:
        return pz_parse_time(value, v);
    case PZ_KIND_BANDWIDTH:
        return pz_parse_bandwidth(value, v);
    case PZ_KIND_BYTES:
        return pz_parse_bytes(value, v);
    case PZ_KIND_COUNT:
        *v = (double)strtol(value, &end, 10);
        return end == value || *end ? -1 : 0;
    default:
        *v = strtod(value, &end);
        return end == value || *end ? -1 : 0;
    }
}

int pz_machine_set_mpi(struct pz_machine *m, const char *set)
{
    const struct pz_key_def *k = &pz_machine_keys[PZ_KEY_MPI];

    for (int i = 0; i < k->nwords; i++) {
        if (!strcmp(set, k->words[i])) {
            snprintf(m->mpi, sizeof(m->mpi), "%s", set);
            return 0;
        }
    }
    return -1;
}

/* Stores value into m; 0, or -1 if k does not take it (*out_of_range set if value is a
 * number of k's kind outside its range). */
static int store(struct pz_machine *m, const struct pz_key_def *k, const char *value,
                 int *out_of_range)
{
    void *field = (char *)m + k->offset;
    double v;
    int w;

    switch (k->kind) {
    case PZ_KIND_NAME:
        if (!*value || strlen(value) >= sizeof(m->name))
            return -1;
        strcpy(m->name, value);
        return 0;
    case PZ_KIND_MPI:
        return pz_machine_set_mpi(m, value);
    case PZ_KIND_WORD:
        if ((w = word_number(k, value)) < 0)
            return -1;
        *(int *)field = w;
        return 0;
    case PZ_KIND_NODE_MAP:
        return -1;
    default:
        if (parse_number(k->kind, value, &v) != 0)
            return -1;
        if (!pz_kind_fits(k->kind, v)) {
            *out_of_range = 1;
            return -1;
        }
        if (k->kind == PZ_KIND_COUNT)
            *(int *)field = (int)v;
        else
            *(double *)field = v;
        return 0;
    }
}

/* What a value of k must be, into buf: "a time such as ...", "bus, channels or switch". */
static const char *expected(const struct pz_key_def *k, char *buf, size_t len)
{
    static const char *const kinds[] = {
        [PZ_KIND_TIME] = "a time such as 50us, 1.5ms or 0s",
        [PZ_KIND_BANDWIDTH] = "a bandwidth such as 12.5MB/s or 1Gbit/s",
        [PZ_KIND_BYTES] = "a size such as 1500B, 64KiB or 0",
        [PZ_KIND_COUNT] = "a whole number of at least 1",
        [PZ_KIND_FACTOR] = "a positive number",
        [PZ_KIND_DUPLEX] = "a number from 1 (full duplex) to 2 (half duplex)",
        [PZ_KIND_NAME] = "a name",
    };
    size_t used = 0;

    if (k->kind != PZ_KIND_WORD && k->kind != PZ_KIND_MPI)
        return kinds[k->kind];
    for (int i = 0; i < k->nwords && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                 !i ? "" : i + 1 < k->nwords ? ", " : " or ", k->words[i]);
    return buf;
}

int pz_key_store(struct pz_machine *m, const struct pz_key_def *k, const char *path,
                 const char *value, char *why, size_t len)
{
    char words[256];
    int out_of_range = 0;

    if (k->kind == PZ_KIND_NODE_MAP)
        return pz_node_map_load(m, path, value, why, len);
    if (k->kind == PZ_KIND_SEGMENTS || k->kind == PZ_KIND_FACTORS) {
        size_t used = (size_t)snprintf(why, len, "%s = '%s': ", k->name, value);
        char *rest = why + (used < len ? used : len - 1);
        size_t left = used < len ? len - used : 1;
        struct pz_segments s;
        struct pz_size_factors f;
        int rc = k->kind == PZ_KIND_SEGMENTS ? pz_segments_parse(value, &s, rest, left)
                                             : pz_factors_parse(value, &f, rest, left);

        if (rc == 0 && k->kind == PZ_KIND_SEGMENTS)   /* m changes only when all of it parsed */
            *(struct pz_segments *)((char *)m + k->offset) = s;
        else if (rc == 0)
            *(struct pz_size_factors *)((char *)m + k->offset) = f;
        return rc;
    }
    if (store(m, k, value, &out_of_range) == 0)
        return 0;
    snprintf(why, len, "%s = '%s': expected %s", k->name, value,
             out_of_range ? ranges[k->kind].says : expected(k, words, sizeof(words)));
    return -1;
}

int pz_key_packet_fits(const struct pz_machine *m)
{
    return !(m->cost_model == PZ_COST_PACKET && m->packet_header >= m->packet_size);
}

int pz_key_duplex_fits(const struct pz_machine *m)
{
    return (m->duplex_factor == 1 && m->duplex_factors.n == 0) || m->network == PZ_NET_SWITCH;
}

int pz_key_gap_fits(const struct pz_machine *m)
{
    return m->link_gap == 0 || m->link_hold == PZ_HOLD_BYTES;
}
