# The prognoz command itself: --help and --version, usage errors (exit 2), failures to
# run or to write (exit 1, one line on stderr naming what failed), a command that
# cannot be run (exit 127), and what prognoz record hands to the command it runs.  A
# trace recorded from programs/p2p on 2 ranks serves prognoz report, whose HTML report
# must parse with python3's html.parser.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
prog=$(pz_program p2p) || exit 77
unset PROGNOZ_DIR PROGNOZ_LIB LD_PRELOAD
out=$PZ_WORK/cli.out
err=$PZ_WORK/cli.err

# run EXPECTED_STATUS ARGS...: prognoz ARGS with stdout in $out and stderr in $err, and
# the VAR=VALUE words of $with in its environment; the exit status must be
# EXPECTED_STATUS.
with=
run() {
    _want=$1
    shift
    env $with "$PZ_PROGNOZ" "$@" >"$out" 2>"$err"
    _rc=$?
    if test "$_rc" != "$_want"; then
        cat "$out" "$err" >&2
        pz_fail "prognoz $*: exit status $_rc, expected $_want"
    fi
}

# no_stdout WHAT / no_stderr WHAT
no_stdout() {
    test ! -s "$out" || { cat "$out" >&2; pz_fail "$1: output on stdout (above)"; }
}
no_stderr() {
    test ! -s "$err" || { cat "$err" >&2; pz_fail "$1: output on stderr (above)"; }
}

# one_line WHAT TEXT: stderr is exactly one line, and it contains TEXT.
one_line() {
    pz_expect_eq "$1: lines on stderr" 1 "$(wc -l <"$err")"
    grep -q -F -- "$2" "$err" || pz_fail "$1: '$(cat "$err")' does not name $2"
}

# first_line WHAT LINE: the first line of stderr is exactly LINE.
first_line() {
    pz_expect_eq "$1: first line on stderr" "$2" "$(head -n 1 "$err")"
}

# --help and -h: the usage on stdout, naming both commands, nothing on stderr.
run 0 --help
no_stderr "prognoz --help"
cp "$out" "$PZ_WORK/usage"
pz_expect_eq "prognoz --help: first line" "usage: prognoz [--version] [--help] COMMAND [ARGS]" \
    "$(head -n 1 "$out")"
for c in record report; do
    grep -q "^  $c  *[a-z]" "$out" || pz_fail "prognoz --help does not list the command $c"
done
run 0 -h
no_stderr "prognoz -h"
cmp -s "$out" "$PZ_WORK/usage" || pz_fail "prognoz -h differs from prognoz --help"

# --version: the version of the VERSION file.
run 0 --version
no_stderr "prognoz --version"
pz_expect_eq "prognoz --version" "prognoz $(sed -n 's/^version=//p' "$PZ_TOP_SRCDIR/VERSION")" "$(cat "$out")"

# No command at all: the usage on stderr, exit 2.
run 2
no_stdout "prognoz without a command"
cmp -s "$err" "$PZ_WORK/usage" || pz_fail "prognoz without a command: stderr is not the usage"

# An unknown command: one line naming it, then the usage, all on stderr; exit 2.
run 2 frobnicate --help
no_stdout "prognoz frobnicate"
first_line "prognoz frobnicate" "prognoz: 'frobnicate' is not a prognoz command"
pz_expect_eq "prognoz frobnicate: lines naming it" 1 "$(grep -c frobnicate "$err")"
tail -n +2 "$err" | cmp -s - "$PZ_WORK/usage" ||
    pz_fail "prognoz frobnicate: what follows the error is not the usage"

