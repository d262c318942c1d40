#!/bin/sh
# gully -p/--preset, --set on top, --dump-preset, `gully presets`: exit codes,
# one-line errors naming file, line and key, and C-locale numbers.
set -u
gully=${GULLY:-./gully}
srcdir=${srcdir:-.}
GULLY_PRESET_PATH=$srcdir/presets
export GULLY_PRESET_PATH
XDG_DATA_HOME=$(mktemp -d)
export XDG_DATA_HOME
tmp=$XDG_DATA_HOME
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# The listing shows every shipped preset with its description.
$gully presets >"$tmp/list" || fail "gully presets exit $?"
for p in default ridges-and-plateaus river-valley lake-chain vegetation-comparison; do
	grep -q "^$p " "$tmp/list" || fail "presets does not list $p"
done
grep -q "^ridges-and-plateaus  *particles  *Ridged noise" "$tmp/list" || fail "no description"

# --dump-preset: a preset plus --set, dumped, reloads to the same dump.
$gully run -p ridges-and-plateaus --set world.seed=9 --dump-preset >"$tmp/a.yaml" ||
	fail "dump exit $?"
grep -q '^  seed: 9 ' "$tmp/a.yaml" || fail "--set not applied on top"
grep -q '^  generator: ridged ' "$tmp/a.yaml" || fail "preset not applied"
grep -q '^process: particles$' "$tmp/a.yaml" || fail "process not dumped"
$gully run -p "$tmp/a.yaml" --dump-preset >"$tmp/b.yaml" || fail "reload exit $?"
cmp -s "$tmp/a.yaml" "$tmp/b.yaml" || fail "dump does not round-trip"

# Numbers stay C-locale decimals under a comma locale (when one exists).
if LC_ALL=de_DE.UTF-8 locale 2>&1 | grep -q 'Cannot'; then
	echo "SKIP: no de_DE.UTF-8 locale for the LC_ALL check"
else
	LC_ALL=de_DE.UTF-8 $gully run -p "$tmp/a.yaml" --dump-preset >"$tmp/c.yaml" ||
		fail "de_DE exit $?"
	cmp -s "$tmp/a.yaml" "$tmp/c.yaml" || fail "dump differs under LC_ALL=de_DE.UTF-8"
fi

# A bad preset: exit 1 and one line naming file, line and key.
printf 'particles:\n  dt: 0.5\n  friction: 0.25x\n' >"$tmp/bad.yaml"
$gully run -p "$tmp/bad.yaml" --particles 10 >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] || fail "bad preset exit status"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "bad preset error is not one line"
grep -q "bad.yaml:3: particles.friction: '0.25x' is not a finite decimal number" "$tmp/err" ||
	fail "bad preset message: $(cat "$tmp/err")"
# An unknown name is a usage error (2); a missing file an I/O error (1).
$gully run -p no-such-preset >/dev/null 2>&1
[ $? -eq 2 ] || fail "unknown name exit status"
$gully run -p "$tmp/missing.yaml" >/dev/null 2>&1
[ $? -eq 1 ] || fail "missing file exit status"
# --set still judges its own value after a preset.
$gully run -p default --set particles.dt=abc >/dev/null 2>&1
[ $? -eq 2 ] || fail "--set after preset exit status"

# A user preset shadows the shipped one of the same name.
mkdir -p "$XDG_DATA_HOME/gully/presets"
printf 'description: mine\nworld: {seed: 5}\n' >"$XDG_DATA_HOME/gully/presets/zz-mine.yaml"
$gully presets | grep -q '^zz-mine .*mine$' || fail "user preset not listed"
$gully run -p zz-mine --dump-preset | grep -q '^  seed: 5 ' || fail "user preset not loaded"

# `gully presets NAME` shows the resolved values, marking the changes.
$gully presets ridges-and-plateaus >"$tmp/info" || fail "presets NAME exit $?"
grep -q '^\* terrain.generator  *ridged  *(default fbm)' "$tmp/info" || fail "info marks"
grep -q '^  world.width  *256$' "$tmp/info" || fail "info unchanged value"
$gully presets --json default | grep -q '"changed": \[\]' || fail "json: default changes nothing"

