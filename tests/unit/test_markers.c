/* Interval markers: which boundaries a sequence of marker halves produces, by hand. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "markers.h"

#define BEGIN(id) ((int)(0xAA0000AAu | (unsigned)(id) << 8))
#define END(id) ((int)(0xAA0000BBu | (unsigned)(id) << 8))
#define BEGIN_SEQ(id) ((int)(0xAA0000CCu | (unsigned)(id) << 8))

static struct pz_thread thread;

static void fresh_thread(void)
{
    thread.cap = 1 << 16;
    thread.buf = malloc(thread.cap);
    thread.items_cap = 8;
    thread.items = malloc(thread.items_cap * sizeof(struct pz_item));
}

TestSuite(markers, .init = fresh_thread);

/* A marker pair as the header issues it: the send marks, the receive is swallowed. */
static void pair(int tag, uint64_t when, uintptr_t site)
{
    pz_marker(&thread, tag, when, site);
    pz_marker(&thread, tag, when + 1, site + 100);
}

/* The boundary records written so far, as "B<interval>@<time>" / "E<interval>@<time>". */
static void expect(const char *want)
{
    char got[512] = "";
    size_t pos = 0, len = 0;

    while (pos < thread.used) {
        const struct pz_record *r = (const struct pz_record *)(thread.buf + pos);

        len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%c%u@%lu", len ? " " : "",
                                r->call == PZ_RECORD_BEGIN ? 'B' : 'E', r->aux,
                                (unsigned long)r->enter);
        pos += pz_record_size(r);
    }
    cr_assert_str_eq(got, want);
}

Test(markers, tags_are_recognised_exactly)
{
    cr_assert(pz_is_marker_tag(BEGIN(0)));
    cr_assert(pz_is_marker_tag(END(65535)));
    cr_assert(pz_is_marker_tag(BEGIN_SEQ(1)));
    cr_assert_not(pz_is_marker_tag(0xAA0001CD));
    cr_assert_not(pz_is_marker_tag(0xAA0001DD));
    cr_assert_not(pz_is_marker_tag(MPI_ANY_TAG));
    cr_assert_not(pz_is_marker_tag(0x0A0001AA));
    cr_assert_not(pz_is_marker_tag(42));
}

Test(markers, nested_intervals_and_repeated_executions)
{
    pair(BEGIN(1), 10, 0x1000);
    for (int i = 0; i < 2; i++) {
        pair(BEGIN(2), 20 + 10 * i, 0x2000);
        pair(END(2), 25 + 10 * i, 0x2100);
    }
    pair(END(1), 50, 0x1100);
    expect("B0@10 B1@20 E1@25 B1@30 E1@35 E0@50");
    cr_assert_eq(pz_markers_count(), 2, "interval 2 executed twice is one interval");
    cr_assert_eq(pz_markers_id(1), 2);
    cr_assert_eq(pz_markers_site(1), 0x2000);
}

/* A sequential begin is a begin like the others, ended by the usual end; the same id
 * begun at the same site once as sequential and once not is two intervals. */
Test(markers, sequential_intervals_are_intervals_of_their_own_kind)
{
    pair(BEGIN_SEQ(3), 10, 0x1000);
    pair(END(3), 20, 0x1100);
    pair(BEGIN(3), 30, 0x1000);
    pair(END(3), 40, 0x1100);
    pair(BEGIN_SEQ(3), 50, 0x1000);
    pair(END(3), 60, 0x1100);
    expect("B0@10 E0@20 B1@30 E1@40 B0@50 E0@60");
    cr_assert_eq(pz_markers_count(), 2);
    cr_assert(pz_markers_sequential(0));
    cr_assert_not(pz_markers_sequential(1));
    cr_assert_eq(pz_markers_id(0), 3);
    cr_assert_eq(pz_markers_site(0), 0x1000);
}

Test(markers, one_id_at_two_places_is_two_intervals)
{
    pair(BEGIN(7), 1, 0x1000);
    pair(END(7), 2, 0x1100);
    pair(BEGIN(7), 3, 0x3000);
    pair(END(7), 4, 0x3100);
    expect("B0@1 E0@2 B1@3 E1@4");
}

Test(markers, an_outer_end_ends_the_inner_intervals)
{
    const struct pz_misuse_note *notes;

    pair(BEGIN(1), 1, 0x1000);
    pair(BEGIN(2), 2, 0x2000);
    pair(BEGIN(3), 3, 0x3000);
    pair(END(1), 4, 0x1100);
    expect("B0@1 B1@2 B2@3 E2@4 E1@4 E0@4");
    cr_assert_eq(pz_markers_misuses(&notes), 2);
    cr_assert_eq(notes[0].kind, PZ_MISUSE_END_SKIPS);
    cr_assert_eq(notes[0].site, 0x1100);
    cr_assert_eq(notes[0].interval, 2, "interval 3 was ended by the end of 1");
    cr_assert_eq(notes[1].interval, 1);
}

Test(markers, an_end_of_nothing_open_is_ignored)
{
    const struct pz_misuse_note *notes;

    pair(END(4), 1, 0x4100);
    pair(BEGIN(1), 2, 0x1000);
    pair(END(9), 3, 0x9100);
    pair(END(1), 4, 0x1100);
    expect("B0@2 E0@4");
    cr_assert_eq(pz_markers_misuses(&notes), 2);
    cr_assert_eq(notes[0].kind, PZ_MISUSE_END_UNOPENED);
    cr_assert_eq(notes[0].id, 4);
    cr_assert_eq(notes[1].site, 0x9100);
}

Test(markers, intervals_open_at_the_end_are_closed_innermost_first)
{
    const struct pz_misuse_note *notes;

    pair(BEGIN(1), 1, 0x1000);
    pair(BEGIN(2), 2, 0x2000);
    pz_markers_close_all(&thread, 9);
    expect("B0@1 B1@2 E1@9 E0@9");
    cr_assert_eq(pz_markers_misuses(&notes), 2);
    cr_assert_eq(notes[0].kind, PZ_MISUSE_OPEN_AT_END);
    cr_assert_eq(notes[0].id, 2);
    cr_assert_eq(notes[1].site, 0x1000, "reported at its begin marker");
}

Test(markers, a_library_marker_takes_the_call_site_given_for_it)
{
    thread.next_site = 0x5000;
    pair(BEGIN(1), 1, 0x7777);
    cr_assert_eq(pz_markers_site(0), 0x5000);
    cr_assert_eq(thread.next_site, 0, "only for that marker");
}
