/* Machine files, units and message costs, with values computed by hand. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cost.h"
#include "machine.h"
#include "units.h"

#define EPS 1e-12

Test(units, times)
{
    double s;

    cr_assert_eq(pz_parse_time("50us", &s), 0);
    cr_assert_float_eq(s, 50e-6, EPS);
    cr_assert_eq(pz_parse_time("1.5 ms", &s), 0);
    cr_assert_float_eq(s, 1.5e-3, EPS);
    cr_assert_eq(pz_parse_time("0s", &s), 0);
    cr_assert_float_eq(s, 0, EPS);
    cr_assert_eq(pz_parse_time("7ns", &s), 0);
    cr_assert_float_eq(s, 7e-9, EPS);
    cr_assert_eq(pz_parse_time("50", &s), -1, "a time needs a unit");
    cr_assert_eq(pz_parse_time("50 sec", &s), -1);
    cr_assert_eq(pz_parse_time("-1us", &s), -1);
    cr_assert_eq(pz_parse_time("us", &s), -1);
    cr_assert_eq(pz_parse_time("inf s", &s), -1, "an infinite time is refused");
}

Test(units, bandwidths)
{
    double b;

    cr_assert_eq(pz_parse_bandwidth("12.5MB/s", &b), 0);
    cr_assert_float_eq(b, 12.5e6, 1e-3);
    cr_assert_eq(pz_parse_bandwidth("100Mbit/s", &b), 0);
    cr_assert_float_eq(b, 12.5e6, 1e-3, "100 Mbit is 12.5 MB");
    cr_assert_eq(pz_parse_bandwidth("inf B/s", &b), -1, "an infinite bandwidth is refused");
    cr_assert_eq(pz_parse_bandwidth("1e308GB/s", &b), -1, "so is one too large for a double");
    cr_assert_eq(pz_parse_bandwidth("1e290GB/s", &b), 0);
    cr_assert_eq(pz_parse_bandwidth("1Gbit/s", &b), 0);
    cr_assert_float_eq(b, 125e6, 1e-3);
    cr_assert_eq(pz_parse_bandwidth("2 GiB/s", &b), 0);
    cr_assert_float_eq(b, 2147483648.0, 1e-3);
    cr_assert_eq(pz_parse_bandwidth("12.5MB", &b), -1, "a rate needs /s");
    cr_assert_eq(pz_parse_bandwidth("12.5XB/s", &b), -1);
}

Test(units, sizes)
{
    double v;

    cr_assert_eq(pz_parse_bytes("64KiB", &v), 0);
    cr_assert_float_eq(v, 65536, EPS);
    cr_assert_eq(pz_parse_bytes("1500B", &v), 0);
    cr_assert_float_eq(v, 1500, EPS);
    cr_assert_eq(pz_parse_bytes("4KB", &v), 0);
    cr_assert_float_eq(v, 4000, EPS);
    cr_assert_eq(pz_parse_bytes("128", &v), 0, "plain bytes");
    cr_assert_float_eq(v, 128, EPS);
    cr_assert_eq(pz_parse_bytes("12 parsecs", &v), -1);
}

static char path[64];

static const char *write_file(const char *text)
{
    int fd;
    FILE *f;

    snprintf(path, sizeof(path), "/tmp/prognoz-machine-XXXXXX");
    fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static void load_fails(const char *text, const char *why)
{
    struct pz_machine m;
    char err[512], want[700];

    pz_machine_defaults(&m);
    cr_assert_eq(pz_machine_load(write_file(text), &m, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s:%s", path, why);
    cr_assert_str_eq(err, want);
    unlink(path);
}

/* m as write writes it, which must succeed (to free). */
static char *written_by(int (*write)(FILE *, const struct pz_machine *),
                        const struct pz_machine *m)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    cr_assert_eq(write(f, m), 0);
    fclose(f);
    return text;
}

/* m's machine file, as pz_machine_write writes it (to free). */
static char *file_text_of(const struct pz_machine *m)
{
    return written_by(pz_machine_write, m);
}

/* m written to a file and loaded back into *back (from the defaults). */
static void read_back(const struct pz_machine *m, struct pz_machine *back)
{
    char err[512];
    FILE *f;

    snprintf(path, sizeof(path), "/tmp/prognoz-machine-XXXXXX");
    f = fdopen(mkstemp(path), "w");
    cr_assert_eq(pz_machine_write(f, m), 0);
    fclose(f);
    pz_machine_defaults(back);
    cr_assert_eq(pz_machine_load(path, back, err, sizeof(err)), 0, "%s", err);
    unlink(path);
}

Test(machine, every_key_with_units_and_comments)
{
    struct pz_machine m;
    char err[512];

    pz_machine_defaults(&m);
    cr_assert_eq(pz_machine_load(write_file("# a Myrinet-like cluster\n"
                                            "name = myri\n"
                                            "network = channels   # four at once\n"
                                            "channels = 4\n\n"
                                            "cost_model = packet\n"
                                            "latency = 10us\n"
                                            "latency_per_byte = 2ns\n"
                                            "bandwidth = 250MB/s\n"
                                            "packet_size = 4KiB\n"
                                            "packet_header = 64B\n"
                                            "eager_threshold = 32KiB\n"
                                            "progress = in_calls\n"
                                            "procs_per_node = 2\n"
                                            "placement = cyclic\n"
                                            "shm_latency = 500ns\n"
                                            "shm_bandwidth = 2GB/s\n"
                                            "cpu_scale = 0.5\n"
                                            "mpi = mpich-1.2.5\n"
                                            "reduce_byte_time = 1ns\n"),
                                 &m, err, sizeof(err)), 0, "%s", err);
    unlink(path);
    cr_assert_str_eq(m.name, "myri");
    cr_assert_eq(m.network, PZ_NET_CHANNELS);
    cr_assert_eq(m.channels, 4);
    cr_assert_eq(m.cost_model, PZ_COST_PACKET);
    cr_assert_float_eq(m.latency, 10e-6, EPS);
    cr_assert_float_eq(m.latency_per_byte, 2e-9, EPS);
    cr_assert_float_eq(m.bandwidth, 250e6, 1e-3);
    cr_assert_float_eq(m.packet_size, 4096, EPS);
    cr_assert_float_eq(m.packet_header, 64, EPS);
    cr_assert_float_eq(m.eager_threshold, 32768, EPS);
    cr_assert_eq(m.progress, PZ_PROGRESS_IN_CALLS);
    cr_assert_eq(m.procs_per_node, 2);
    cr_assert_eq(m.placement, PZ_PLACE_CYCLIC);
    cr_assert_float_eq(m.shm_latency, 500e-9, EPS);
    cr_assert_float_eq(m.shm_bandwidth, 2e9, 1e-3);
    cr_assert_float_eq(m.cpu_scale, 0.5, EPS);
    cr_assert_str_eq(m.mpi, "mpich-1.2.5");
    cr_assert_float_eq(m.reduce_byte_time, 1e-9, EPS);
}

