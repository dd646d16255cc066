/* Machine files written back: every key of docs/machines.md, so that pz_machine_load
 * reads exactly the values written.  Numbers are printed with the fewest significant
 * digits that strtod turns back into the same double (17 at most, %.17g), and in the
 * units whose factor is 1 (s, B, B/s), so that parsing multiplies by 1.0 exactly. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"

/* The shortest %.Ng of v that reads back as v, into buf; whole numbers below 2^53
 * without an exponent. */
static void exact(char *buf, size_t len, double v)
{
    if (v == floor(v) && fabs(v) < 9007199254740992.0) {
        snprintf(buf, len, "%.0f", v);
        return;
    }
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return;
    }
    snprintf(buf, len, "%.17g", v);
}

/* Whether the machine file's parser can read back the name exactly: it trims blanks,
 * cuts at '#' and reads one line. */
static int name_fits(const char *name)
{
    size_t len = strlen(name);

    if (!len || strpbrk(name, "#\n\r"))
        return 0;
    return !strchr(" \t\v\f", name[0]) && !strchr(" \t\v\f", name[len - 1]);
}

/* Whether every value is one the parser accepts: numbers finite and not negative,
 * a duplex factor from 1 to 2 (1 unless the network is a switch),
 * bandwidths and cpu_scale above 0, counts of at least 1, words from their lists, and
 * a packet header smaller than the packet for the packet model. */
static int values_fit(const struct pz_machine *m)
{
    const double times_sizes[] = { m->latency, m->latency_per_byte, m->packet_size,
                                   m->packet_header, m->eager_threshold,
                                   m->rendezvous_overhead, m->shm_latency,
                                   m->reduce_byte_time };

    for (size_t i = 0; i < sizeof(times_sizes) / sizeof(times_sizes[0]); i++)
        if (!isfinite(times_sizes[i]) || times_sizes[i] < 0)
            return 0;
    return isfinite(m->bandwidth) && m->bandwidth > 0 && isfinite(m->shm_bandwidth) &&
           m->shm_bandwidth > 0 && isfinite(m->cpu_scale) && m->cpu_scale > 0 &&
           m->channels >= 1 && m->channels <= 1000000 && m->procs_per_node >= 1 &&
           m->procs_per_node <= 1000000 && (unsigned)m->network <= PZ_NET_SWITCH &&
           (unsigned)m->cost_model <= PZ_COST_PACKET &&
           (unsigned)m->placement <= PZ_PLACE_CYCLIC &&
           (unsigned)m->progress <= PZ_PROGRESS_IN_CALLS && m->duplex_factor >= 1 &&
           m->duplex_factor <= 2 && (m->duplex_factor == 1 || m->network == PZ_NET_SWITCH) &&
           !(m->cost_model == PZ_COST_PACKET && m->packet_header >= m->packet_size);
}

static int put_note(FILE *f, const char *key,
                    const char *(*note)(const char *key, void *arg), void *arg)
{
    const char *text = note ? note(key, arg) : NULL, *end;

    while (text && *text) {
        end = strchr(text, '\n');
        if (!end)
            end = text + strlen(text);
        if (fprintf(f, "# %.*s\n", (int)(end - text), text) < 0)
            return -1;
        text = *end ? end + 1 : end;
    }
    return 0;
}

/* key = VALUE UNIT (unit may be ""), after the key's note. */
static int put_number(FILE *f, const char *key, double v, const char *unit,
                      const char *(*note)(const char *, void *), void *arg)
{
    char num[64];

    exact(num, sizeof(num), v);
    if (put_note(f, key, note, arg) != 0)
        return -1;
    return fprintf(f, "%s = %s%s%s\n", key, num, *unit ? " " : "", unit) < 0 ? -1 : 0;
}

static int put_count(FILE *f, const char *key, int n,
                     const char *(*note)(const char *, void *), void *arg)
{
    if (put_note(f, key, note, arg) != 0)
        return -1;
    return fprintf(f, "%s = %d\n", key, n) < 0 ? -1 : 0;
}

static int put_word(FILE *f, const char *key, const char *word,
                    const char *(*note)(const char *, void *), void *arg)
{
    if (put_note(f, key, note, arg) != 0)
        return -1;
    return fprintf(f, "%s = %s\n", key, word) < 0 ? -1 : 0;
}

int pz_machine_write_notes(FILE *f, const struct pz_machine *m,
                           const char *(*note)(const char *key, void *arg), void *arg)
{
    static const char *const networks[] = { "bus", "channels", "switch" };
    static const char *const costs[] = { "hockney", "packet" };
    static const char *const places[] = { "block", "cyclic" };
    static const char *const progress[] = { "background", "in_calls" };
    struct pz_machine check;

    if (!name_fits(m->name) || m->node_map || !values_fit(m) ||
        pz_machine_set_mpi(&check, m->mpi) != 0) {
        errno = EINVAL;
        return -1;
    }
    if (put_word(f, "name", m->name, note, arg) ||
        put_word(f, "network", networks[m->network], note, arg) ||
        put_count(f, "channels", m->channels, note, arg) ||
        put_word(f, "cost_model", costs[m->cost_model], note, arg) ||
        put_number(f, "latency", m->latency, "s", note, arg) ||
        put_number(f, "latency_per_byte", m->latency_per_byte, "s", note, arg) ||
        put_number(f, "bandwidth", m->bandwidth, "B/s", note, arg) ||
        put_number(f, "packet_size", m->packet_size, "B", note, arg) ||
        put_number(f, "packet_header", m->packet_header, "B", note, arg) ||
        put_number(f, "eager_threshold", m->eager_threshold, "B", note, arg) ||
        put_number(f, "rendezvous_overhead", m->rendezvous_overhead, "s", note, arg) ||
        put_word(f, "progress", progress[m->progress], note, arg) ||
        put_number(f, "duplex_factor", m->duplex_factor, "", note, arg) ||
        put_count(f, "procs_per_node", m->procs_per_node, note, arg) ||
        put_word(f, "placement", places[m->placement], note, arg) ||
        put_number(f, "shm_latency", m->shm_latency, "s", note, arg) ||
        put_number(f, "shm_bandwidth", m->shm_bandwidth, "B/s", note, arg) ||
        put_number(f, "cpu_scale", m->cpu_scale, "", note, arg) ||
        put_word(f, "mpi", m->mpi, note, arg) ||
        put_number(f, "reduce_byte_time", m->reduce_byte_time, "s", note, arg))
        return -1;
    return ferror(f) ? -1 : 0;
}

int pz_machine_write(FILE *f, const struct pz_machine *m)
{
    return pz_machine_write_notes(f, m, NULL, NULL);
}
