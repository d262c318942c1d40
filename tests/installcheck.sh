#!/bin/sh
# make installcheck (and so make distcheck): the installed gully is whole and
# stands on its own. It holds no path into the tree it was built in, reads
# its installed presets, and its manual and completion are where gully(1)
# says; the build tree's gully, for its part, still reads its own source's
# presets now that some are installed (make check after make install).
# Run by installcheck-local with the install's directories in the environment.
set -u
: "${bindir:?}" "${pkgdatadir:?}" "${mandir:?}" "${bashcompletiondir:?}" "${srcdir:?}"
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
T=$(mktemp -d "${TMPDIR:-/tmp}/gully-installcheck.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
gully=$bindir/gully
src=$(cd "$srcdir" && pwd -P)
build=$(pwd -P)

for f in "$gully" "$pkgdatadir/presets/default.yaml" "$mandir/man1/gully.1" \
	"$mandir/man5/gully-snapshot.5" "$bashcompletiondir/gully"; do
	[ -f "$f" ] || fail "$f was not installed"
done
# What the program itself holds (its debugging information names its
# sources, as any -g build's does: make install-strip drops it).
if command -v strip >/dev/null 2>&1 && strip -o "$T/gully" "$gully"; then
	# (Not the source's own directory: distcheck installs inside it.)
	for dir in "$src/presets" "$src/src" "$build/"; do
		grep -q -F -e "$dir" "$T/gully" && fail "the installed gully names $dir"
	done
else
	echo "note: no strip here: the binary's paths are not checked"
fi
# A home of its own, so no preset of the user's comes into the listing.
export HOME="$T" XDG_DATA_HOME="$T/data"
unset GULLY_PRESET_PATH
"$gully" presets --paths >"$T/installed" 2>&1 || fail "installed gully presets: $(cat "$T/installed")"
grep -q "river-valley .*\[$pkgdatadir/presets/river-valley.yaml\]" "$T/installed" ||
	fail "the installed gully does not read $pkgdatadir/presets: $(head -n 2 "$T/installed")"
grep -q -F -e "$src/presets/" -e "$build/" "$T/installed" && fail "the installed gully lists presets from the build"
./gully presets --paths >"$T/built" 2>&1 || fail "build tree's gully presets: $(cat "$T/built")"
grep -q "river-valley .*\[$src/presets/river-valley.yaml\]" "$T/built" ||
	fail "the build tree's gully does not read $src/presets: $(head -n 2 "$T/built")"
(cd "$T" && "$gully" run -p river-valley --particles 100 --size 32x32 --quiet -o r.png >/dev/null) ||
	fail "the installed gully cannot run a shipped preset"
grep -q -F "$bashcompletiondir/gully" "$mandir/man1/gully.1" ||
	fail "gully(1) does not name $bashcompletiondir/gully"
if command -v mandoc >/dev/null 2>&1; then
	lint=$(mandoc -Tlint -W style "$mandir/man1/gully.1" "$mandir/man5/gully-snapshot.5" 2>&1)
	[ -z "$lint" ] || fail "mandoc -Tlint: $lint"
fi
[ "$fails" -eq 0 ] || exit 1
echo "ok: the installed gully, its presets, manual and completion"
