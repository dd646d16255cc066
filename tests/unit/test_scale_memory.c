/* The memory a run of prognoz scale needs against the memory it may take
 * (replay/scale_memory.h). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "scale_memory.h"

Test(scale_memory, the_estimate_is_64_kib_a_process)
{
    /* 2^22 processes x 2^16 bytes = 2^38 bytes, 256 GiB */
    cr_expect_eq(pz_scale_memory_needed(4194304), (uint64_t)1 << 38);
    /* 16384 x 65536 = 2^14 x 2^16 = 2^30, 1 GiB */
    cr_expect_eq(pz_scale_memory_needed(16384), (uint64_t)1 << 30);
    cr_expect_eq(pz_scale_memory_needed(1), 65536);
    cr_expect_eq(pz_scale_memory_needed(0), 0);
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

Test(scale_memory, a_count_fits_up_to_the_bound)
{
    /* 8 GiB = 2^33 bytes hold 2^33 / 2^16 = 2^17 = 131072 processes exactly */
    struct pz_scale_memory m = { (uint64_t)8 << 30, "MemAvailable" };
    char msg[256] = "";

    cr_expect_eq(pz_scale_memory_fits(16384, &m, msg, sizeof(msg)), 1);
    cr_expect_eq(pz_scale_memory_fits(131072, &m, msg, sizeof(msg)), 1);
    cr_expect_str_empty(msg);
    cr_expect_eq(pz_scale_memory_fits(131073, &m, msg, sizeof(msg)), 0);
}

Test(scale_memory, a_count_that_cannot_fit_is_told_on_one_line)
{
    /* 4194304 processes need 2^38 bytes = 256.0 GiB; 22528000000 bytes available are
     * 22528000000 / 2^30 = 20.98 GiB, written 21.0 */
    struct pz_scale_memory m = { 22528000000ull, "MemAvailable" };
    char msg[256];

    cr_assert_eq(pz_scale_memory_fits(4194304, &m, msg, sizeof(msg)), 0);
    cr_expect_str_eq(msg, "the run at 4194304 processes needs about 256.0 GiB of memory "
                          "(64 KiB a process), more than the 21.0 GiB available (MemAvailable)");
    cr_expect_null(strchr(msg, '\n'));
}

Test(scale_memory, a_small_bound_is_written_in_mib)
{
    /* 1000 processes need 65536000 bytes = 62.5 MiB; 32 MiB = 33554432 bytes */
    struct pz_scale_memory m = { 33554432, "ulimit -v" };
    char msg[256];

    cr_assert_eq(pz_scale_memory_fits(1000, &m, msg, sizeof(msg)), 0);
    cr_expect_str_eq(msg, "the run at 1000 processes needs about 62.5 MiB of memory "
                          "(64 KiB a process), more than the 32.0 MiB available (ulimit -v)");
}
