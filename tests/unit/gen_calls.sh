#!/bin/sh
# The generators of wrapper/ (gen_calls.py, gen_f08.py):
#  (a) regenerated from the real table, the files equal those the build produced
#      (BUILDDIR/trace and BUILDDIR/wrapper, found from the working directory
#      BUILDDIR/tests) and the model's coll_ops.h kept in the sources: the generated
#      sources are reproducible, and the one in the sources is current;
#  (b) the table unit/gen/tiny.tbl of four functions gives exactly the files
#      unit/gen/*.expected, written by hand from the format of gen_calls.py, and with
#      --available the same wrappers but those of the functions it does not list;
#  (c) a bad table makes the generator exit nonzero with a single line "FILE:LINE:
#      message" on stderr, naming the table and the line of the fault.
# Run by make check, which sets PZ_TOP_SRCDIR and PZ_PYTHON.  Exit codes: 0 pass,
# 77 skip, 1 fail.  PZ_KEEP=1 keeps the work directory.

set -u

test -n "${PZ_TOP_SRCDIR:-}" || { echo "SKIP: PZ_TOP_SRCDIR is not set (run make check)" >&2; exit 77; }
py=${PZ_PYTHON:-}
test -n "$py" || { echo "SKIP: PZ_PYTHON is not set (run make check)" >&2; exit 77; }

gen=$PZ_TOP_SRCDIR/wrapper/gen_calls.py
f08=$PZ_TOP_SRCDIR/wrapper/gen_f08.py
table=$PZ_TOP_SRCDIR/wrapper/mpi_calls.tbl
data=$PZ_TOP_SRCDIR/tests/unit/gen
# The build's files: the table's reader side in trace/, the wrappers in wrapper/, the
# collective operations' enum in the sources of model/.
built_dir() {
    case $1 in
    calls_gen.*) echo ../trace ;;
    coll_ops.h) echo "$PZ_TOP_SRCDIR/model" ;;
    *) echo ../wrapper ;;
    esac
}

work=$(mktemp -d "${TMPDIR:-/tmp}/prognoz-gen.XXXXXX") || { echo "FAIL: mktemp" >&2; exit 1; }
cleanup() {
    if test -n "${PZ_KEEP:-}"; then
        echo "the work files are kept in $work" >&2
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# same WHAT EXPECTED GOT: the two files are identical; shows the difference otherwise.
same() {
    if ! test -f "$3"; then
        fail "$1: $3 was not written"
    elif ! cmp -s "$2" "$3"; then
        fail "$1: $3 differs from $2:"
        diff -u "$2" "$3" | head -40 >&2
    fi
}

# quiet WHAT: the last generator run wrote nothing on stdout or stderr.
quiet() {
    test ! -s "$work/out" || { fail "$1: output on stdout:"; cat "$work/out" >&2; }
    test ! -s "$work/err" || { fail "$1: output on stderr:"; cat "$work/err" >&2; }
}

# (a) The build's files, regenerated.
for f in calls_gen.h calls_gen.c wrappers_gen.c wrappers_f08_gen.c coll_ops.h; do
    test -f "$(built_dir "$f")/$f" ||
        fail "the build's $f is not in $(built_dir "$f") (run from BUILDDIR/tests)"
done
mkdir "$work/real"
"$py" "$gen" "$table" "$work/real" >"$work/out" 2>"$work/err" ||
    fail "gen_calls.py failed on the real table"
quiet "gen_calls.py on the real table"
"$py" "$f08" "$table" "$work/real/wrappers_f08_gen.c" >"$work/out" 2>"$work/err" ||
    fail "gen_f08.py failed on the real table"
quiet "gen_f08.py on the real table"
for f in calls_gen.h calls_gen.c wrappers_gen.c wrappers_f08_gen.c coll_ops.h; do
    test -f "$(built_dir "$f")/$f" && same "regenerated $f" "$(built_dir "$f")/$f" "$work/real/$f"
done
test -z "$(ls "$work/real" | grep -v -x -e calls_gen.h -e calls_gen.c -e wrappers_gen.c \
    -e wrappers_f08_gen.c -e coll_ops.h)" || fail "the generators left other files: $(ls "$work/real")"

# (b) The tiny table and the files written by hand.
mkdir "$work/tiny"
"$py" "$gen" "$data/tiny.tbl" "$work/tiny" >"$work/out" 2>"$work/err" ||
    fail "gen_calls.py failed on tiny.tbl"
quiet "gen_calls.py on tiny.tbl"
for f in calls_gen.h calls_gen.c wrappers_gen.c coll_ops.h; do
    same "tiny.tbl: $f" "$data/$f.expected" "$work/tiny/$f"
done

# (b') --available, as for Open MPI's recorder: a function the list does not name
# (MPI_Ibarrier and MPI_Alltoallv_c, the table's last rows: Open MPI 4.1 has no
# large-count forms) gets no wrapper; the others are written as without the list (the
# expected file up to the blank line before MPI_Ibarrier's), and the call ids stay the
# whole table's.
mkdir "$work/avail"
printf 'PMPI_Recv\nPMPI_Send\n' >"$work/available.txt"
"$py" "$gen" --available "$work/available.txt" "$data/tiny.tbl" "$work/avail" \
    >"$work/out" 2>"$work/err" || fail "gen_calls.py --available failed on tiny.tbl"
quiet "gen_calls.py --available on tiny.tbl"
sed '/^PZ_EXPORT int MPI_Ibarrier(/,$d' "$data/wrappers_gen.c.expected" | sed '$d' \
    >"$work/avail_wrappers.expected"
same "tiny.tbl --available: wrappers_gen.c" "$work/avail_wrappers.expected" "$work/avail/wrappers_gen.c"
same "tiny.tbl --available: calls_gen.h" "$data/calls_gen.h.expected" "$work/avail/calls_gen.h"

# (c) Bad tables.  bad NAME LINE MESSAGE [GENERATOR] < TABLE: the generator (gen_calls.py
# unless given) refuses $work/NAME.tbl with exactly "$work/NAME.tbl:LINE: MESSAGE"; an
# empty MESSAGE accepts any message after "FILE:LINE: ".
bad() {
    _name=$1 _line=$2 _msg=$3 _gen=${4:-$gen}
    _tbl=$work/$_name.tbl
    cat >"$_tbl"
    rm -rf "$work/out_$_name"
    mkdir "$work/out_$_name"
    if test "$_gen" = "$f08"; then
        "$py" "$_gen" "$_tbl" "$work/out_$_name/wrappers_f08_gen.c" >"$work/out" 2>"$work/err"
    else
        "$py" "$_gen" "$_tbl" "$work/out_$_name" >"$work/out" 2>"$work/err"
    fi
    _rc=$?
    test "$_rc" -ne 0 || fail "$_name: $(basename "$_gen") accepted the table (exit 0)"
    test ! -s "$work/out" || fail "$_name: output on stdout"
    _lines=$(wc -l <"$work/err")
    _got=$(cat "$work/err")
    if test -n "$_msg"; then
        test "$_lines" -eq 1 && test "$_got" = "$_tbl:$_line: $_msg" ||
            { fail "$_name: expected the one line '$_tbl:$_line: $_msg' on stderr, got $_lines:"; cat "$work/err" >&2; }
    else
        case $_got in
        "$_tbl:$_line: "?*) test "$_lines" -eq 1 || { fail "$_name: $_lines lines on stderr:"; cat "$work/err" >&2; } ;;
        *) fail "$_name: expected one line '$_tbl:$_line: ...' on stderr, got $_lines:"; cat "$work/err" >&2 ;;
        esac
    fi
}