# prognoz report: --help; usage errors before any trace is read.
run 0 report --help
no_stderr "prognoz report --help"
grep -q '^usage: prognoz report DIR' "$out" || pz_fail "prognoz report --help printed no usage"
run 2 report
no_stdout "prognoz report without a trace"
first_line "prognoz report without a trace" "prognoz report: no trace given"
run 2 report --per-process
first_line "prognoz report --per-process" "prognoz report: no trace given"
run 2 report "$PZ_WORK/no-such-trace" --format xml
no_stdout "prognoz report --format xml"
one_line "prognoz report --format xml" "'xml'"
run 2 report "$PZ_WORK/no-such-trace" --format
no_stdout "prognoz report --format without a value"
first_line "prognoz report --format without a value" \
    "prognoz report: unexpected argument '--format'"
run 2 report "$PZ_WORK/a" "$PZ_WORK/b"
first_line "prognoz report with two traces" "prognoz report: unexpected argument '$PZ_WORK/b'"
run 2 report "$PZ_WORK/no-such-trace" --colour
first_line "prognoz report --colour" "prognoz report: unexpected argument '--colour'"
# A flag given a value, before or after the trace: the flag is named, not the value.
run 2 report --per-process=1 "$PZ_WORK/a"
first_line "prognoz report --per-process=1 DIR" \
    "prognoz report: --per-process takes no value (--per-process=1)"
run 2 predict "$PZ_WORK/a" --quiet=yes
first_line "prognoz predict DIR --quiet=yes" "prognoz predict: --quiet takes no value (--quiet=yes)"

# A trace to report on.
pz_record_ok p2p 2 "$prog"
trace=$PZ_WORK/p2p

# The report to stdout, to a file, and to paths that cannot be written: exit 1 and one
# line naming the path, and no report.
run 0 report "$trace"
no_stderr "prognoz report"
grep -q '^Interval (whole run) Level=0 EXE_Count=1' "$out" ||
    pz_fail "prognoz report: no whole run in the text report"
cp "$out" "$PZ_WORK/report.txt"
run 0 report "$trace" -o "$PZ_WORK/report-o.txt"
no_stdout "prognoz report -o FILE"
no_stderr "prognoz report -o FILE"
cmp -s "$PZ_WORK/report.txt" "$PZ_WORK/report-o.txt" ||
    pz_fail "prognoz report -o FILE wrote another report than to stdout"
: >"$PZ_WORK/plain-file"
for path in "$PZ_WORK/no-such-dir/report.txt" "$PZ_WORK/plain-file/report.txt" "$PZ_WORK"; do
    run 1 report "$trace" -o "$path"
    no_stdout "prognoz report -o $path"
    one_line "prognoz report -o $path" "'$path'"
done
test ! -e "$PZ_WORK/no-such-dir" || pz_fail "prognoz report -o made a directory"
# The HTML report of a real run parses, its elements closed in order.
run 0 report "$trace" --format html --per-process -o "$PZ_WORK/report.html"
no_stderr "prognoz report --format html"
PY=${PZ_PYTHON:-python3}
"$PY" -c 'import html.parser' 2>/dev/null || PY=python3
"$PY" - "$PZ_WORK/report.html" <<'EOF' || pz_fail "the HTML report is not well formed (above)"
import sys
from html.parser import HTMLParser

VOID = {"meta", "br", "hr", "img", "input", "link"}


class Checker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.stack, self.problems, self.tables = [], [], 0

    def where(self):
        return "line %d, column %d" % self.getpos()

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables += 1
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.problems.append("%s: </%s> closes %s" % (self.where(), tag,
                                 self.stack[-1] if self.stack else "nothing"))
        else:
            self.stack.pop()

    def handle_entityref(self, name):
        if name not in ("lt", "gt", "amp", "quot"):
            self.problems.append("%s: entity &%s;" % (self.where(), name))


with open(sys.argv[1], encoding="utf-8") as f:
    text = f.read()
c = Checker()
c.feed(text)
c.close()
if not text.startswith("<!DOCTYPE html>"):
    c.problems.append("no doctype first")
if c.stack:
    c.problems.append("left open: %s" % " ".join(c.stack))
# the intervals, one table per interval, and the MPI functions
if c.tables < 3:
    c.problems.append("%d tables" % c.tables)