Test(machine, mistakes_name_file_line_and_what_was_expected)
{
    load_fails("name = x\nlatancy = 5us\n",
               "2: unknown key 'latancy' (docs/machines.md lists the keys)");
    load_fails("\n\nlatency = 5 furlongs\n",
               "3: latency = '5 furlongs': expected a time such as 50us, 1.5ms or 0s");
    load_fails("bandwidth = 100Mbit\n",
               "1: bandwidth = '100Mbit': expected a bandwidth such as 12.5MB/s or 1Gbit/s");
    load_fails("network = ring\n", "1: network = 'ring': expected bus, channels or switch");
    load_fails("progress = eventually\n",
               "1: progress = 'eventually': expected background or in_calls");
    load_fails("procs_per_node = 0\n",
               "1: procs_per_node = '0': expected a whole number from 1 to 1000000");
    load_fails("procs_per_node = x\n",
               "1: procs_per_node = 'x': expected a whole number of at least 1");
    /* each number has a physical range, so that predicted times stay far from the
     * replay clock's limit */
    load_fails("latency = 1e300s\n", "1: latency = '1e300s': expected a time between 0s and "
               "1000s");
    load_fails("latency = 1001s\n", "1: latency = '1001s': expected a time between 0s and "
               "1000s");
    load_fails("cpu_scale = 1e30\n", "1: cpu_scale = '1e30': expected a number above 0 and at "
               "most 1e6");
    load_fails("cpu_scale = 0\n", "1: cpu_scale = '0': expected a number above 0 and at most "
               "1e6");
    load_fails("bandwidth = 1e-300B/s\n", "1: bandwidth = '1e-300B/s': expected a bandwidth "
               "of at least 1B/s");
    load_fails("shm_bandwidth = 0.5B/s\n", "1: shm_bandwidth = '0.5B/s': expected a "
               "bandwidth of at least 1B/s");
    load_fails("eager_threshold = 1e20B\n", "1: eager_threshold = '1e20B': expected a size "
               "between 0B and 2^53B");
    load_fails("channels = 1000001\n", "1: channels = '1000001': expected a whole number "
               "from 1 to 1000000");
    load_fails("just words\n", "1: expected 'key = value'");
    load_fails("duplex_factor = 2.5\n",
               "1: duplex_factor = '2.5': expected a number from 1 (full duplex) to 2 (half "
               "duplex)");
    load_fails("network = bus\nduplex_factor = 1.5\n",
               " duplex_factor and duplex_factors apply to network = switch only (a bus carries one transfer "
               "at a time, channels are full duplex)");
}

Test(machine, a_switch_with_a_duplex_factor)
{
    struct pz_machine m;
    char err[512];

    pz_machine_defaults(&m);
    cr_assert_float_eq(m.duplex_factor, 1.0, EPS, "full duplex by default");
    cr_assert_eq(pz_machine_load(write_file("network = switch\nduplex_factor = 1.65\n"), &m,
                                 err, sizeof(err)), 0, "%s", err);
    unlink(path);
    cr_assert_float_eq(m.duplex_factor, 1.65, EPS);
}

Test(machine, a_missing_file_is_named)
{
    struct pz_machine m;
    char err[512];

    pz_machine_defaults(&m);
    cr_assert_eq(pz_machine_load("/nonexistent/m.conf", &m, err, sizeof(err)), -1);
    cr_assert_str_eq(err, "/nonexistent/m.conf: No such file or directory");
}

/* Hockney, 100 Mbit Ethernet: 50 us + 1250 B / 12.5 MB/s = 50 + 100 us. */
Test(cost, hockney)
{
    struct pz_machine m;

    pz_machine_defaults(&m);
    m.latency = 50e-6;
    m.bandwidth = 12.5e6;
    cr_assert_float_eq(pz_message_time(&m, 1250), 150e-6, EPS);
    cr_assert_float_eq(pz_message_time(&m, 0), 50e-6, EPS);
}

/* The packet model of 002 with V_max 1500, V_c 78 (payload 1422 per packet),
 * t0 100 us, t1 0.01 us/B, t_k 0.08 us/B (12.5 MB/s):
 *   1000 B, one packet:    100 + 1000 x 0.01 + (1000 + 78) x 0.08     = 196.24 us
 *   3000 B, ceil(3000/1422) = 3 packets:
 *                          100 + 1422 x 0.01 + (3000 + 3 x 78) x 0.08 = 372.94 us
 *   0 B, one packet:       100 + 0 + 78 x 0.08                        = 106.24 us */
Test(cost, packet_model_of_002)
{
    struct pz_machine m;

    pz_machine_defaults(&m);
    m.cost_model = PZ_COST_PACKET;
    m.latency = 100e-6;
    m.latency_per_byte = 0.01e-6;
    m.bandwidth = 12.5e6;
    m.packet_size = 1500;
    m.packet_header = 78;
    cr_assert_float_eq(pz_message_time(&m, 1000), 196.24e-6, 1e-12);
    cr_assert_float_eq(pz_message_time(&m, 3000), 372.94e-6, 1e-12);
    cr_assert_float_eq(pz_message_time(&m, 0), 106.24e-6, 1e-12);
    cr_assert_float_eq(pz_message_time(&m, 1422), 100e-6 + 14.22e-6 + 1500 * 0.08e-6, 1e-12,
                       "exactly one full packet");
}

/* A collective's local copy by copy_segments of 1 us + bytes / 1 GB/s up to 1000 B and
 * 0 + bytes / 100 MB/s beyond (the last segment for any larger copy):
 *   500 B:    1 us + 500 / 1e9 s = 1.5 us
 *   2e6 B:    2e6 / 1e8 s = 20 ms (beyond the last bound of 1e6 B: the last segment)
 *   0 B:      nothing copied, 0
 * and without copy_segments, 0 at any size (the copy not modelled). */
