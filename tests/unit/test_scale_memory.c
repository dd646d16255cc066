/* The memory a run of prognoz scale needs against the memory it may take
 * (replay/scale_memory.h): the floor, the terms of the estimate and the refusals. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "scale_memory.h"

Test(scale_memory, the_floor_is_4_kib_a_process)
{
    /* 2^22 processes x 2^12 bytes = 2^34 bytes, 16 GiB */
    cr_expect_eq(pz_scale_memory_floor(4194304), (uint64_t)1 << 34);
    /* 16384 x 4096 = 2^14 x 2^12 = 2^26, 64 MiB */
    cr_expect_eq(pz_scale_memory_floor(16384), (uint64_t)1 << 26);
    cr_expect_eq(pz_scale_memory_floor(1), 4096);
    cr_expect_eq(pz_scale_memory_floor(0), 0);
}

Test(scale_memory, meminfo_gives_memavailable_in_bytes)
{
    const char *text = "MemTotal:       24576000 kB\n"
                       "MemFree:         1000000 kB\n"
                       "MemAvailable:   22000000 kB\n"
                       "Buffers:          100000 kB\n";
    uint64_t bytes = 0;

    /* 22000000 KiB x 1024 = 22528000000 bytes */
    cr_assert_eq(pz_scale_meminfo_available(text, &bytes), 0);
    cr_expect_eq(bytes, 22528000000ull);
}

Test(scale_memory, meminfo_without_memavailable_is_refused)
{
    uint64_t bytes = 7;

    /* older kernels have no MemAvailable; a line in other units is not read as kB */
    cr_expect_eq(pz_scale_meminfo_available("MemTotal: 1000 kB\nMemFree: 10 kB\n", &bytes), -1);
    cr_expect_eq(pz_scale_meminfo_available("MemAvailable: 1000 MB\n", &bytes), -1);
    cr_expect_eq(pz_scale_meminfo_available("", &bytes), -1);
    cr_expect_eq(bytes, 7);
}

Test(scale_memory, the_smallest_bound_is_kept_with_its_source)
{
    struct pz_scale_memory m = { UINT64_MAX, NULL };

    pz_scale_memory_bound(&m, 22528000000ull, "MemAvailable");
    pz_scale_memory_bound(&m, UINT64_MAX, "ulimit -v");   /* unlimited */
    cr_expect_eq(m.bytes, 22528000000ull);
    cr_expect_str_eq(m.source, "MemAvailable");
    pz_scale_memory_bound(&m, (uint64_t)8 << 30, "ulimit -d");
    pz_scale_memory_bound(&m, (uint64_t)9 << 30, "ulimit -v");   /* larger */
    cr_expect_eq(m.bytes, (uint64_t)8 << 30);
    cr_expect_str_eq(m.source, "ulimit -d");
}

Test(scale_memory, a_count_fits_the_floor_up_to_the_bound)
{
    /* 8 GiB = 2^33 bytes hold 2^33 / 2^12 = 2^21 = 2097152 processes exactly */
    struct pz_scale_memory m = { (uint64_t)8 << 30, "MemAvailable" };
    char msg[256] = "";

    cr_expect_eq(pz_scale_memory_floor_fits(16384, &m, msg, sizeof(msg)), 1);
    cr_expect_eq(pz_scale_memory_floor_fits(2097152, &m, msg, sizeof(msg)), 1);
    cr_expect_str_empty(msg);
    cr_expect_eq(pz_scale_memory_floor_fits(2097153, &m, msg, sizeof(msg)), 0);
}

Test(scale_memory, a_count_below_the_floor_is_told_on_one_line)
{
    /* 4194304 processes need at least 2^34 bytes = 16.0 GiB; 4 GiB of address space */
    struct pz_scale_memory m = { (uint64_t)4 << 30, "ulimit -v" };
    char msg[256];

    cr_assert_eq(pz_scale_memory_floor_fits(4194304, &m, msg, sizeof(msg)), 0);
    cr_expect_str_eq(msg, "the run at 4194304 processes needs at least 16.0 GiB of memory "
                          "(4 KiB a process whatever the program), more than the 4.0 GiB "
                          "available (ulimit -v)");
    cr_expect_null(strchr(msg, '\n'));
}

/* A run of 1024 processes: 10 MiB held, a template of 10 nodes and 2 slots whose
 * largest step makes 4 records, 1000 records a process of which at most 20 between two
 * collectives on the world and 10 outside them, 3 intervals, 2 message channels, the
 * world and the process alone (a collective on the world), no v collective. */
static struct pz_scale_memory_figures plain(void)
{
    return (struct pz_scale_memory_figures){
        .nprocs = 1024, .held = 10485760, .nodes = 10, .slots = 2, .step_records = 4,
        .records = 1000, .stretch = 20, .loose = 10, .intervals = 3, .channels = 2,
        .comms = 2, .coll_members = 1024, .coll_classes = 1 };
}