bad unknown_category 5 "unknown category 'sned'" <<'EOF'
# a send under a misspelt category

%category plain
MPI_Barrier  plain  (MPI_Comm comm)
MPI_Send     sned  (const void *buf, int count @count, MPI_Datatype datatype @type, int dest @peer, int tag @tag, MPI_Comm comm @comm)
EOF

bad unknown_role 4 "unknown role 'cnt'" <<'EOF'
%category send  pre=peer,tag,comm post=count,type,peer,tag,comm

# a parameter whose role does not exist
MPI_Send  send  (const void *buf, int count @cnt, MPI_Datatype datatype @type, int dest @peer, int tag @tag, MPI_Comm comm @comm)
EOF

bad kind_is_no_parameter 3 "unknown role 'kind'" <<'EOF'
# the collective kind comes from the row, never from a parameter
%category coll  post=kind,comm
MPI_Barrier  coll:barrier  (MPI_Comm comm @kind)
EOF

bad unknown_role_of_category 3 "unknown role 'typ'" <<'EOF'
# a category whose post hook asks for a role that does not exist
%category plain
%category send  pre=peer,tag,comm post=count,typ,peer,tag,comm
MPI_Send  send  (const void *buf, int count @count, MPI_Datatype datatype @type, int dest @peer, int tag @tag, MPI_Comm comm @comm)
EOF

bad missing_role 6 "MPI_Send lacks role 'tag' that category send needs" <<'EOF'
# the tag of MPI_Send is not marked, and both hooks of its category need it
%category send  pre=peer,tag,comm post=count,type,peer,tag,comm
%category coll  post=sbuf?,root?,comm,request?

MPI_Barrier  coll:barrier  (MPI_Comm comm @comm)
MPI_Send     send          (const void *buf, int count @count, MPI_Datatype datatype @type, int dest @peer, int tag, MPI_Comm comm @comm)
EOF

bad malformed_row 4 "expected NAME CATEGORY (PARAMETERS)" <<'EOF'
%category plain

MPI_Barrier  plain  (MPI_Comm comm)
MPI_Send     plain  const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm
EOF

# gen_f08.py reads the table with the same reader and reports the same way
bad malformed_row_f08 2 "expected NAME CATEGORY (PARAMETERS)" "$f08" <<'EOF'
%category plain
MPI_Barrier plain
EOF

bad category_without_name 3 "" <<'EOF'
%category plain
MPI_Barrier  plain  (MPI_Comm comm)
%category
EOF

test "$failures" -eq 0 || { echo "$failures failure(s)" >&2; exit 1; }
exit 0