Test(cost, a_local_copy_by_the_copy_segments)
{
    struct pz_machine m;

    pz_machine_defaults(&m);
    cr_assert_eq(pz_copy_time(&m, 4194304), 0);
    m.copy_segments = (struct pz_segments){ 2, { { 1000, 1e-6, 1e9 }, { 1e6, 0, 1e8 } } };
    cr_assert_float_eq(pz_copy_time(&m, 500), 1.5e-6, EPS);
    cr_assert_float_eq(pz_copy_time(&m, 2e6), 20e-3, EPS);
    cr_assert_eq(pz_copy_time(&m, 0), 0);
}

/* 6 processes, 4 per node: block gives nodes 0 0 0 0 1 1, cyclic 0 1 0 1 0 1. */
Test(cost, placement)
{
    struct pz_machine m;
    const int block[6] = { 0, 0, 0, 0, 1, 1 }, cyclic[6] = { 0, 1, 0, 1, 0, 1 };

    pz_machine_defaults(&m);
    m.procs_per_node = 4;
    cr_assert_eq(pz_nodes_for(&m, 6), 2);
    for (int r = 0; r < 6; r++)
        cr_assert_eq(pz_node_of(&m, r, 6), block[r], "block, rank %d", r);
    m.placement = PZ_PLACE_CYCLIC;
    for (int r = 0; r < 6; r++)
        cr_assert_eq(pz_node_of(&m, r, 6), cyclic[r], "cyclic, rank %d", r);
}

/* The machine files prognoz ships load, and say what their comments say. */
Test(machine, the_shipped_machines_load)
{
    static const struct {
        const char *file;
        enum pz_network_kind network;
        int procs_per_node;
        enum pz_switch_queue switch_queue;   /* Ethernet's switch stores and forwards */
        enum pz_link_hold link_hold;   /* a gigabit switch's wire: the bytes alone */
        double one_way;                /* s: an empty message's, overheads included */
    } shipped[] = {
        { "ethernet-100-hub.conf", PZ_NET_BUS, 1, PZ_QUEUE_SENDER, PZ_HOLD_MESSAGE,
          90e-6 + 78 / 12.5e6 },   /* and its one packet's header */
        { "gigabit-switch.conf", PZ_NET_SWITCH, 2, PZ_QUEUE_SWITCH, PZ_HOLD_BYTES, 30e-6 },
        { "myrinet-2proc.conf", PZ_NET_CHANNELS, 2, PZ_QUEUE_SENDER, PZ_HOLD_MESSAGE, 7e-6 },
    };
    const char *top = getenv("PZ_TOP_SRCDIR");

    cr_assert(top, "PZ_TOP_SRCDIR is set by make check");
    for (size_t i = 0; i < sizeof(shipped) / sizeof(shipped[0]); i++) {
        struct pz_machine m;
        char file[4096], err[512];

        snprintf(file, sizeof(file), "%s/share/machines/%s", top, shipped[i].file);
        pz_machine_defaults(&m);
        cr_assert_eq(pz_machine_load(file, &m, err, sizeof(err)), 0, "%s", err);
        cr_assert_eq(m.network, shipped[i].network, "%s", shipped[i].file);
        cr_assert_eq(m.procs_per_node, shipped[i].procs_per_node, "%s", shipped[i].file);
        cr_assert_eq(m.switch_queue, shipped[i].switch_queue, "%s", shipped[i].file);
        cr_assert_eq(m.link_hold, shipped[i].link_hold, "%s", shipped[i].file);
        cr_assert_float_eq(m.overhead.send + pz_message_time(&m, 0) + m.overhead.recv,
                           shipped[i].one_way, 1e-12, "%s", shipped[i].file);
    }
}

/* A node map next to the machine file: "2 0  # comment", "0 1": ranks 0..3 on nodes
 * 2, 0, 0, 1, so 3 nodes; rank 5 wraps around to rank 1's node.  A word that is not a
 * node number is named with the map's file and line. */
Test(machine, a_node_map_file)
{
    struct pz_machine m;
    char dir[] = "/tmp/prognoz-map-XXXXXX", file[128], map[128], err[1024];
    const int want[6] = { 2, 0, 0, 1, 2, 0 };
    FILE *f;

    cr_assert(mkdtemp(dir));
    snprintf(file, sizeof(file), "%s/m.conf", dir);
    snprintf(map, sizeof(map), "%s/nodes.txt", dir);
    f = fopen(map, "w");
    fputs("2 0  # comment\n0 1\n", f);
    fclose(f);
    f = fopen(file, "w");
    fputs("procs_per_node = 2\nnode_map = nodes.txt\n", f);
    fclose(f);
    pz_machine_defaults(&m);
    cr_assert_eq(pz_machine_load(file, &m, err, sizeof(err)), 0, "%s", err);
    cr_assert_eq(pz_nodes_for(&m, 4), 3);
    for (int r = 0; r < 6; r++)
        cr_assert_eq(pz_node_of(&m, r, 6), want[r], "rank %d", r);
    pz_machine_release(&m);
    f = fopen(map, "w");
    fputs("0 1\n1 x2\n", f);
    fclose(f);
    pz_machine_defaults(&m);
    cr_assert_eq(pz_machine_load(file, &m, err, sizeof(err)), -1);
    cr_assert(strstr(err, "m.conf:2: node_map = 'nodes.txt': ") && strstr(err, "nodes.txt:2: 'x2': expected a node number"),
              "%s", err);
    pz_machine_release(&m);
    unlink(map);
    unlink(file);
    rmdir(dir);
}

/* A machine file naming the node map map: the error of loading it, into err. */
static void node_map_fails(const char *map, char *err, size_t len)
{
    struct pz_machine m;
    char text[256];

    snprintf(text, sizeof(text), "node_map = %s\n", map);
    pz_machine_defaults(&m);
    cr_assert_eq(pz_machine_load(write_file(text), &m, err, len), -1, "%s loaded", map);
    unlink(path);
    pz_machine_release(&m);
}

/* A device never ends, a huge file is a mistake, and a line longer than the buffer
 * would be split into two lines: each is refused, naming the map's file (and line). */