/* Blocks as the allocator takes them: n + 16 bytes of header, rounded up to 16. */
Test(scale_memory, each_term_of_a_plain_run)
{
    struct pz_scale_memory_figures f = plain();
    struct pz_scale_memory_estimate e;

    pz_scale_memory_estimate(&f, &e);
    cr_expect_eq(e.term[PZ_SCALE_MEM_HELD], 10485760);
    /* a cursor: blocks of 184 (208), 2 fifos of 40 (96), 2 ids of 8 (32), 10 fifos (416),
     * 10 levels of 32 (336), 10 passes of 4 (64); 2 x 2 requests of 28 (112); its
     * pointer (8): 1272 bytes, x 1024 */
    cr_expect_eq(e.term[PZ_SCALE_MEM_SYNTHESIS], 1272 * 1024);
    /* 9 x 4 = 36 records, a ring of 64 from 8: a block of 5120 bytes (5136) and its ring
     * and stream (56): 5192, x 1024 */
    cr_expect_eq(e.term[PZ_SCALE_MEM_WAITING], 5192 * 1024);
    /* a thread (264), 2 x 2 pending of 24 (block 112), its ready item (16), the model's
     * arrays (108), 2 locations (96): 596, x 1024; the unmatched messages' table of
     * 2048 slots of 32 bytes (block 65552) */
    cr_expect_eq(e.term[PZ_SCALE_MEM_ENGINE], 596 * 1024 + 65552);
    /* 20 + 4 = 24 records queued between two collectives, more than the 10 outside
     * them: a block of 1920 (1936), the stream's 60: 1996, x 1024; the pipe's 8 x 512 x
     * 88 = 360448 (block 360464) */
    cr_expect_eq(e.term[PZ_SCALE_MEM_QUEUED], 1996 * 1024 + 360464);
    /* a process (112), its stack (block of 3072: 3088), its arrays (24), 3 x 216 of
     * statistics: 3872, x 1024 */
    cr_expect_eq(e.term[PZ_SCALE_MEM_ANALYSIS], 3872 * 1024);
    /* 2 x 1024 x 2 = 4096 slots of 40 bytes, 1.5 times; 2 messages of 120 (block 144) a
     * process */
    cr_expect_eq(e.term[PZ_SCALE_MEM_CHANNELS], 4096 * 40 * 3 / 2 + 2 * 1024 * 144);
    /* 1024 x 2 sequence numbers of 8; 1024 ranks of 4 in the world's map; 2 x (16 + 3 x
     * 32) of definitions; the world's 1024 members in 2 copies; each process in a
     * collective on the world: 8 + 8 + 4 + 256 + 4 + 512 = 792 bytes */
    cr_expect_eq(e.term[PZ_SCALE_MEM_COMMS], 16384 + 4096 + 224 + 8192 + 1024 * 792);
    cr_expect_eq(e.term[PZ_SCALE_MEM_LISTS], 0);
    cr_expect_eq(e.term[PZ_SCALE_MEM_PAIRS], 0);
    /* a tenth of the run's terms: 1302528 + 5316608 + 675856 + 2404368 + 3964928 +
     * 540672 + 839904 = 15044864, 1504486 */
    cr_expect_eq(e.term[PZ_SCALE_MEM_SLACK], 1504486);
    cr_expect_eq(e.total, 10485760 + 15044864 + 1504486);
}

Test(scale_memory, the_queues_hold_no_more_than_a_process_makes)
{
    struct pz_scale_memory_figures f = plain();
    struct pz_scale_memory_estimate e;

    /* 10 records a process: the waiting ring 16 from 8 (block of 1280: 1296, + 56), the
     * queue 10 of the 20 + 4 bounded, 16 at least (1296 + 60) */
    f.records = 10;
    pz_scale_memory_estimate(&f, &e);
    cr_expect_eq(e.term[PZ_SCALE_MEM_WAITING], 1352 * 1024);
    cr_expect_eq(e.term[PZ_SCALE_MEM_QUEUED], 1356 * 1024 + 360464);
}

Test(scale_memory, without_collectives_on_the_world_the_queue_holds_128_records)
{
    struct pz_scale_memory_figures f = plain();
    struct pz_scale_memory_estimate e;

    /* 18058 records a process and no collective synchronizing the world: 128 records
     * queued, a block of 10240 (10256), + 60 */
    f.records = 18058;
    f.stretch = 0;
    f.loose = 18058;
    pz_scale_memory_estimate(&f, &e);
    cr_expect_eq(e.term[PZ_SCALE_MEM_QUEUED], 10316 * 1024 + 360464);
}

Test(scale_memory, between_collectives_on_the_world_the_queue_holds_a_stretch)
{
    struct pz_scale_memory_figures f = plain();
    struct pz_scale_memory_estimate e;

    /* 390 records between two Allreduce and 10 a step: 400 (a block of 32000: 32016),
     * + 60; 128 outside them would be fewer */
    f.records = 7736;
    f.step_records = 10;
    f.stretch = 390;
    f.loose = 396;
    pz_scale_memory_estimate(&f, &e);
    cr_expect_eq(e.term[PZ_SCALE_MEM_QUEUED], 32076 * 1024 + 360464);
}

/* plain() with an Alltoallv on the world: 2 lists a member of 1024 numbers of 4 digits
 * and a comma, 2 x 1024 counts of each member kept, 64 messages of each in flight. */