# And a preset runs.
$gully run -p ridges-and-plateaus --size 64x64 --particles 500 --quiet >"$tmp/run" ||
	fail "run exit $?"
grep -q '^particles	7	64	64	500	' "$tmp/run" || fail "run row: $(tail -1 "$tmp/run")"
# Named without -p, as the explorer and sweep take it: the same row but the
# seconds; a .yaml path too; a misspelt name is refused with a hint.
$gully run ridges-and-plateaus --size 64x64 --particles 500 --quiet >"$tmp/run2" ||
	fail "run PRESET exit $?"
[ "$(cut -f1-6,9- "$tmp/run")" = "$(cut -f1-6,9- "$tmp/run2")" ] ||
	fail "run PRESET differs from -p: $(tail -1 "$tmp/run2")"
$gully run "$tmp/a.yaml" --dump-preset | cmp -s - "$tmp/b.yaml" || fail "run FILE.yaml"
$gully run ridges-and-plateau --particles 1 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "run misspelt preset exit status"
grep -q "did you mean ridges-and-plateaus" "$tmp/err" || fail "no hint: $(cat "$tmp/err")"
$gully run -p default ridges-and-plateaus --particles 1 >/dev/null 2>&1
[ $? -eq 2 ] || fail "run with two presets"
# The explorer judges its argument the same way (before it needs a terminal).
$gully ridges-and-plateau </dev/null >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "explorer: misspelt preset exit status"
grep -q "no command, snapshot or preset (did you mean ridges-and-plateaus" "$tmp/err" ||
	fail "explorer: no hint: $(cat "$tmp/err")"
# A preset and a height map, in either order, run as -p with the map.
$gully run --size 32x32 --particles 0 --quiet -o "$tmp/m.pgm" >/dev/null || fail "a map: exit $?"
$gully run -p lake-chain "$tmp/m.pgm" --particles 200 --quiet >"$tmp/r1" || fail "-p MAP: exit $?"
$gully run "$tmp/m.pgm" lake-chain --particles 200 --quiet >"$tmp/r2" || fail "MAP PRESET: exit $?"
[ "$(cut -f1-6,9- "$tmp/r1")" = "$(cut -f1-6,9- "$tmp/r2")" ] || fail "MAP PRESET is not -p PRESET MAP"
$gully run "$tmp/m.pgm" "$tmp/m.pgm" --particles 1 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "two maps to start from" "$tmp/err" || fail "two maps: $(cat "$tmp/err")"

# $GULLY_PRESET_PATH adds directories before the others; it never hides the
# shipped presets (it did, from the build tree, even when empty).
mkdir "$tmp/pp"
for pp in "$tmp/pp" ""; do
	GULLY_PRESET_PATH=$pp $gully presets >"$tmp/list" 2>&1 ||
		fail "GULLY_PRESET_PATH='$pp' gully presets: exit $?"
	grep -q "^lake-chain " "$tmp/list" || fail "GULLY_PRESET_PATH='$pp' hid the shipped presets"
	GULLY_PRESET_PATH=$pp $gully run -p lake-chain --dump-preset >/dev/null 2>&1 ||
		fail "GULLY_PRESET_PATH='$pp' gully run -p lake-chain: exit $?"
done

# presets --json without a name: the list as a JSON array (it printed the
# text table), quotes in a description escaped.
printf 'description: say "hi"\nprocess: hydrology\n' >"$tmp/pp/quoted.yaml"
GULLY_PRESET_PATH=$tmp/pp $gully presets --json >"$tmp/json" || fail "presets --json: exit $?"
[ "$(head -n 1 "$tmp/json")" = "[" ] && [ "$(tail -n 1 "$tmp/json")" = "]" ] ||
	fail "presets --json is not an array: $(head -n 2 "$tmp/json")"
grep -q '^  {"name": "quoted", "process": "hydrology", "description": "say \\"hi\\"", "readable": true, "error": null, "path": ".*/pp/quoted.yaml"},$' \
	"$tmp/json" || fail "presets --json: no escaped entry for quoted: $(grep quoted "$tmp/json")"
grep -q '^  {"name": "lake-chain", ' "$tmp/json" || fail "presets --json lacks lake-chain"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/json" ||
		fail "presets --json is not JSON"
fi

