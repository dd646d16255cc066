/* GNU-style "--option=value" (tools/long_options.h): split in two before a command's
 * parser sees it, at the first '=' only; short options, lone "--", "--=x" and everything
 * after "--" (the command prognoz record runs) left as they are; argv[0] never split. */
#include <criterion/criterion.h>
#include <string.h>

#include "long_options.h"

/* Splits args and expects want, both NULL-terminated. */
static void expect_split(char **args, const char *const *want)
{
    int argc = 0, n = 0, got;
    char **out;

    while (args[argc])
        argc++;
    while (want[n])
        n++;
    out = pz_split_long_options(argc, args, &got);
    cr_assert_not_null(out);
    cr_assert_eq(got, n, "%d arguments, expected %d", got, n);
    for (int i = 0; i < n; i++)
        cr_expect_str_eq(out[i], want[i], "argument %d", i);
    cr_expect_null(out[n]);
}

Test(long_options, option_and_value_split_at_the_first_equals_sign)
{
    char *args[] = { "predict", "run", "--machine=gigabit-switch", "--coll=allgather=bruck",
                     "--format", "json", NULL };
    const char *const want[] = { "predict", "run", "--machine", "gigabit-switch", "--coll",
                                 "allgather=bruck", "--format", "json", NULL };

    expect_split(args, want);
}

Test(long_options, an_empty_value_is_a_value)
{
    char *args[] = { "report", "--format=", "run", NULL };
    const char *const want[] = { "report", "--format", "", "run", NULL };

    expect_split(args, want);
}

Test(long_options, short_options_and_words_with_equals_signs_stay)
{
    char *args[] = { "--x=y", "-o=file", "a=b", "--=c", NULL };
    const char *const want[] = { "--x=y", "-o=file", "a=b", "--=c", NULL };

    expect_split(args, want);
}

Test(long_options, nothing_after_a_double_dash)
{
    char *args[] = { "record", "-o", "run", "--", "env", "--opt=1", NULL };
    const char *const want[] = { "record", "-o", "run", "--", "env", "--opt=1", NULL };

    expect_split(args, want);
}
