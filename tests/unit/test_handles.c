/* The registry of windows and files (wrapper/handles.h): a handle is found while it
 * lives, not after it is freed; a value MPI hands out again is the newer handle's, and
 * freeing an older record of that value leaves the newer one found; each handle is
 * numbered among those made on its communicator.  The identities are "GID LEADER SEQ
 * NAME": MPI_COMM_WORLD has global id 0 and leader 0, MPI_COMM_SELF id 1 and no members
 * (leader -1). */
#include <criterion/criterion.h>
#include <string.h>

#include "comms.h"
#include "handles.h"
#include "singleton.h"

static void up(void)
{
    singleton_up();
    cr_assert_eq(pz_comms_init(), 0);
}

TestSuite(handles, .init = up, .fini = singleton_down);

static struct pz_handles h = { .lock = PTHREAD_MUTEX_INITIALIZER };

Test(handles, freed_values_made_again_are_the_newer_handles)
{
    cr_assert_eq(pz_handles_made(&h, MPI_COMM_WORLD, NULL, 0x10), 0);
    cr_assert_eq(pz_handles_made(&h, MPI_COMM_WORLD, NULL, 0x20), 1);
    cr_assert_eq(pz_handles_find(&h, 0x10), 0);
    cr_assert_eq(pz_handles_find(&h, 0x20), 1);
    pz_handles_freed(&h, 0);
    cr_assert_eq(pz_handles_find(&h, 0x10), PZ_NO_HANDLE);
    cr_assert_eq(pz_handles_made(&h, MPI_COMM_WORLD, NULL, 0x10), 2);
    cr_assert_eq(pz_handles_find(&h, 0x10), 2);
    /* 0x20 made again without its free being seen: the newer is found, and freeing the
       older (already retired) leaves it */
    cr_assert_eq(pz_handles_made(&h, MPI_COMM_WORLD, NULL, 0x20), 3);
    cr_assert_eq(pz_handles_find(&h, 0x20), 3);
    pz_handles_freed(&h, 1);
    cr_assert_eq(pz_handles_find(&h, 0x20), 3);
    pz_handles_freed(&h, 3);
    cr_assert_eq(pz_handles_find(&h, 0x20), PZ_NO_HANDLE);
    cr_assert_eq(pz_handles_count(&h), 4);
}

Test(handles, each_is_numbered_among_those_made_on_its_communicator)
{
    struct pz_strings ids = { 0 };
    const char *want[] = { "0 0 0 a", "1 -1 0 b", "0 0 1 c", "1 -1 1 d" };
    const char *p;

    pz_handles_made(&h, MPI_COMM_WORLD, "a", 1);
    pz_handles_made(&h, MPI_COMM_SELF, "b", 2);
    pz_handles_made(&h, MPI_COMM_WORLD, "c", 3);
    pz_handles_made(&h, MPI_COMM_SELF, "d", 4);
    pz_handles_identities(&h, &ids);
    cr_assert_eq(ids.n, 4);
    p = ids.text;
    for (int i = 0; i < 4; p += strlen(p) + 1, i++)
        cr_assert_str_eq(p, want[i], "identity %d", i);
    free(ids.text);
}