# A preset that does not load is marked (broken), with the loader's line in
# place of its description. (The listing only peeked at the description and
# process: a typo'd key listed it as fine, and -p failed later.)
printf 'description: typo\nprocess: hydrology\nparticles:\n  frction: 0.1\n' >"$tmp/pp/typo.yaml"
GULLY_PRESET_PATH=$tmp/pp $gully presets >"$tmp/list" || fail "presets with a broken one: exit $?"
grep -q '^typo  *hydrology  *(broken) typo.yaml:4: particles.frction: unknown parameter' "$tmp/list" ||
	fail "the broken preset is not marked: $(grep '^typo' "$tmp/list")"
grep -q '^quoted  *hydrology  *say "hi"$' "$tmp/list" || fail "a good preset is marked: $(grep '^quoted' "$tmp/list")"
grep -q 'broken' "$tmp/list" && [ "$(grep -c broken "$tmp/list")" -ne 1 ] &&
	fail "a shipped preset is marked broken: $(grep broken "$tmp/list")"
GULLY_PRESET_PATH=$tmp/pp $gully presets --json >"$tmp/json" || fail "presets --json: exit $?"
grep -q '"name": "typo", .*"readable": true, "error": ".*/pp/typo.yaml:4: particles.frction: unknown parameter' \
	"$tmp/json" || fail "presets --json: no error for typo: $(grep typo "$tmp/json")"

# A file whose name -p cannot take (a space) is listed, refused, with why;
# -p by that name says why too (it was left out, and -p said "no preset
# named").
printf 'description: mine\nparticles:\n  friction: 0.2\n' >"$tmp/pp/my valley.yaml"
GULLY_PRESET_PATH=$tmp/pp $gully presets >"$tmp/list" || fail "presets with a refused one: exit $?"
grep -q "^my valley  *-  *(refused) my valley.yaml: not a preset name (letters, digits" "$tmp/list" ||
	fail "the file with a space is not listed as refused: $(grep valley "$tmp/list")"
GULLY_PRESET_PATH=$tmp/pp $gully run -p "my valley" --particles 10 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "-p 'my valley': not a usage error"
grep -q "^gully run: --preset: 'my valley' is not a preset name (.*): rename $tmp/pp/my valley.yaml to one, or give its path" \
	"$tmp/err" || fail "-p 'my valley' does not say why: $(cat "$tmp/err")"
GULLY_PRESET_PATH=$tmp/pp $gully run -p "$tmp/pp/my valley.yaml" --particles 10 >/dev/null 2>"$tmp/err" ||
	fail "the refused preset by its path: $(cat "$tmp/err")"
# gully info takes a preset's name too, and says why as -p does.
GULLY_PRESET_PATH=$tmp/pp $gully info "my valley" >/dev/null 2>"$tmp/err" && fail "info 'my valley': exit 0"
grep -q "^gully: my valley: no such file, and 'my valley' is not a preset name (.*): rename $tmp/pp/my valley.yaml to one" \
	"$tmp/err" || fail "info 'my valley' does not say why: $(cat "$tmp/err")"

# Such a file's name comes from the directory, not from gully: a control
# byte in it (an escape sequence, a line break) is shown as '?', so the
# listing stays one line a preset and the terminal's colours stay put.
esc=$(printf '\033')
mkdir "$tmp/pq"
printf 'description: red\n' >"$tmp/pq/bad${esc}[31mred.yaml"
printf 'description: two\n' >"$tmp/pq/two
lines.yaml"
GULLY_PRESET_PATH=$tmp/pq $gully presets --paths >"$tmp/list" || fail "presets with control bytes: exit $?"
grep -q "$esc" "$tmp/list" && fail "the listing prints a file name's escape sequence: $(grep red "$tmp/list")"
grep -q '^bad?\[31mred  *-  *(refused) bad?\[31mred\.yaml: .*\[.*/pq/bad?\[31mred\.yaml\]$' "$tmp/list" ||
	fail "the name with an escape byte is not shown with '?': $(grep red "$tmp/list")"
grep -q '^two?lines  *-  *(refused) two?lines\.yaml: ' "$tmp/list" ||
	fail "the name with a line break is not one line: $(cat "$tmp/list")"

[ $fails -eq 0 ] && echo "cli_preset: all passed"
exit $((fails > 0))
