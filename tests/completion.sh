#!/bin/sh
# The bash completion (share/completion/prognoz), sourced in a bash without the
# bash-completion package and driven as bash drives it: COMP_WORDS and COMP_CWORD set,
# _prognoz called, COMPREPLY read.  Its machine names are those shipped.
# The environment (make check): PZ_TOP_SRCDIR.
command -v bash >/dev/null || { echo "SKIP: bash is not installed"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pz-completion.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/run4" "$tmp/run8" && : > "$tmp/notes.txt" && : > "$tmp/my.conf"
shipped=
for f in "$PZ_TOP_SRCDIR"/share/machines/*.conf; do
    f=${f##*/}
    shipped="$shipped${f%.conf} "
done

cd "$tmp" && PZ_SHIPPED=$shipped bash -c '
unset PROGNOZ_MACHINES
. "$PZ_TOP_SRCDIR/share/completion/prognoz" || exit 1
status=0
# expect "WORDS..." "COMPLETIONS...": the words up to the cursor (the last one is being
# completed, as bash splits them: at blanks and at "="), and the completions, in order.
expect() {
    read -r -a COMP_WORDS <<< "$1"
    [[ $1 == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _prognoz
    local got="${COMPREPLY[*]}"
    if [[ $got != "$2" ]]; then
        echo "FAIL: completing \"$1\": \"$got\", expected \"$2\""
        status=1
    fi
}
expect "prognoz " "record report predict scale calibrate export help"
expect "prognoz re" "record report"
expect "prognoz --v" "--version"
expect "prognoz help pr" "predict"
expect "prognoz report run4 --f" "--format"
expect "prognoz report run4 --format " "text json html"
expect "prognoz report run4 --format = j" "json"
expect "prognoz predict run4 --per" "--per-process"
expect "prognoz predict run4 --compute " "wall cpu"
expect "prognoz scale run4 run8 --mpi mpich" "mpich1 mpich-1.2.5 mpich4"
expect "prognoz predict run4 --coll allg" "allgather= allgatherv="
expect "prognoz predict run4 --coll allgather = b" "bruck"
expect "prognoz predict run4 --machine my" "myrinet-2proc my.conf"
expect "prognoz scale run4 --trace-out " "run4 run8"
expect "prognoz scale run4 --replay-passes " "auto all sample"
expect "prognoz report r" "run4 run8"
expect "prognoz export run4 --perfetto-l" "--perfetto-limit"
expect "prognoz calibrate --packet-" "--packet-size --packet-header"
expect "prognoz record -o ru" "run4 run8"
expect "prognoz record -o run4 -- ba" "$(compgen -c -- ba | tr "\n" " " | sed "s/ $//")"
# The names the completion offers for --machine are the shipped machines.
COMP_WORDS=(prognoz predict run4 --machine ""); COMP_CWORD=4; COMPREPLY=(); _prognoz
names=$(printf "%s\n" "${COMPREPLY[@]}" | grep -v -e "\.conf$" -e "^run" | tr "\n" " ")
[[ $names == "$PZ_SHIPPED" ]] ||
    { echo "FAIL: --machine offers \"$names\", the shipped machines are \"$PZ_SHIPPED\""; status=1; }
exit $status
' && echo "the completion of prognoz completes as expected"
