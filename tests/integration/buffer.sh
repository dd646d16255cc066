# A small record buffer (PROGNOZ_BUFFER=64K, programs/buffer.c: 5000 Sendrecv calls per
# rank): the buffer is written out several times, each time marked by a BUFFER_FLUSH
# event between calls, and no call is lost.  A size out of range (below 64K, above 4G,
# negative) gives one warning for the job and the default buffer of 64M: the run is
# recorded whole, with no flush.  Checkpoints are off (PROGNOZ_FLUSH_INTERVAL=0): on a
# loaded machine a run lasting more than their 10 s would show one as a flush.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

ROUNDS=5000
prog=$(pz_program buffer) || exit 77
PZ_ENV=PROGNOZ_BUFFER=64K pz_record_ok buffer 2 "$prog"
pz_trace buffer

W='Communicator: "MPI_COMM_WORLD"'
for r in 0 1; do
    p=$((1 - r))
    pz_calls buffer $r >"$PZ_WORK/calls.$r"
    flushes=$(grep -c '^! BUFFER_FLUSH' "$PZ_WORK/calls.$r")
    test "$flushes" -ge 3 || pz_fail "rank $r: $flushes buffer flushes, expected at least 3"
    grep '^! ' "$PZ_WORK/calls.$r" | grep -v '^! BUFFER_FLUSH Stop Time: T$' >&2 &&
        pz_fail "rank $r: unexpected events outside calls (above)"
    {
        printf '%s\n' MPI_Init MPI_Comm_rank MPI_Comm_size
        awk -v n=$ROUNDS -v p=$p -v w="$W" 'BEGIN {
            for (i = 0; i < n; i++)
                printf "MPI_Sendrecv | MPI_SEND Receiver: %d, %s, Tag: %d, Length: %d | MPI_RECV Sender: %d, %s, Tag: %d, Length: %d\n",
                    p, w, i % 100, 4 * (i % 7 + 1), p, w, i % 100, 4 * (i % 7 + 1)
        }'
        echo "MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BARRIER, $W, Root: NONE, Sent: 0, Received: 0"
        echo MPI_Finalize
    } >"$PZ_WORK/expected.$r"
    grep -v '^! BUFFER_FLUSH' "$PZ_WORK/calls.$r" | diff -u "$PZ_WORK/expected.$r" - >&2 ||
        pz_fail "rank $r: the calls differ from what is expected (- expected, + recorded)"
done

for size in -5 1000G 4K; do
    PZ_ENV="PROGNOZ_BUFFER=$size PROGNOZ_FLUSH_INTERVAL=0" pz_record badsize 2 "$prog" ||
        pz_fail "PROGNOZ_BUFFER=$size: the traced job exited with status $?"
    warning="prognoz: warning: PROGNOZ_BUFFER='$size' is not a size from 64K to 4G; using 64M"
    grep -v '^prognoz: recorded [0-9]* events of 2 processes in ' "$PZ_WORK/badsize.err" |
        grep -vxF "$warning" >&2 && pz_fail "PROGNOZ_BUFFER=$size: unexpected output on stderr (above)"
    n=$(grep -cxF "$warning" "$PZ_WORK/badsize.err")
    test "$n" = 1 || pz_fail "PROGNOZ_BUFFER=$size: $n warnings, expected one for the job"
    pz_trace badsize
    for r in 0 1; do
        pz_calls badsize $r >"$PZ_WORK/calls.$r"
        grep '^! BUFFER_FLUSH' "$PZ_WORK/calls.$r" >&2 &&
            pz_fail "PROGNOZ_BUFFER=$size: rank $r flushed a buffer of 64M"
        n=$(grep -c '^MPI_Sendrecv ' "$PZ_WORK/calls.$r")
        test "$n" = $ROUNDS || pz_fail "PROGNOZ_BUFFER=$size: rank $r: $n Sendrecv calls recorded, expected $ROUNDS"
    done
done
