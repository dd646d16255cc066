/* One version everywhere: the VERSION file's version= line, the macros of the installed
 * headers configured from it, and what the library says at run time. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "comsys_version.h"
#include "prognoz.h"

#define SPELL_(x) #x
#define SPELL(x) SPELL_(x)

/* The value of the version= line of VERSION, as configure.ac reads it. */
static void version_of_file(char *out, size_t len)
{
    FILE *f = fopen(PZ_VERSION_FILE, "r");
    char line[256];

    cr_assert_not_null(f, "cannot open %s", PZ_VERSION_FILE);
    out[0] = '\0';
    while (fgets(line, sizeof(line), f))
        if (strncmp(line, "version=", 8) == 0) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(out, len, "%s", line + 8);
        }
    fclose(f);
    cr_assert_neq(out[0], '\0', "%s has no version= line", PZ_VERSION_FILE);
}

Test(version, the_numbers_spell_the_version_string)
{
    cr_assert_str_eq(PZ_COMSYS_VERSION, SPELL(PZ_COMSYS_VERSION_MAJOR) "."
                     SPELL(PZ_COMSYS_VERSION_MINOR) "." SPELL(PZ_COMSYS_VERSION_PATCH));
}

Test(version, the_headers_have_the_version_of_the_file)
{
    char file[256];

    version_of_file(file, sizeof(file));
    cr_assert_str_eq(PZ_COMSYS_VERSION, file);
}

Test(version, the_library_runs_with_the_version_of_its_headers)
{
    cr_assert_str_eq(pz_comsys_version(), PZ_COMSYS_VERSION);
}

/* prognoz.h has MAJOR and MINOR only: the file's version begins with them. */
Test(version, prognoz_h_has_the_major_and_minor_of_the_file)
{
    char file[256], prefix[32];

    version_of_file(file, sizeof(file));
    snprintf(prefix, sizeof(prefix), "%d.%d.", PROGNOZ_VERSION_MAJOR, PROGNOZ_VERSION_MINOR);
    cr_assert(strncmp(file, prefix, strlen(prefix)) == 0, "VERSION has %s, prognoz.h %s",
              file, prefix);
}
