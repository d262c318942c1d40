# The command-line tests' common start, sourced by tests/cli_*.sh: the gully
# under test, a scratch directory removed on exit, and the checks.
#   expect STATUS DESCRIPTION -- COMMAND...   runs it; output in $T/out, $T/err
#   fail MESSAGE; err_has TEXT; finish (exit 1 if anything failed)
set -u
GULLY=${GULLY:-./gully}
T=$(mktemp -d "${TMPDIR:-/tmp}/gully-$(basename "$0" .sh).XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
expect() {
	want=$1
	what=$2
	shift 3
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$what: exit $got, expected $want: $*"
		sed 's/^/  stderr: /' "$T/err"
	else
		echo "ok: $what"
	fi
}
err_has() {
	grep -q -- "$1" "$T/err" || fail "stderr lacks '$1': $(cat "$T/err")"
}
finish() {
	[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
	exit 0
}
