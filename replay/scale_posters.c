/* The posters of completions in steps rewritten into other symbols (scale_program_int.h,
 * sp_poster_at, sp_repost): sp_tag_loops and sp_xor_rewrite replace the iterations of a
 * run by the same symbols, and a completion names the step that posted its request by
 * that step's symbol (struct sp_event.poster_sym).  A completion after the run (one
 * MPI_Wait per stage after a butterfly's loop), or in the run's next iteration, must
 * then name the rewritten symbol, or the template finds no poster and the completion
 * is linked to no request. */
#include "scale_program_int.h"

size_t sp_poster_at(const uint32_t *orig, size_t from, size_t x, uint32_t poster)
{
    for (size_t j = x; poster != SP_NONE && j-- > from;)
        if (orig[j] == poster)
            return j;
    return (size_t)SP_NONE;
}

int sp_repost(const struct sp_table *t, const uint32_t *orig, const uint32_t *syms,
              size_t from, size_t x, struct sp_event *ev)
{
    const struct sp_sym *s = &t->syms[orig[x]];
    int moved = 0;

    for (uint32_t i = 0; s->kind == SP_STEP && i < s->n; i++) {
        uint32_t poster = t->events[s->first + i].poster_sym;
        size_t j = sp_poster_at(orig, from, x, poster);

        ev[i].poster_sym = j == (size_t)SP_NONE ? poster : syms[j];
        moved |= ev[i].poster_sym != poster;
    }
    return moved;
}

uint32_t sp_run_poster(const uint32_t *orig, const uint32_t *syms, size_t at, size_t q,
                       const uint32_t *done, uint32_t poster)
{
    size_t j = sp_poster_at(orig, 0, at + q, poster);

    if (j == (size_t)SP_NONE)
        return poster;
    if (j >= at && j - at >= q)
        return SP_UNNAMED;
    return j >= at ? done[j - at] : syms[j];
}