Test(machine, a_node_map_must_be_a_small_regular_file)
{
    char map[] = "/tmp/prognoz-map-XXXXXX", err[1024], want[256];
    int fd = mkstemp(map);
    FILE *f;

    node_map_fails("/dev/zero", err, sizeof(err));
    cr_assert(strstr(err, ":1: node_map = '/dev/zero': /dev/zero: not a regular file"), "%s",
              err);
    cr_assert_geq(fd, 0);
    cr_assert_eq(ftruncate(fd, (64L << 20) + 1), 0, "a sparse file 1 byte over 64 MiB");
    close(fd);
    node_map_fails(map, err, sizeof(err));
    snprintf(want, sizeof(want), "%s: larger than 64 MiB", map);
    cr_assert(strstr(err, want), "%s", err);
    f = fopen(map, "w");
    fputs("0 1\n", f);
    for (int i = 0; i < 600; i++)
        fputs("0 ", f);
    fputs("\n", f);
    fclose(f);
    node_map_fails(map, err, sizeof(err));
    snprintf(want, sizeof(want), "%s:2: line longer than 1022 bytes", map);
    cr_assert(strstr(err, want), "%s", err);
    unlink(map);
}

/* A machine whose every key differs from its default, so that a key the writer or the
 * parser skipped shows. */
static void unusual_machine(struct pz_machine *m)
{
    pz_machine_defaults(m);
    snprintf(m->name, sizeof(m->name), "odd \"one\"");
    m->network = PZ_NET_CHANNELS;
    m->channels = 3;
    m->cost_model = PZ_COST_PACKET;
    m->latency = 12.5e-6;
    m->latency_per_byte = 0.25e-9;
    m->bandwidth = 3e8;
    m->packet_size = 9000;
    m->packet_header = 40;
    m->eager_threshold = 16384;
    m->rendezvous_overhead = 2e-6;
    m->progress = PZ_PROGRESS_IN_CALLS;
    m->duplex_factor = 1;   /* above 1 only on a switch */
    m->procs_per_node = 8;
    m->placement = PZ_PLACE_CYCLIC;
    m->shm_latency = 0.5e-6;
    m->shm_bandwidth = 4e9;
    m->cpu_scale = 0.75;
    snprintf(m->mpi, sizeof(m->mpi), "mpich1");
    m->reduce_byte_time = 1.5e-9;
}

/* Every key of the table written by pz_machine_write is read back by pz_machine_load to
 * the same value: the written file, loaded over defaults, equals the machine. */
Test(machine, every_key_written_reads_back)
{
    struct pz_machine m, back;

    unusual_machine(&m);
    for (int pass = 0; pass < 2; pass++) {   /* the channels machine, then a half-duplex switch */
        if (pass) {
            m.network = PZ_NET_SWITCH;
            m.duplex_factor = 1.5;
        }
        read_back(&m, &back);
        cr_assert_str_eq(back.name, m.name);
        cr_assert_str_eq(back.mpi, m.mpi);
        cr_assert_eq(back.network, m.network);
        cr_assert_eq(back.channels, m.channels);
        cr_assert_eq(back.cost_model, m.cost_model);
        cr_assert_eq(back.latency, m.latency);
        cr_assert_eq(back.latency_per_byte, m.latency_per_byte);
        cr_assert_eq(back.bandwidth, m.bandwidth);
        cr_assert_eq(back.packet_size, m.packet_size);
        cr_assert_eq(back.packet_header, m.packet_header);
        cr_assert_eq(back.eager_threshold, m.eager_threshold);
        cr_assert_eq(back.rendezvous_overhead, m.rendezvous_overhead);
        cr_assert_eq(back.progress, m.progress);
        cr_assert_eq(back.duplex_factor, m.duplex_factor);
        cr_assert_eq(back.procs_per_node, m.procs_per_node);
        cr_assert_eq(back.placement, m.placement);
        cr_assert_eq(back.shm_latency, m.shm_latency);
        cr_assert_eq(back.shm_bandwidth, m.shm_bandwidth);
        cr_assert_eq(back.cpu_scale, m.cpu_scale);
        cr_assert_eq(back.reduce_byte_time, m.reduce_byte_time);
    }
}

/* The writer names every key of the table but node_map once, in the table's order. */
Test(machine, the_writer_names_every_key_once)
{
    struct pz_machine m;
    char *text = NULL, line[256];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int key = 0;

    pz_machine_defaults(&m);
    cr_assert_eq(pz_machine_write(f, &m), 0);
    fclose(f);
    f = fmemopen(text, len, "r");
    while (fgets(line, sizeof(line), f)) {
        size_t n = strlen(pz_machine_key_name(key));

        cr_assert(!strncmp(line, pz_machine_key_name(key), n) && line[n] == ' ',
                  "line %d: %s", key, line);
        key++;
    }
    fclose(f);
    free(text);
    cr_assert_eq(key, PZ_KEY_NODE_MAP, "every key but node_map");
}

/* m as pz_machine_write_json writes it, which must succeed (to free). */
static char *json_of(const struct pz_machine *m)
{
    return written_by(pz_machine_write_json, m);
}

/* io_scale is 1 unless given, and written (file and JSON) only when it is not 1, so that
 * the machines written before it existed are written the same. */
Test(machine, io_scale_defaults_to_1_and_is_written_only_when_not_1)
{
    struct pz_machine m, back;
    char *text = NULL;

    pz_machine_defaults(&m);
    cr_assert_eq(m.io_scale, 1);
    text = file_text_of(&m);
    cr_assert_null(strstr(text, "io_scale"), "%s", text);
    free(text);
    m.io_scale = 2.5;
    read_back(&m, &back);
    cr_assert_eq(back.io_scale, 2.5);
    text = json_of(&m);
    cr_assert_not_null(strstr(text, ", \"io_scale\": 2.5}"), "%s", text);
    free(text);
}

/* The defaults of docs/machines.md, in SI units, as JSON with 9 significant digits:
 * 50 us = 5e-05 s, 125 MB/s = 125000000 B/s (9 digits), 1 us = 1e-06 s, 5 GB/s =
 * 5000000000 B/s, 10 digits, so %.9g writes it with an exponent: 5e+09. */
