# Interval markers used wrongly (programs/markers_misuse.c on 2 ranks, both making the
# same mistakes twice, rank 1 one more): an end of an outer interval ends the inner ones
# with it, an end of an interval not open is ignored, intervals open at MPI_Finalize
# end there.  Each distinct mistake is reported once, by rank 0 only (rank 1's stderr
# stays empty), with the file and line of the marker; the trace is well formed and its
# ENTER/LEAVE events are those of the resolution.  The program runs the same without
# the recorder.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program markers_misuse) || exit 77
src=$PZ_TOP_SRCDIR/tests/programs/markers_misuse.c
for mark in begin-1 begin-2 begin-3 end-1 end-3 begin-6-outer begin-6-inner end-9 begin-4 begin-5; do
    line=$(pz_line "$src" "@$mark") || exit 1
    eval "L_$(echo $mark | tr - _)=\$line"
done

pz_mpiexec -n 2 "$prog" >"$PZ_WORK/plain.out" 2>"$PZ_WORK/plain.err" ||
    { cat "$PZ_WORK/plain.err" >&2; pz_fail "markers_misuse fails without the recorder"; }
test ! -s "$PZ_WORK/plain.err" ||
    { cat "$PZ_WORK/plain.err" >&2; pz_fail "markers_misuse: output on stderr without the recorder (above)"; }
pz_expect_eq "markers_misuse's output" "markers_misuse: sum 2" "$(cat "$PZ_WORK/plain.out")"

# Each rank's stderr goes to a file of its own: misuse.errRANK.
run='exec env LD_PRELOAD="$2" PROGNOZ_DIR="$3" "$0" 2>"$1"'
pz_mpiexec -n 1 sh -c "$run" "$prog" "$PZ_WORK/misuse.err0" "$PZ_LIB" "$PZ_WORK/misuse" : \
    -n 1 sh -c "$run" "$prog" "$PZ_WORK/misuse.err1" "$PZ_LIB" "$PZ_WORK/misuse" \
    >"$PZ_WORK/misuse.out" 2>"$PZ_WORK/misuse.mpiexec.err"
rc=$?
cat "$PZ_WORK/misuse.err0" "$PZ_WORK/misuse.err1" "$PZ_WORK/misuse.mpiexec.err" >"$PZ_WORK/misuse.err"
test $rc = 0 || { cat "$PZ_WORK/misuse.err" >&2; pz_fail "the traced job exited with status $rc"; }
pz_expect_eq "markers_misuse's output with the recorder" "markers_misuse: sum 2" "$(cat "$PZ_WORK/misuse.out")"
test ! -s "$PZ_WORK/misuse.err1" || { cat "$PZ_WORK/misuse.err1" >&2; pz_fail "rank 1 wrote to stderr (above)"; }
test ! -s "$PZ_WORK/misuse.mpiexec.err" || { cat "$PZ_WORK/misuse.mpiexec.err" >&2; pz_fail "mpiexec wrote to stderr (above)"; }
pz_trace misuse

pz_expect_eq "interval regions" 7 "$(pz_intervals misuse)"
pz_expect_interval misuse 1 "$src" "$L_begin_1"
pz_expect_interval misuse 2 "$src" "$L_begin_2"
pz_expect_interval misuse 3 "$src" "$L_begin_3"
pz_expect_interval misuse 6 "$src" "$L_begin_6_outer"
pz_expect_interval misuse 6 "$src" "$L_begin_6_inner"
pz_expect_interval misuse 4 "$src" "$L_begin_4"
pz_expect_interval misuse 5 "$src" "$L_begin_5"

# The warnings name the source file as the trace does (pz_expect_interval checked it).
F=$(sed -n "s/^REGION .* Name: \"interval 1 at markers_misuse.c:$L_begin_1\" .*, File: \"\([^\"]*\)\" .*/\1/p" "$PZ_WORK/misuse.defs")
grep -v '^prognoz: recorded [0-9]* events of 2 processes in ' "$PZ_WORK/misuse.err0" | sort >"$PZ_WORK/warnings"
test "$(grep -c '^prognoz: recorded' "$PZ_WORK/misuse.err0")" = 1 ||
    pz_fail "expected exactly one 'prognoz: recorded' line on rank 0's stderr"
