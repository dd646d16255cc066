/* The assembly of a partial trace (wrapper/assembly.h, wrapper/part.h): a part read
 * back as written, a part cut short refused, and the numbering of communicators and
 * strings of several parts as the unification at finalize would make it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assembly.h"

/* Writes text to a new temporary file whose path goes to path. */
static void write_temp(char *path, const char *text)
{
    int fd;
    FILE *f;

    strcpy(path, "/tmp/test_assembly.XXXXXX");
    fd = mkstemp(path);
    cr_assert(fd >= 0);
    f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
}

static const char *const whole_part =
    "prognoz-part 1\n"
    "rank 1\nsize 2\n"
    "ending MPI_Abort (error code 3)\n"
    "program heat\nlibrary MPICH Version: 4.0.2\ncores 8\n"
    "node a\nnode b\nnode_of_rank 0 1\n"
    "cpu 1\noffset 100 -25 0.5\nclock 9000 1700000000000000000\n"
    "thread 0 26 1000 8000\n"
    "saved 0 4096\n"
    "comm 0 0 2 0 0 0 1\n"
    "comm 2 106 0 0 0\n"
    "comm 77 14 2 0 2 1 0 2 1 1 0\n"
    "list 8,8\n"
    "interval heat.c\\n57\\n2\n"
    "site dir\\\\x.c\\n9\\n0\n"
    "iohandle 0 0 0 /tmp/out file\n"
    "window 0 0 1 \n"
    "end\n";

Test(part, reads_back_every_line)
{
    char path[64], err[256];
    struct pz_part p;

    write_temp(path, whole_part);
    cr_assert_eq(pz_part_read(path, &p, err, sizeof(err)), 0, "%s", err);
    unlink(path);
    cr_expect_eq(p.rank, 1);
    cr_expect_eq(p.size, 2);
    cr_expect_str_eq(p.ending, "MPI_Abort (error code 3)");
    cr_expect_str_eq(p.program, "heat");
    cr_expect_str_eq(p.library, "MPICH Version: 4.0.2");
    cr_expect_eq(p.cores, 8);
    cr_assert_eq(p.nodes.n, 2);
    cr_expect_str_eq(p.nodes.s[1], "b");
    cr_expect_eq(p.node_of_rank[1], 1);
    cr_expect_eq(p.cpu, 1);
    cr_expect_eq(p.offset_time, 100);
    cr_expect_eq(p.offset, -25);
    cr_expect_eq(p.clock_now, 9000);
    cr_assert_eq(p.nthreads, 1);
    cr_expect_eq(p.threads[0].events, 26);
    cr_expect_eq(p.threads[0].last, 8000);
    cr_expect_eq(p.threads[0].saved, 4096);
    cr_assert_eq(p.ncomms, 3);
    /* world: members 0 1; unknown: no members; a 2x1 Cartesian communicator of ranks
     * 1 0, periodic in its first dimension only */
    cr_expect_eq(p.comms[0].members[1], 1);
    cr_expect_null(p.comms[1].members);
    cr_expect_eq(p.comms[1].creator, 106);
    cr_expect_eq(p.comms[2].gid, 77);
    cr_expect_eq(p.comms[2].members[0], 1);
    cr_expect_eq(p.comms[2].ndims, 2);
    cr_expect_eq(p.comms[2].cart[0], 2);
    cr_expect_eq(p.comms[2].cart[1], 1);
    cr_expect_eq(p.comms[2].cart[2], 1);
    cr_expect_eq(p.comms[2].cart[3], 0);
    cr_assert_eq(p.lists.n, 1);
    cr_expect_str_eq(p.intervals.s[0], "heat.c\n57\n2");
    cr_expect_str_eq(p.sites.s[0], "dir\\x.c\n9\n0");
    cr_assert_eq(p.io_handles.n, 1);
    cr_expect_str_eq(p.io_handles.s[0], "0 0 0 /tmp/out file");
    cr_assert_eq(p.windows.n, 1);
    cr_expect_str_eq(p.windows.s[0], "0 0 1 ");
    pz_part_free(&p);
}

