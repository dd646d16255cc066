/* The int-count sibling of a large-count form's name (large_count.h). */
#include <string.h>

#include "calls_gen.h"
#include "large_count.h"

int pz_int_count_form(const char *name, char *form, size_t size)
{
    size_t len = strlen(name);

    if (len > 2 && !strcmp(name + len - 2, "_c"))
        len -= 2;
    if (len >= size)
        return -1;
    memcpy(form, name, len);
    form[len] = '\0';
    return 0;
}

int pz_call_named(const char *name)
{
    for (int id = 0; name && id < PZ_NCALLS; id++)
        if (!strcmp(pz_calls[id].name, name))
            return id;
    return -1;
}

int pz_int_form_call(const char *name)
{
    char form[64];

    return name && pz_int_count_form(name, form, sizeof(form)) == 0 ? pz_call_named(form) : -1;
}