Test(machine, json_of_the_defaults)
{
    struct pz_machine m;
    char *text;

    pz_machine_defaults(&m);
    text = json_of(&m);
    cr_assert_str_eq(text,
                     "{\"name\": \"unnamed\", \"network\": \"switch\", \"channels\": 1, "
                     "\"cost_model\": \"hockney\", \"latency\": 5e-05, "
                     "\"latency_per_byte\": 0, \"bandwidth\": 125000000, "
                     "\"packet_size\": 1500, \"packet_header\": 78, "
                     "\"eager_threshold\": 65536, \"rendezvous_overhead\": 0, "
                     "\"progress\": \"background\", \"duplex_factor\": 1, "
                     "\"procs_per_node\": 1, \"placement\": \"block\", "
                     "\"shm_latency\": 1e-06, \"shm_bandwidth\": 5e+09, "
                     "\"cpu_scale\": 1, \"mpi\": \"mpich4\", \"reduce_byte_time\": 0}");
    free(text);
}

/* The unusual machine: its name escaped, 12.5 us = 1.25e-05 s, 0.25 ns = 2.5e-10 s,
 * 1.5 ns = 1.5e-09 s, 3e8 B/s = 300000000 (9 digits), 4e9 B/s (10 digits) = 4e+09. */
Test(machine, json_of_every_key)
{
    struct pz_machine m;
    char *text;

    unusual_machine(&m);
    text = json_of(&m);
    cr_assert_str_eq(text,
                     "{\"name\": \"odd \\\"one\\\"\", \"network\": \"channels\", "
                     "\"channels\": 3, \"cost_model\": \"packet\", \"latency\": 1.25e-05, "
                     "\"latency_per_byte\": 2.5e-10, \"bandwidth\": 300000000, "
                     "\"packet_size\": 9000, \"packet_header\": 40, "
                     "\"eager_threshold\": 16384, \"rendezvous_overhead\": 2e-06, "
                     "\"progress\": \"in_calls\", \"duplex_factor\": 1, "
                     "\"procs_per_node\": 8, \"placement\": \"cyclic\", "
                     "\"shm_latency\": 5e-07, \"shm_bandwidth\": 4e+09, "
                     "\"cpu_scale\": 0.75, \"mpi\": \"mpich1\", "
                     "\"reduce_byte_time\": 1.5e-09}");
    free(text);
}

static char *summary_of(const struct pz_machine *m)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    pz_machine_summary(f, m);
    fclose(f);
    return text;
}

/* The summary: 50e-6 s x 1e6 = 50 us, 125e6 B/s / 1e6 = 125 MB/s; one process per node;
 * progress, duplex_factor and the duplex factors' steps only when they are not the
 * defaults. */
Test(machine, summary_line)
{
    struct pz_machine m;
    char *text;

    pz_machine_defaults(&m);
    text = summary_of(&m);
    cr_assert_str_eq(text, "Predicted on machine unnamed: network switch, latency 50 us, "
                           "bandwidth 125 MB/s, 1 process per node, eager up to 65536 B, "
                           "MPI mpich4, cpu_scale 1\n");
    free(text);
    m.procs_per_node = 2;
    m.progress = PZ_PROGRESS_IN_CALLS;
    m.duplex_factor = 1.65;
    text = summary_of(&m);
    cr_assert_str_eq(text, "Predicted on machine unnamed: network switch, latency 50 us, "
                           "bandwidth 125 MB/s, 2 processes per node, eager up to 65536 B, "
                           "MPI mpich4, cpu_scale 1, progress in calls, duplex_factor 1.65\n");
    free(text);
    m.duplex_factor = 1;
    m.duplex_factors = (struct pz_size_factors){ 2, { { 4096, 1.3 }, { 65536, 2.2 } } };
    text = summary_of(&m);
    cr_assert_str_eq(text, "Predicted on machine unnamed: network switch, latency 50 us, "
                           "bandwidth 125 MB/s, 2 processes per node, eager up to 65536 B, "
                           "MPI mpich4, cpu_scale 1, progress in calls, duplex factors by "
                           "size\n");
    free(text);
}

Test(machine, words_and_names_of_keys)
{
    struct pz_machine m;

    pz_machine_defaults(&m);
    cr_assert_str_eq(pz_machine_key_name(PZ_KEY_EAGER_THRESHOLD), "eager_threshold");
    cr_assert_str_eq(pz_machine_key_name(PZ_KEY_NODE_MAP), "node_map");
    cr_assert_str_eq(pz_machine_word(&m, PZ_KEY_NETWORK), "switch");
    m.network = PZ_NET_BUS;
    cr_assert_str_eq(pz_machine_word(&m, PZ_KEY_NETWORK), "bus");
    cr_assert_str_eq(pz_machine_word(&m, PZ_KEY_MPI), "mpich4");
    cr_assert_null(pz_machine_word(&m, PZ_KEY_LATENCY));
}

/* --- overheads and size segments */

/* A machine file with every overhead and both segment lists, in the units people write:
 * 1KiB = 1024 B, 64KiB = 65536 B; 20us = 2e-5 s; 90MB/s = 9e7 B/s. */
Test(machine, overheads_and_segments_are_read)
{
    struct pz_machine m;
    char err[512];

    pz_machine_defaults(&m);
    cr_assert_eq(m.segments.n, 0, "no segment by default");
    cr_assert_eq(m.overhead.send, 0);
    cr_assert_eq(pz_machine_load(write_file("send_overhead = 2us\n"
                                            "send_overhead_per_byte = 0.5ns\n"
                                            "recv_overhead = 3us\n"
                                            "recv_overhead_per_byte = 0.25ns\n"
                                            "shm_send_overhead = 0.5us\n"
                                            "shm_send_overhead_per_byte = 0.1ns\n"
                                            "shm_recv_overhead = 0.75us\n"
                                            "shm_recv_overhead_per_byte = 0.2ns\n"
                                            "segments = 1KiB: 20us, 90MB/s; 64KiB : 35 us , "
                                            "110MB/s  # eager\n"
                                            "shm_segments = 4096 B: 0.5us, 2GB/s\n"),
                                 &m, err, sizeof(err)),
                 0, "%s", err);
    unlink(path);
    cr_assert_float_eq(m.overhead.send, 2e-6, EPS);
    cr_assert_float_eq(m.overhead.send_per_byte, 0.5e-9, EPS);
    cr_assert_float_eq(m.overhead.recv, 3e-6, EPS);
    cr_assert_float_eq(m.overhead.recv_per_byte, 0.25e-9, EPS);
    cr_assert_float_eq(m.shm_overhead.send, 0.5e-6, EPS);
    cr_assert_float_eq(m.shm_overhead.send_per_byte, 0.1e-9, EPS);
    cr_assert_float_eq(m.shm_overhead.recv, 0.75e-6, EPS);
    cr_assert_float_eq(m.shm_overhead.recv_per_byte, 0.2e-9, EPS);
    cr_assert_eq(m.segments.n, 2);
    cr_assert_float_eq(m.segments.seg[0].upto, 1024, EPS);
    cr_assert_float_eq(m.segments.seg[0].latency, 20e-6, EPS);
    cr_assert_float_eq(m.segments.seg[0].bandwidth, 90e6, 1e-3);
    cr_assert_float_eq(m.segments.seg[1].upto, 65536, EPS);
    cr_assert_float_eq(m.segments.seg[1].latency, 35e-6, EPS);
    cr_assert_float_eq(m.segments.seg[1].bandwidth, 110e6, 1e-3);
    cr_assert_eq(m.shm_segments.n, 1);
    cr_assert_float_eq(m.shm_segments.seg[0].bandwidth, 2e9, 1e-3);
    cr_assert_eq(pz_machine_load(write_file("segments = none\n"), &m, err, sizeof(err)), 0);
    unlink(path);
    cr_assert_eq(m.segments.n, 0, "none: no segment");
}