static struct pz_scale_memory_figures with_alltoallv(void)
{
    struct pz_scale_memory_figures f = plain();

    f.list_texts = 2048;
    f.list_bytes = 2048 * 1024 * 5;
    f.v_counts = 1024 * 2048;
    f.in_flight = 1024 * 64;
    return f;
}

Test(scale_memory, the_v_collectives_grow_as_the_square_of_their_members)
{
    struct pz_scale_memory_figures f = with_alltoallv();
    struct pz_scale_memory_estimate e;

    pz_scale_memory_estimate(&f, &e);
    /* the texts and a header of 24 each, 3 times: 3 x (10485760 + 49152); 2097152 counts
     * of 8 bytes */
    cr_expect_eq(e.term[PZ_SCALE_MEM_LISTS], 3 * (10485760 + 49152) + 2097152 * 8);
    /* 65536 messages in a table at most half full, 131072 slots of 32, 1.5 times */
    cr_expect_eq(e.term[PZ_SCALE_MEM_PAIRS], 131072 * 32 * 3 / 2);
    /* the run's terms 15044864 + 48381952 + 6291456 = 69718272, a tenth 6971827 */
    cr_expect_eq(e.term[PZ_SCALE_MEM_SLACK], 6971827);
    cr_expect_eq(e.total, 10485760 + 69718272 + 6971827);
}

Test(scale_memory, the_analyses_kept_count_their_statistics)
{
    struct pz_scale_memory_figures f = plain();
    struct pz_scale_memory_estimate e;

    /* 3072 processes of analyses kept, 3 intervals of 216 bytes each */
    f.kept = 3072;
    pz_scale_memory_estimate(&f, &e);
    cr_expect_eq(e.term[PZ_SCALE_MEM_ANALYSIS], 3872 * 1024 + 3072 * 648);
}

Test(scale_memory, the_free_heap_serves_the_run_s_own_thread)
{
    struct pz_scale_memory_figures f = plain();
    struct pz_scale_memory_estimate e;

    /* 4 MiB of the 10 MiB held are free: the synthesis's, the waiting records' and the
     * engine's 1302528 + 5316608 + 675856 = 7294992 bytes take them again */
    f.heap_free = 4194304;
    pz_scale_memory_estimate(&f, &e);
    cr_expect_eq(e.term[PZ_SCALE_MEM_HELD], 10485760 - 4194304);
    /* 8 MiB free: the same thread's allocations take 7294992 of them; the analysis's,
     * on a thread of its own, none */
    f.heap_free = 8388608;
    pz_scale_memory_estimate(&f, &e);
    cr_expect_eq(e.term[PZ_SCALE_MEM_HELD], 10485760 - 7294992);
    cr_expect_eq(e.term[PZ_SCALE_MEM_SLACK], 1504486, "a tenth of the run's terms alone");
}

Test(scale_memory, the_run_needs_no_less_than_the_peak_so_far)
{
    struct pz_scale_memory_figures f = plain();
    struct pz_scale_memory_estimate e;

    /* reading the recordings took 64 MiB at the most, more than the 27035110 bytes of
     * the terms: the peak is the estimate, the terms unchanged */
    f.peak = 64u << 20;
    pz_scale_memory_estimate(&f, &e);
    cr_expect_eq(e.total, 64u << 20);
    cr_expect_eq(e.term[PZ_SCALE_MEM_SLACK], 1504486);
    f.peak = 27035109;
    pz_scale_memory_estimate(&f, &e);
    cr_expect_eq(e.total, 27035110);
}

Test(scale_memory, a_run_fits_up_to_the_bound)
{
    struct pz_scale_memory_figures f = plain();
    struct pz_scale_memory_estimate e;
    struct pz_scale_memory m = { 27035110, "MemAvailable" };
    char msg[320] = "";

    pz_scale_memory_estimate(&f, &e);
    cr_expect_eq(pz_scale_memory_fits(1024, &e, &m, msg, sizeof(msg)), 1);
    cr_expect_str_empty(msg);
    m.bytes--;
    cr_expect_eq(pz_scale_memory_fits(1024, &e, &m, msg, sizeof(msg)), 0);
}

Test(scale_memory, a_run_that_cannot_fit_is_told_with_its_largest_part)
{
    /* 87175859 bytes = 83.14 MiB, of which the lists 48381952 = 46.14 MiB; 50 MiB of
     * address space */
    struct pz_scale_memory_figures f = with_alltoallv();
    struct pz_scale_memory_estimate e;
    struct pz_scale_memory m = { 50u << 20, "ulimit -v" };
    char msg[320];

    pz_scale_memory_estimate(&f, &e);
    cr_assert_eq(pz_scale_memory_fits(1024, &e, &m, msg, sizeof(msg)), 0);
    cr_expect_str_eq(msg, "the run at 1024 processes needs about 83.1 MiB of memory (the "
                          "largest part: 46.1 MiB for the per-peer lists of the v "
                          "collectives), more than the 50.0 MiB available (ulimit -v)");
    cr_expect_null(strchr(msg, '\n'));
}