Test(part, refuses_a_part_cut_short)
{
    char path[64], err[256], *cut = strdup(whole_part);
    struct pz_part p;

    /* everything but the final "end\n" */
    cut[strlen(cut) - 4] = '\0';
    write_temp(path, cut);
    cr_expect_eq(pz_part_read(path, &p, err, sizeof(err)), -1);
    cr_expect(strstr(err, path) != NULL, "the message names the file: %s", err);
    unlink(path);
    free(cut);
}

static char *lists0[] = { "8,8", "4,4" }, *lists1[] = { "4,4", "2,2" };
/* a file both opened on world, then one rank 1 opened alone on self; a window each */
static char *files0[] = { "0 0 0 a.dat" }, *files1[] = { "0 0 0 a.dat", "1 1 0 b.dat" };
static char *windows0[] = { "0 0 0 " }, *windows1[] = { "0 0 0 " };
static int world[] = { 0, 1, 2 }, pair[] = { 1, 2 };

Test(assembly, numbers_as_the_finalize_unification)
{
    /* rank 0 knows world, self, unknown and 7; rank 1 world, self, unknown and 5;
     * rank 2 left nothing */
    struct pz_comm_info c0[] = { { .gid = 0, .size = 3, .members = world }, { .gid = 1 },
                                 { .gid = 2 }, { .gid = 7 } };
    struct pz_comm_info c1[] = { { .gid = 0, .size = 3, .members = world }, { .gid = 1 },
                                 { .gid = 2 }, { .gid = 5, .size = 2, .creator = 9,
                                                 .members = pair } };
    struct pz_part parts[3] = {
        { .ending = "exit", .comms = c0, .ncomms = 4, .lists = { lists0, 2 },
          .io_handles = { files0, 1 }, .windows = { windows0, 1 } },
        { .ending = "exit", .comms = c1, .ncomms = 4, .lists = { lists1, 2 },
          .io_handles = { files1, 2 }, .windows = { windows1, 1 } },
        { 0 } };
    struct pz_assembly a;

    cr_assert_eq(pz_assembly_unify(parts, 3, &a), 0);
    /* gids sorted: 0 1 2 5 7 */
    cr_assert_eq(a.ncomms, 5);
    cr_expect_eq(a.comm_maps[0][3], 4);
    cr_expect_eq(a.comm_maps[1][3], 3);
    cr_expect_null(a.comm_maps[2]);
    cr_expect_eq(a.comms[3].gid, 5);
    cr_expect_eq(a.comms[3].creator, 9);
    cr_expect_eq(a.comms[3].members, pair);
    /* 7 is described by nobody: members unknown */
    cr_expect_null(a.comms[4].members);
    /* lists in order of first appearance, rank 0's first: 8,8 4,4 2,2 */
    cr_assert_eq(a.lists.nall, 3);
    cr_expect_str_eq(a.lists.all[2], "2,2");
    cr_expect_eq(a.lists.maps[0][1], 1);
    cr_expect_eq(a.lists.maps[1][0], 1);
    cr_expect_eq(a.lists.maps[1][1], 2);
    cr_expect_eq(a.intervals.nall, 0);
    /* handles and windows like the lists: a.dat is one handle of both, b.dat rank 1's
     * second; the window is one of both */
    cr_assert_eq(a.io_handles.nall, 2);
    cr_expect_eq(a.io_handles.maps[0][0], 0);
    cr_expect_eq(a.io_handles.maps[1][0], 0);
    cr_expect_eq(a.io_handles.maps[1][1], 1);
    cr_expect_str_eq(a.io_handles.all[1], "1 1 0 b.dat");
    cr_assert_eq(a.windows.nall, 1);
    cr_expect_eq(a.windows.maps[1][0], 0);
    pz_assembly_free(&a);
}