Test(machine, overhead_and_segment_mistakes)
{
    load_fails("send_overhead = 2\n",
               "1: send_overhead = '2': expected a time such as 50us, 1.5ms or 0s");
    load_fails("recv_overhead_per_byte = 2000s\n",
               "1: recv_overhead_per_byte = '2000s': expected a time between 0s and 1000s");
    load_fails("\nsegments = 1KiB 20us 90MB/s\n",
               "2: segments = '1KiB 20us 90MB/s': segment 1: expected 'UPTO: LATENCY, "
               "BANDWIDTH' such as '64KiB: 20us, 100MB/s'");
    load_fails("segments = 1KiB: 20us, 90MB/s; 512B: 10us, 50MB/s\n",
               "1: segments = '1KiB: 20us, 90MB/s; 512B: 10us, 50MB/s': segment 2: bounds "
               "must increase from one to the next");
    load_fails("shm_segments = 1KiB: 20us, 0.5B/s\n",
               "1: shm_segments = '1KiB: 20us, 0.5B/s': segment 1: expected the bandwidth as "
               "a bandwidth of at least 1B/s");
    load_fails("segments = 1KiB: 2000s, 9MB/s\n",
               "1: segments = '1KiB: 2000s, 9MB/s': segment 1: expected the latency as a time "
               "between 0s and 1000s");
    load_fails("segments = 1 parsec: 2us, 9MB/s\n",
               "1: segments = '1 parsec: 2us, 9MB/s': segment 1: expected the upper bound as "
               "a size between 0B and 2^53B");
}

/* A list holds PZ_MAX_SEGMENTS steps: the 17th of segments 1KiB, 2KiB, ... 17KiB is named
 * as the one too many, with the bound. */
Test(machine, a_list_longer_than_it_holds)
{
    char value[600] = "", line[700], why[900];
    size_t used = 0;

    for (int i = 1; i <= PZ_MAX_SEGMENTS + 1; i++)
        used += (size_t)snprintf(value + used, sizeof(value) - used, "%s%dKiB: 1us, 1MB/s",
                                 i > 1 ? "; " : "", i);
    snprintf(line, sizeof(line), "segments = %s\n", value);
    snprintf(why, sizeof(why), "1: segments = '%s': segment 17: more than the 16 a list holds",
             value);
    load_fails(line, why);
}

/* Set, they are written and read back to the same doubles; 0 and empty, not written. */
Test(machine, overheads_and_segments_written_read_back)
{
    struct pz_machine m, back;
    char *text = NULL;
    size_t len = 0;
    FILE *f;

    unusual_machine(&m);
    m.overhead = (struct pz_overhead){ 1.1e-6, 0.3e-9, 2.2e-6, 0.7e-9 };
    m.shm_overhead = (struct pz_overhead){ 0.1e-6, 0, 0.3e-6, 0.05e-9 };
    m.segments = (struct pz_segments){ 2, { { 1024, 21e-6, 9.5e7 }, { 65536, 33e-6, 1.1e8 } } };
    m.shm_segments = (struct pz_segments){ 1, { { 8192, 0.4e-6, 3.3e9 } } };
    read_back(&m, &back);
    cr_assert_eq(memcmp(&back.overhead, &m.overhead, sizeof(m.overhead)), 0);
    cr_assert_eq(memcmp(&back.shm_overhead, &m.shm_overhead, sizeof(m.shm_overhead)), 0);
    cr_assert_eq(memcmp(&back.segments, &m.segments, sizeof(m.segments)), 0);
    cr_assert_eq(memcmp(&back.shm_segments, &m.shm_segments, sizeof(m.shm_segments)), 0);
    /* shm_send_overhead_per_byte is 0: not written */
    text = file_text_of(&m);
    cr_assert_null(strstr(text, "shm_send_overhead_per_byte"));
    cr_assert_not_null(strstr(text, "\nsegments = 1024 B: 2.1e-05 s, 95000000 B/s; "
                                    "65536 B: 3.3e-05 s, 110000000 B/s\n"));
    free(text);
    m.segments.seg[1].upto = 512;   /* decreasing bounds cannot be written */
    f = open_memstream(&text, &len);
    cr_assert_eq(pz_machine_write(f, &m), -1);
    fclose(f);
    free(text);
}

/* JSON: the quiet keys only when set, the segments as a list of objects. */
Test(machine, json_of_overheads_and_segments)
{
    struct pz_machine m;
    char *text;

    pz_machine_defaults(&m);
    m.overhead.recv = 3e-6;
    m.segments = (struct pz_segments){ 1, { { 1024, 2e-5, 9e7 } } };
    text = json_of(&m);
    cr_assert_not_null(strstr(text, "\"reduce_byte_time\": 0, \"segments\": [{\"upto\": 1024, "
                                    "\"latency\": 2e-05, \"bandwidth\": 90000000}], "
                                    "\"recv_overhead\": 3e-06}"), "%s", text);
    free(text);
    text = summary_of(&m);
    cr_assert_str_eq(text, "Predicted on machine unnamed: network switch, latency 50 us, "
                           "bandwidth 125 MB/s, 1 process per node, eager up to 65536 B, "
                           "MPI mpich4, cpu_scale 1, 1 size segments, receive overhead 3 us\n");
    free(text);
}

