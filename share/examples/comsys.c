/* comsys: the predictor's model of MPI point-to-point communication used on its own,
 * without a trace: how long does a ping-pong of growing messages take on a machine?
 *
 *   comsys MACHINE-FILE
 *
 * Rank 0 sends to rank 1, which answers as soon as its receive completes; each round
 * starts when the previous answer has arrived.  Prints, per message size, the half
 * round-trip time the model predicts, eager or rendezvous by the machine's threshold. */
#include <stdio.h>

#include "comsys.h"

int main(int argc, char **argv)
{
    struct pz_machine m;
    struct pz_comsys *cs;
    char err[512];
    double now = 0;

    if (argc != 2) {
        fprintf(stderr, "usage: comsys MACHINE-FILE\n");
        return 2;
    }
    pz_machine_defaults(&m);
    if (pz_machine_load(argv[1], &m, err, sizeof(err)) != 0) {
        fprintf(stderr, "comsys: %s\n", err);
        return 1;
    }
    m.procs_per_node = 1;   /* the two ranks on two nodes */
    if (!(cs = pz_comsys_new(&m, 2)))
        return 1;
    printf("%-10s %14s\n", "bytes", "half RTT (us)");
    for (double bytes = 1; bytes <= 1 << 22; bytes *= 4) {
        double start = now;
        int ping, pong;

        pz_comsys_send(cs, 0, 1, 0, 0, bytes, 0, now);
        ping = pz_comsys_recv(cs, 1, 0, 0, 0, now);
        pz_comsys_send(cs, 1, 0, 0, 0, bytes, 0, pz_comsys_done(cs, ping));
        pong = pz_comsys_recv(cs, 0, 1, 0, 0, now);
        now = pz_comsys_done(cs, pong);
        printf("%-10.0f %14.3f\n", bytes, (now - start) / 2 * 1e6);
    }
    pz_comsys_free(cs);
    return 0;
}
