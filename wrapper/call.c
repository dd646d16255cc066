/* Finishing a traced call: its record goes to the thread's buffer. */
#include "hooks.h"

int pz_call_leave(struct pz_call *c)
{
    struct pz_thread *t = c->thread;
    struct pz_record r = { .enter = c->enter, .leave = c->leave ? c->leave : pz_now(),
                           .call = (uint16_t)c->id, .nitems = (uint16_t)t->nitems };

    if (c->requests || c->statuses)
        pz_call_release_requests(c);
    pz_thread_commit(t, &r);
    t->busy = 0;
    return c->ret;
}