/* Segments: 20 us + bytes / 90 MB/s up to 1 KiB, 35 us + bytes / 110 MB/s up to 64 KiB,
 * beyond that the machine's latency and bandwidth (50 us, 125 MB/s):
 *   900 B:    20e-6 + 900 / 90e6      = 20 + 10 us       = 30 us
 *   1024 B:   (its bound belongs to it) 20e-6 + 1024 / 90e6 = 31.3777... us
 *   11000 B:  35e-6 + 11000 / 110e6   = 35 + 100 us      = 135 us
 *   125000 B: 50e-6 + 125000 / 125e6  = 50 + 1000 us     = 1050 us
 * shm: up to 4096 B 0.5 us + bytes / 2 GB/s, beyond 1 us + bytes / 5 GB/s:
 *   2000 B:   0.5 + 1 us = 1.5 us;  10000 B: 1 + 2 us = 3 us.
 * The overheads: 2 us + 0.5 ns/B x 1000 B = 2.5 us sending; shm 0.75 us + 0.2 ns x 1000
 * = 0.95 us receiving. */
Test(cost, segments_and_overheads)
{
    struct pz_machine m;

    pz_machine_defaults(&m);
    m.segments = (struct pz_segments){ 2, { { 1024, 20e-6, 90e6 }, { 65536, 35e-6, 110e6 } } };
    m.shm_segments = (struct pz_segments){ 1, { { 4096, 0.5e-6, 2e9 } } };
    cr_assert_float_eq(pz_message_time(&m, 900), 30e-6, EPS);
    cr_assert_float_eq(pz_message_time(&m, 1024), 20e-6 + 1024 / 90e6, EPS);
    cr_assert_float_eq(pz_message_time(&m, 11000), 135e-6, EPS);
    cr_assert_float_eq(pz_message_time(&m, 125000), 1050e-6, EPS);
    cr_assert_float_eq(pz_shm_time(&m, 2000), 1.5e-6, EPS);
    cr_assert_float_eq(pz_shm_time(&m, 10000), 3e-6, EPS);
    m.overhead = (struct pz_overhead){ 2e-6, 0.5e-9, 3e-6, 0.25e-9 };
    m.shm_overhead = (struct pz_overhead){ 0.5e-6, 0.1e-9, 0.75e-6, 0.2e-9 };
    cr_assert_float_eq(pz_send_overhead(&m, 1000, 0), 2.5e-6, EPS);
    cr_assert_float_eq(pz_recv_overhead(&m, 1000, 0), 3.25e-6, EPS);
    cr_assert_float_eq(pz_recv_overhead(&m, 1000, 1), 0.95e-6, EPS);
    cr_assert_float_eq(pz_send_overhead(&m, 0, 1), 0.5e-6, EPS);
}

/* The resume overhead: read in the units people write, written back only when set,
 * and charged in full from resume_after on, in proportion below: 4 us after 50 us, 2 us
 * after 25 us, 0.5 us between processes of one node after 80 us. */
Test(machine, the_resume_overhead_is_read_written_and_charged)
{
    struct pz_machine m;
    char err[512], *text = NULL;

    pz_machine_defaults(&m);
    cr_assert_eq(m.resume_overhead, 0, "none by default");
    cr_assert_eq(pz_machine_load(write_file("resume_overhead = 4us\n"
                                            "shm_resume_overhead = 0.5us\n"
                                            "resume_after = 50us\n"),
                                 &m, err, sizeof(err)),
                 0, "%s", err);
    unlink(path);
    cr_assert_float_eq(m.resume_overhead, 4e-6, EPS);
    cr_assert_float_eq(m.shm_resume_overhead, 0.5e-6, EPS);
    cr_assert_float_eq(m.resume_after, 50e-6, EPS);
    cr_assert_float_eq(pz_resume_overhead(&m, 50e-6, 0), 4e-6, EPS);
    cr_assert_float_eq(pz_resume_overhead(&m, 1, 0), 4e-6, EPS);
    cr_assert_float_eq(pz_resume_overhead(&m, 25e-6, 0), 2e-6, EPS);
    cr_assert_float_eq(pz_resume_overhead(&m, 80e-6, 1), 0.5e-6, EPS);
    cr_assert_float_eq(pz_resume_overhead(&m, 0, 0), 0, EPS, "computed nothing");
    text = file_text_of(&m);
    cr_assert_not_null(strstr(text, "\nresume_overhead = 4e-06 s\n"), "%s", text);
    free(text);
    text = NULL;
    pz_machine_defaults(&m);
    text = file_text_of(&m);
    cr_assert_null(strstr(text, "resume"), "0: not written");
    free(text);
}

/* The duplex overhead: 0 (none) by default and not written then, so that a machine
 * file without it predicts as before it existed; read in the units people write and
 * written back when set. */
Test(machine, the_duplex_overhead_is_read_and_written_only_when_set)
{
    struct pz_machine m;
    char err[512], *text = NULL;

    pz_machine_defaults(&m);
    cr_assert_eq(m.duplex_overhead, 0, "none by default");
    text = file_text_of(&m);
    cr_assert_null(strstr(text, "duplex_overhead"), "0: not written");
    free(text);
    text = NULL;
    cr_assert_eq(pz_machine_load(write_file("duplex_overhead = 1.5us\n"), &m, err,
                                 sizeof(err)),
                 0, "%s", err);
    unlink(path);
    cr_assert_float_eq(m.duplex_overhead, 1.5e-6, EPS);
    text = file_text_of(&m);
    cr_assert_not_null(strstr(text, "\nduplex_overhead = 1.5e-06 s\n"), "%s", text);
    free(text);
    cr_assert_neq(pz_machine_load(write_file("duplex_overhead = -1us\n"), &m, err,
                                  sizeof(err)),
                  0, "a negative time");
    unlink(path);
}

/* Where a message waits for a busy link into its receiver's node: at its sender by
 * default, not written then, so that a machine file without the key predicts as before
 * it existed; "switch" read and written back; any other word named. */
