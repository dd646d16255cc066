# prognoz scale on recordings of a SUMMA-like product (programs/scale_summa.c, that is
# share/validation/summa.c: 2 passes over 96 x 96 matrices on MPI_Dims_create's 2-D grid,
# rows x cols, its rows and columns made by MPI_Comm_split, at each step k of P a block
# broadcast along every row from member k mod cols and one along every column from
# member k mod rows, then a reduction along each), recorded with CPU times at 2, 3 and 4
# processes (2 x 1, 3 x 1, 2 x 2) and extrapolated to 8 and 16, replayed in memory and
# written with --trace-out.  No message shows the grid: the communicators' members do.
# The run synthesized at 4 makes, process by process, exactly the recording's MPI calls
# with their communicators' members, roots and sizes; at 8 (4 x 2) and 16 (4 x 4)
# processes 0, 5 and the last make, in each pass, for k = 0 .. P - 1, a broadcast on
# their row from member k mod cols and one on their column from member k mod rows, the
# root sending (n - 1) blocks to the others of its n and each other receiving one, a
# row's block 73728 / (rows P) bytes and a column's 73728 / (cols P) (96 x 96 x 8 bytes
# over the grid), then 8 bytes reduced along the row and along the column.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
prog=$(pz_program scale_summa) || exit 77

# with_members FILE NAME: FILE (calls of the trace NAME, pz_trace's) with every
# communicator named by its members in braces, its name differing between a recording
# ("Comm 3 (MPI_Comm_split)") and a synthesized run ("row 0").
with_members() {
    pz_comms "$2" | awk -F'|' '
        NR == FNR { m["Communicator: \"" $1 "\""] = "Communicator: {" $2 "}"; next }
        {
            for (n in m)
                while ((i = index($0, n)) > 0)
                    $0 = substr($0, 1, i - 1) m[n] substr($0, i + length(n))
            print
        }' - "$1"
}

for n in 2 3 4; do
    PZ_ENV=PROGNOZ_CPU_TIME=1 pz_record_ok summa$n $n "$prog" 2 96
done
pz_scale_traced summa2 summa3 summa4
grep -q 'turns with the iteration' "$PZ_WORK/scale.txt" ||
    { cat "$PZ_WORK/scale.txt" >&2; pz_fail "no note of the roots that turn"; }

pz_trace_calls summa4 >"$PZ_WORK/summa4.all"
pz_trace_calls synth/P4 >"$PZ_WORK/synth4.all"
with_members "$PZ_WORK/summa4.all" summa4 >"$PZ_WORK/summa4.members"
with_members "$PZ_WORK/synth4.all" synth/P4 >"$PZ_WORK/synth4.members"
diff -u "$PZ_WORK/summa4.members" "$PZ_WORK/synth4.members" >&2 ||
    pz_fail "the run synthesized at 4 processes differs from the recording (- recorded, + synthesized)"

# one broadcast as the calls show it: on the members first + i * stride (i < n), from
# rank root, the caller being rank me
bcast() {
    first=$1 stride=$2 n=$3 me=$4 root=$5 block=$6
    members="" i=0
    while [ $i -lt $n ]; do
        members="$members${members:+ }$((first + i * stride))"
        i=$((i + 1))
    done
    if [ "$me" = "$root" ]; then sent=$(( (n - 1) * block )) got=0; else sent=0 got=$block; fi
    echo "BCAST {$members} $root $sent $got"
}

for n in 8 16; do
    pz_trace "synth/P$n"
    if [ $n = 8 ]; then rows=4 cols=2; else rows=4 cols=4; fi
    for p in 0 5 $((n - 1)); do
        y=$((p / cols)) x=$((p % cols)) want=""
        for pass in 1 2; do
            k=0
            while [ $k -lt $n ]; do
                want="$want$(bcast $((y * cols)) 1 $cols $x $((k % cols)) $((73728 / (rows * n))))
$(bcast $x $cols $rows $y $((k % rows)) $((73728 / (cols * n))))
"
                k=$((k + 1))
            done
        done
        got=$(with_members "$PZ_WORK/synth/P$n.calls.$p" "synth/P$n" | grep '^MPI_Bcast' |
            sed 's/.*Operation: \([A-Z]*\), Communicator: \({[^}]*}\), Root: \([0-9]*\), Sent: \([0-9]*\), Received: \([0-9]*\).*/\1 \2 \3 \4 \5/')
        pz_expect_eq "process $p's broadcasts at $n processes" "$(printf '%s' "$want")" "$got"
        pz_expect_eq "process $p's reductions at $n processes" 4 \
            "$(grep -c '^MPI_Allreduce.*Sent: 8, Received: 8' "$PZ_WORK/synth/P$n.calls.$p")"
    done
done