for p in c.problems:
    print("report.html: " + p, file=sys.stderr)
sys.exit(1 if c.problems else 0)
EOF
grep -q '<td class="name">MPI_Send</td>' "$PZ_WORK/report.html" ||
    pz_fail "the HTML report has no row of MPI_Send"

# prognoz record: no command to run (exit 2, the error first, nothing run).
run 2 record
no_stdout "prognoz record"
first_line "prognoz record" "prognoz record: no command to run after '--'"
run 2 record --
first_line "prognoz record --" "prognoz record: no command to run after '--'"
run 2 record -o "$PZ_WORK/x" --
first_line "prognoz record -o DIR --" "prognoz record: no command to run after '--'"
run 2 record touch "$PZ_WORK/ran"
first_line "prognoz record without --" "prognoz record: unexpected argument 'touch'"
test ! -e "$PZ_WORK/ran" || pz_fail "prognoz record without -- ran the command"
test ! -e "$PZ_WORK/x" || pz_fail "prognoz record without a command made its directory"

# A recorder library that is not there: exit 1, one line naming it, nothing run.
with=PROGNOZ_LIB=/nonexistent/libprognoz.so
run 1 record -- touch "$PZ_WORK/ran"
no_stdout "prognoz record with a missing library"
one_line "prognoz record with a missing library" "'/nonexistent/libprognoz.so'"
test ! -e "$PZ_WORK/ran" || pz_fail "prognoz record ran the command without its library"

# A command that does not exist: exit 127, one line naming it.
with=PROGNOZ_LIB=$PZ_LIB
run 127 record -- "$PZ_WORK/no-such-command" arg
no_stdout "prognoz record of a missing command"
one_line "prognoz record of a missing command" "'$PZ_WORK/no-such-command'"
run 127 record -- prognoz-no-such-command-in-path
one_line "prognoz record of a command not in PATH" "'prognoz-no-such-command-in-path'"

# What the command gets: the library first in LD_PRELOAD (before what was there),
# PROGNOZ_DIR from -o, its own arguments; its exit status is prognoz record's.
with="PROGNOZ_LIB=$PZ_LIB LD_PRELOAD="
run 0 record -o "$PZ_WORK/dir" -- \
    sh -c 'printf "%s|%s|%s\n" "$LD_PRELOAD" "$PROGNOZ_DIR" "$*"' sh a 'b c'
pz_expect_eq "the environment of the recorded command" "$PZ_LIB|$PZ_WORK/dir|a b c" "$(cat "$out")"
with="PROGNOZ_LIB=$PZ_LIB LD_PRELOAD=libm.so.6"
run 0 record -- sh -c 'printf "%s\n" "$LD_PRELOAD"'
pz_expect_eq "LD_PRELOAD of the recorded command" "$PZ_LIB libm.so.6" "$(cat "$out")"
with=PROGNOZ_LIB=$PZ_LIB
run 3 record -- sh -c 'exit 3'
no_stderr "prognoz record of a command exiting 3"

# A report that cannot be written out although the file opened: exit 1, one line naming
# the file.  Each check runs in a subshell, so that a failure still lets the next run.
with=
if test -w /dev/full; then
    (
        run 1 report "$trace" -o /dev/full
        no_stdout "prognoz report -o /dev/full"
        one_line "prognoz report -o /dev/full" "/dev/full"
    )
    # The standard output full: a report held whole in stdout's buffer (1 MB here, as a
    # short report is in the default one) is written out at exit, too late to fail.
    if command -v stdbuf >/dev/null 2>&1; then
        (
            stdbuf -o1M "$PZ_PROGNOZ" report "$trace" >/dev/full 2>"$err"
            rc=$?
            pz_expect_eq "prognoz report >/dev/full (stdout buffered): exit status" 1 "$rc"
            pz_expect_eq "prognoz report >/dev/full: lines on stderr" 1 "$(wc -l <"$err")"
        )
    fi
fi
exit 0