Test(machine, the_switch_queue_is_read_and_written_only_when_not_the_sender)
{
    struct pz_machine m;
    char err[512], *text = NULL;

    pz_machine_defaults(&m);
    cr_assert_eq(m.switch_queue, PZ_QUEUE_SENDER, "at the sender by default");
    text = file_text_of(&m);
    cr_assert_null(strstr(text, "switch_queue"), "the default: not written");
    free(text);
    cr_assert_eq(pz_machine_load(write_file("switch_queue = switch\n"), &m, err, sizeof(err)),
                 0, "%s", err);
    unlink(path);
    cr_assert_eq(m.switch_queue, PZ_QUEUE_SWITCH);
    text = file_text_of(&m);
    cr_assert_not_null(strstr(text, "\nswitch_queue = switch\n"), "%s", text);
    free(text);
    cr_assert_neq(pz_machine_load(write_file("switch_queue = nic\n"), &m, err, sizeof(err)),
                  0, "a word that is not a place");
    unlink(path);
    cr_assert_not_null(strstr(err, "switch_queue"), "the key is not named: %s", err);
}

/* How long messages hold the links: their whole time by default, neither key written
 * then; link_hold bytes and link_gap read in the units people write and written back;
 * a gap without the hold it applies to refused, naming the file and both keys. */
Test(machine, the_link_hold_and_gap_are_read_and_written_only_when_set)
{
    struct pz_machine m;
    char err[512], *text = NULL;

    pz_machine_defaults(&m);
    cr_assert_eq(m.link_hold, PZ_HOLD_MESSAGE, "the whole message by default");
    cr_assert_eq(m.link_gap, 0);
    text = file_text_of(&m);
    cr_assert_null(strstr(text, "link_"), "the defaults: not written: %s", text);
    free(text);
    cr_assert_eq(pz_machine_load(write_file("link_hold = bytes\nlink_gap = 4.5us\n"), &m, err,
                                 sizeof(err)),
                 0, "%s", err);
    unlink(path);
    cr_assert_eq(m.link_hold, PZ_HOLD_BYTES);
    cr_assert_float_eq(m.link_gap, 4.5e-6, 1e-18);
    text = file_text_of(&m);
    cr_assert_not_null(strstr(text, "\nlink_hold = bytes\nlink_gap = 4.5e-06 s\n"), "%s", text);
    free(text);
    pz_machine_defaults(&m);
    cr_assert_neq(pz_machine_load(write_file("link_gap = 2us\n"), &m, err, sizeof(err)), 0,
                  "a gap while messages hold the links for their whole time");
    unlink(path);
    cr_assert_not_null(strstr(err, "link_gap applies to link_hold = bytes only"), "%s", err);
    cr_assert_not_null(strstr(err, path), "the file is not named: %s", err);
    cr_assert_neq(pz_machine_load(write_file("link_hold = latency\n"), &m, err, sizeof(err)), 0);
    unlink(path);
    cr_assert_not_null(strstr(err, "link_hold"), "the key is not named: %s", err);
}

/* The send tail: 0 by default and not written then, so that a machine file without it
 * predicts as before it existed; read in the units people write and written back when
 * set. */
Test(machine, the_send_tail_is_read_and_written_only_when_set)
{
    struct pz_machine m;
    char err[512], *text = NULL;

    pz_machine_defaults(&m);
    cr_assert_eq(m.send_tail, 0, "none by default");
    text = file_text_of(&m);
    cr_assert_null(strstr(text, "send_tail"), "0: not written");
    free(text);
    text = NULL;
    cr_assert_eq(pz_machine_load(write_file("send_tail = 1.5us\n"), &m, err, sizeof(err)), 0,
                 "%s", err);
    unlink(path);
    cr_assert_float_eq(m.send_tail, 1.5e-6, EPS);
    text = file_text_of(&m);
    cr_assert_not_null(strstr(text, "\nsend_tail = 1.5e-06 s\n"), "%s", text);
    free(text);
}

/* duplex_factors: steps of a factor by size, read as written ("4KiB" is 4096 B), written
 * back to the same doubles, in JSON as a list; a mistake names the step and what was
 * expected; on a bus they are refused as duplex_factor is. */
Test(machine, duplex_factors_are_read_written_and_checked)
{
    struct pz_machine m, back;
    char err[512], *text = NULL;

    pz_machine_defaults(&m);
    cr_assert_eq(pz_machine_load(write_file("network = switch\nduplex_factors = 4KiB: 1.3; "
                                            "256KiB: 2.25; 16MiB: 1.1\n"),
                                 &m, err, sizeof(err)),
                 0, "%s", err);
    unlink(path);
    cr_assert_eq(m.duplex_factors.n, 3);
    cr_assert_eq(m.duplex_factors.step[0].upto, 4096);
    cr_assert_eq(m.duplex_factors.step[0].factor, 1.3);
    cr_assert_eq(m.duplex_factors.step[1].upto, 262144);
    cr_assert_eq(m.duplex_factors.step[1].factor, 2.25);
    cr_assert_eq(m.duplex_factors.step[2].upto, 16777216);
    text = file_text_of(&m);
    cr_assert_not_null(strstr(text, "\nduplex_factors = 4096 B: 1.3; 262144 B: 2.25; "
                                    "16777216 B: 1.1\n"),
                       "%s", text);
    free(text);
    read_back(&m, &back);
    cr_assert_eq(memcmp(&back.duplex_factors, &m.duplex_factors, sizeof(m.duplex_factors)), 0);
    text = json_of(&m);
    cr_assert_not_null(strstr(text, "\"duplex_factors\": [{\"upto\": 4096, \"factor\": 1.3}, "
                                    "{\"upto\": 262144, \"factor\": 2.25}, {\"upto\": 16777216, "
                                    "\"factor\": 1.1}]"),
                       "%s", text);
    free(text);
    load_fails("duplex_factors = 4KiB 1.3\n",
               "1: duplex_factors = '4KiB 1.3': step 1: expected 'UPTO: FACTOR' such as "
               "'64KiB: 2.2'");
    load_fails("duplex_factors = 4KiB: 1.3; 1KiB: 2\n",
               "1: duplex_factors = '4KiB: 1.3; 1KiB: 2': step 2: bounds must increase from "
               "one to the next");
    load_fails("duplex_factors = 4KiB: 0.9\n",
               "1: duplex_factors = '4KiB: 0.9': step 1: expected the factor as a number from 1 "
               "to 4");
    load_fails("duplex_factors = 4KiB: 4.5\n",
               "1: duplex_factors = '4KiB: 4.5': step 1: expected the factor as a number from 1 "
               "to 4");
    load_fails("network = bus\nduplex_factors = 4KiB: 2\n",
               " duplex_factor and duplex_factors apply to network = switch only (a bus carries "
               "one transfer at a time, channels are full duplex)");
}