sort >"$PZ_WORK/warnings.expected" <<EOF
prognoz: warning: $F:$L_end_1: end of interval 1 while interval 3 begun at $F:$L_begin_3 is open inside it: both end there
prognoz: warning: $F:$L_end_1: end of interval 1 while interval 2 begun at $F:$L_begin_2 is open inside it: both end there
prognoz: warning: $F:$L_end_3: end of interval 3, but no interval 3 is open: ignored
prognoz: warning: $F:$L_end_9: end of interval 9, but no interval 9 is open: ignored
prognoz: warning: $F:$L_begin_4: interval 4 was still open at MPI_Finalize: ended there
prognoz: warning: $F:$L_begin_5: interval 5 was still open at MPI_Finalize: ended there
EOF
diff -u "$PZ_WORK/warnings.expected" "$PZ_WORK/warnings" >&2 ||
    pz_fail "the warnings on rank 0's stderr differ (- expected, + written)"

I1="interval 1 at markers_misuse.c:$L_begin_1"
I2="interval 2 at markers_misuse.c:$L_begin_2"
I3="interval 3 at markers_misuse.c:$L_begin_3"
I4="interval 4 at markers_misuse.c:$L_begin_4"
I5="interval 5 at markers_misuse.c:$L_begin_5"
I6O="interval 6 at markers_misuse.c:$L_begin_6_outer"
I6I="interval 6 at markers_misuse.c:$L_begin_6_inner"
W='Communicator: "MPI_COMM_WORLD"'
for r in 0 1; do
    {
        printf '%s\n' MPI_Init MPI_Comm_rank
        for rep in 1 2; do
            cat <<EOF
> $I1
> $I2
> $I3
MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BARRIER, $W, Root: NONE, Sent: 0, Received: 0
< $I3
< $I2
< $I1
EOF
        done
        cat <<EOF
> $I6O
> $I6I
< $I6I
< $I6O
> $I4
> $I5
MPI_Allreduce | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: ALLREDUCE, $W, Root: NONE, Sent: 4, Received: 4
< $I5
< $I4
MPI_Finalize
EOF
    } | pz_expect_calls misuse $r
done

# The inner intervals end where the end of interval 1 is: their LEAVEs have its time.
awk '$1 == "LEAVE" && $2 == 0 && /Region: "interval [123] at / { print $3 }' "$PZ_WORK/misuse.events" |
    awk 'NR % 3 == 1 { t = $1 } $1 != t { bad = 1 } END { exit bad }' ||
    pz_fail "the LEAVEs of intervals 3, 2 and 1 of rank 0 are not at one time"

# The trace keeps the warnings: the report shows each again, as a warning of its own, in
# text and in JSON.
"$PZ_PROGNOZ" report "$PZ_WORK/misuse" >"$PZ_WORK/misuse.report" 2>"$PZ_WORK/report.err" ||
    { cat "$PZ_WORK/report.err" >&2; pz_fail "prognoz report failed on the trace"; }
sed -n 's/^Warning: interval markers: /prognoz: warning: /p' "$PZ_WORK/misuse.report" | sort \
    >"$PZ_WORK/report.warnings"
diff -u "$PZ_WORK/warnings.expected" "$PZ_WORK/report.warnings" >&2 ||
    pz_fail "the report's marker warnings differ from the recorder's (- recorder, + report)"
"$PZ_PROGNOZ" report "$PZ_WORK/misuse" --format json >"$PZ_WORK/misuse.json" ||
    pz_fail "prognoz report --format json failed on the trace"
pz_check_json || pz_fail "the JSON report does not follow its schema"
test "$(grep -o '"interval markers: ' "$PZ_WORK/misuse.json" | wc -l)" = 6 ||
    pz_fail "the JSON report does not carry the 6 marker warnings"
