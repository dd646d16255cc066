# prognoz scale refuses at once a count whose run cannot fit in the memory it may take
# whatever the program: 4194304 processes need at least 16 GiB (4 KiB a process,
# replay/scale_memory.h).  It
# says so on one line naming the count, the estimate and the memory available, exits 1,
# and reads no recording first (those given here do not exist).
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
out=$PZ_WORK/scale_memory.out
err=$PZ_WORK/scale_memory.err

# refused LIMIT: prognoz scale at 16 and 4194304 processes under `ulimit -v LIMIT` (KiB,
# or unlimited) must exit 1 within 10 s with one line on stderr, nothing on stdout.
refused() {
    _start=$(date +%s)
    (ulimit -v "$1" && exec "$PZ_PROGNOZ" scale "$PZ_WORK/none-2" "$PZ_WORK/none-4" \
        --ranks 16,4194304 --machine gigabit-switch) >"$out" 2>"$err"
    _rc=$?
    _took=$(($(date +%s) - _start))
    test "$_rc" = 1 || { cat "$err" >&2; pz_fail "ulimit -v $1: exit status $_rc, expected 1"; }
    test "$_took" -le 10 || pz_fail "ulimit -v $1: the refusal took $_took s"
    test ! -s "$out" || pz_fail "ulimit -v $1: something on stdout"
    test "$(wc -l <"$err")" = 1 || { cat "$err" >&2; pz_fail "ulimit -v $1: not one line"; }
    grep -q '^prognoz scale: --ranks 4194304: the run at 4194304 processes needs at least 16.0 GiB of memory (4 KiB a process whatever the program), more than the [0-9.]* [GM]iB available (' "$err" ||
        { cat "$err" >&2; pz_fail "ulimit -v $1: not the refusal expected"; }
}

# 4 GiB of address space: refused whatever the machine has
refused 4194304
grep -q 'more than the 4.0 GiB available (ulimit -v)' "$err" ||
    awk '$1 == "MemAvailable:" && $2 < 4194304 { found = 1 } END { exit !found }' /proc/meminfo ||
    { cat "$err" >&2; pz_fail "the address space limit is not the one told"; }

# no limit: refused on any machine with less than 16 GiB available
if awk '$1 == "MemAvailable:" && $2 < 16777216 { found = 1 } END { exit !found }' /proc/meminfo
then
    refused unlimited
fi
exit 0
