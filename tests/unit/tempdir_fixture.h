/* What the tests that write hand-built traces into a temporary directory share: the
 * directory, made before each test and removed after it, and an error message buffer
 * cleared before each.  Each test file including it gets its own copy; it declares
 * TestSuite(NAME, .init = setup, .fini = cleanup). */
#ifndef PZ_TEST_TEMPDIR_FIXTURE_H
#define PZ_TEST_TEMPDIR_FIXTURE_H

#include <criterion/criterion.h>
#include <stdlib.h>

#include "trace_builder.h"

static char *top;
static char err[1024];

static void setup(void)
{
    top = tb_tempdir();
    cr_assert_not_null(top, "cannot make a temporary directory");
    err[0] = '\0';
}

static void cleanup(void)
{
    tb_remove(top);
    free(top);
    top = NULL;
}

#endif
