/* What a trace says of its recording (trace/defs.h): a node runs oversubscribed when it
 * ran more processes than its known cores; the caveat names the node with the most
 * processes per core and the factor, processes / cores; unknown cores (0) never count. */
#include <criterion/criterion.h>
#include <string.h>

#include "defs.h"

static struct pz_recorded_node nodes[] = {
    { "n1", 4, 4 },    /* 4 / 4 = 1: fits */
    { "n2", 6, 4 },    /* 6 / 4 = 1.5 */
    { "n3", 8, 0 },    /* cores unknown */
    { "n4", 6, 2 },    /* 6 / 2 = 3: the worst */
};

Test(recording, oversubscribed_only_with_more_processes_than_known_cores)
{
    struct pz_recording r = { .nodes = nodes, .nnodes = 1 };
    char line[512];

    cr_expect_eq(pz_recording_oversubscribed(&r), 0, "4 processes on 4 cores");
    cr_expect_eq(pz_recording_caveat(&r, line, sizeof(line)), 0);
    r.nodes = &nodes[2];
    cr_expect_eq(pz_recording_oversubscribed(&r), 0, "8 processes, cores unknown");
    r.nodes = nodes;
    r.nnodes = 2;
    cr_expect_eq(pz_recording_oversubscribed(&r), 1, "6 processes on 4 cores");
}

Test(recording, the_caveat_names_the_worst_node_and_its_factor)
{
    struct pz_recording r = { .nodes = nodes, .nnodes = 4 };
    char line[512];

    cr_assert_eq(pz_recording_caveat(&r, line, sizeof(line)), 1);
    cr_expect(strstr(line, "node n4 ran 6 processes on 2 cores") != NULL, "%s", line);
    cr_expect(strstr(line, "up to 3 times longer") != NULL, "%s", line);
    cr_expect(strchr(line, '\n') == NULL, "one line: %s", line);
}
