/* The int-count sibling of a large-count form's name (large_count.h). */
#include <string.h>

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
