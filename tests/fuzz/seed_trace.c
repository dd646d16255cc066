/* The seed trace of seed_trace.h: two processes with an interval, point-to-point calls,
 * a collective on MPI_COMM_WORLD and one on a communicator of its own, and a call site,
 * so that the definitions it writes touch every kind the reader classifies. */
#include <stdio.h>
#include <otf2/otf2.h>

#include "analysis.h"
#include "seed_trace.h"
#include "trace_builder.h"

int pz_fuzz_seed_trace(const char *dir)
{
    static const int both[] = { 0, 1 };
    struct tb *b = tb_open(dir, 2);
    uint32_t interval, comm, site, send;

    if (!b)
        return -1;
    interval = tb_interval(b, 1, "seed.c", 10);
    comm = tb_comm(b, "pair", 2, both);
    site = tb_site(b, "seed.c", 12);
    send = tb_mpi(b, "MPI_Send");
    for (int p = 0; p < 2; p++) {
        tb_call(b, p, "MPI_Init", 0, TB_MS(1));
        tb_enter(b, p, TB_MS(1), interval);
    }
    tb_enter_site(b, 0, TB_MS(2), send, site);
    tb_mpi_send(b, 0, TB_MS(2), TB_WORLD, 1, 7, 8);
    tb_leave(b, 0, TB_MS(3), send);
    tb_recv_call(b, 1, "MPI_Recv", TB_MS(2), TB_MS(4), TB_WORLD, 0, 7);
    for (int p = 0; p < 2; p++) {
        tb_collective_call(b, p, "MPI_Barrier", TB_MS(5), TB_MS(6), OTF2_COLLECTIVE_OP_BARRIER,
                           TB_WORLD, TB_NO_ROOT);
        tb_collective_call(b, p, "MPI_Allreduce", TB_MS(6), TB_MS(7),
                           OTF2_COLLECTIVE_OP_ALLREDUCE, comm, TB_NO_ROOT);
        tb_leave(b, p, TB_MS(8), interval);
        tb_call(b, p, "MPI_Finalize", TB_MS(8), TB_MS(9));
    }
    return tb_close(b);
}

int pz_fuzz_read_defs(const char *dir, const unsigned char *data, size_t len)
{
    char path[4096], err[1024];
    struct pz_analysis a;
    FILE *f;

    snprintf(path, sizeof(path), "%s/traces.def", dir);
    if (!(f = fopen(path, "wb")))
        return -1;
    if (fwrite(data, 1, len, f) != len) {
        fclose(f);
        return -1;
    }
    if (fclose(f) != 0)
        return -1;
    if (pz_analyze(dir, &a, err, sizeof(err)) == 0)
        pz_analysis_free(&a);
    return 0;
}
