# Receives from MPI_ANY_SOURCE marked and scaled (programs/anycollect.c at 2, 3 and 4
# ranks): rank 0's MPI_Recv and MPI_Irecv from MPI_ANY_SOURCE carry the attribute
# prognoz:any_source, 3 steps of P - 1 receives and P - 1 nonblocking ones (8 at 3
# ranks); prognoz scale takes them as receives from any source and synthesizes at 16
# ranks P - 1 = 15 of each per step, from 1, 2, ... 15 in turn, each worker sending 4
# messages to rank 0.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program anycollect) || exit 77
test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"

PZ_ENV="PROGNOZ_CPU_TIME=1"
for n in 2 3 4; do
    pz_record_ok any$n $n "$prog"
done

pz_print "$PZ_WORK/any3.print" "$PZ_WORK/any3/traces.otf2"
pz_expect_eq "receives marked at 3 ranks" 8 \
    "$(grep -c '"prognoz:any_source" <[0-9]*>; UINT8; 1)' "$PZ_WORK/any3.print")"
pz_expect_eq "marked receives are rank 0's MPI_IRECV and MPI_RECV" "2 MPI_IRECV;6 MPI_RECV;" \
    "$(awk '$1 ~ /^MPI_I?RECV$/ { kind = $1; loc = $2 }
            /"prognoz:any_source"/ { print loc, kind }' "$PZ_WORK/any3.print" |
       sort | uniq -c | awk '$2 == 0 { printf "%s %s;", $1, $3 }')"

pz_scale_traced any2 any3 any4
pz_print "$PZ_WORK/synth16.print" "$PZ_WORK/synth/P16/traces.otf2"
# rank 0: per step 15 receives, then the broadcast; then 15 nonblocking receives; the
# senders 1 ... 15 in turn
pz_expect_eq "rank 0's receives at 16" "15 MPI_RECV;1 B;15 MPI_RECV;1 B;15 MPI_RECV;1 B;15 MPI_IRECV;" \
    "$(awk '$2 == 0 && ($1 ~ /^MPI_I?RECV$/ || $1 == "MPI_COLLECTIVE_END") {
               print ($1 == "MPI_COLLECTIVE_END" ? "B" : $1) }' "$PZ_WORK/synth16.print" |
       uniq -c | awk '{ printf "%s %s;", $1, $2 }')"
pz_expect_eq "their senders" "$(for i in 1 2 3 4; do seq 1 15; done | tr '\n' ' ')" \
    "$(awk '$2 == 0 && $1 ~ /^MPI_I?RECV$/ { print $5 }' "$PZ_WORK/synth16.print" | tr '\n' ' ')"
pz_expect_eq "messages to rank 0 at 16" 60 \
    "$(awk '$1 == "MPI_SEND" && $5 == 0' "$PZ_WORK/synth16.print" | wc -l | tr -d ' ')"
