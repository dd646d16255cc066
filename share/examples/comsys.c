/* comsys: the predictor's model of MPI communication used on its own, without a trace
 * (docs/comsys.md): how long do a ping-pong of growing messages and an allreduce take
 * on a machine?
 *
 *   comsys MACHINE-FILE
 *
 * Rank 0 sends to rank 1, which answers as soon as its receive completes; each round
 * starts when the previous answer has arrived.  Prints, per message size, the half
 * round-trip time the model predicts (eager or rendezvous by the machine's threshold),
 * then the time of an 8-byte allreduce of 8 processes that all enter it at once, with
 * the machine's MPI's algorithm. */
#include <stdio.h>

#include "comsys.h"

/* Returns when the last answer has arrived. */
static double ping_pong(struct pz_comsys *cs)
{
    double now = 0;

    printf("%-10s %14s\n", "bytes", "half RTT (us)");
    for (double bytes = 1; bytes <= 1 << 22; bytes *= 4) {
        double start = now;
        int ping, pong;

        /* both receives are posted when the round starts */
        pz_comsys_send(cs, 0, 1, 0, 0, bytes, PZ_SEND_STANDARD, now);
        ping = pz_comsys_recv(cs, 1, 0, 0, 0, now);
        pong = pz_comsys_recv(cs, 0, 1, 0, 0, now);
        /* rank 1 answers when the ping has arrived: run the model until then */
        pz_comsys_send(cs, 1, 0, 0, 0, bytes, PZ_SEND_STANDARD,
                       pz_comsys_wait(cs, 1, &ping, now));
        now = pz_comsys_wait(cs, 1, &pong, now);
        printf("%-10.0f %14.3f\n", bytes, (now - start) / 2 * 1e6);
    }
    return now;
}

static void allreduce(struct pz_comsys *cs, double start)
{
    int procs[8], parts[8], comm;
    struct pz_coll c = { .op = PZ_COLL_ALLREDUCE, .size = 8, .bytes = 8 };

    for (int i = 0; i < 8; i++)
        procs[i] = i;
    comm = pz_comsys_comm(cs, 8, procs);
    for (c.me = 0; c.me < 8; c.me++)
        parts[c.me] = pz_comsys_collective(cs, comm, &c, start);
    printf("allreduce of 8 B on 8 processes: %.3f us\n",
           (pz_comsys_wait(cs, 8, parts, start) - start) * 1e6);
}

int main(int argc, char **argv)
{
    struct pz_machine m;
    struct pz_comsys *cs;
    char err[512];

    if (argc != 2) {
        fprintf(stderr, "usage: comsys MACHINE-FILE\n");
        return 2;
    }
    pz_machine_defaults(&m);
    if (pz_machine_load(argv[1], &m, err, sizeof(err)) != 0) {
        fprintf(stderr, "comsys: %s\n", err);
        return 1;
    }
    m.procs_per_node = 1;   /* every process on a node of its own */
    if (!(cs = pz_comsys_new(&m, 8)))
        return 1;
    allreduce(cs, ping_pong(cs));
    pz_comsys_free(cs);
    return 0;
}
