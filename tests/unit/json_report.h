/* The JSON report of an analysis (pz_report_json, per process) as a string to free:
 * what the tests that compare two analyses byte for byte print.  Each test file
 * including it gets its own copy. */
#ifndef PZ_TEST_JSON_REPORT_H
#define PZ_TEST_JSON_REPORT_H

#include <criterion/criterion.h>
#include <stdio.h>

#include "analysis.h"
#include "report.h"

static char *json_of(const struct pz_analysis *a)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    cr_assert_not_null(f);
    cr_assert_eq(pz_report_json(f, a, 1), 0);
    fclose(f);
    return text;
}

#endif
