#!/bin/sh
# A user who scripts sweeps across machines, taking gully(1) at its word:
# each block names the defect it holds shut. POSIX sh; make check exports GULLY.
. "$(dirname "$0")/clilib.sh"
RUN="$GULLY run --quiet --particles 10 --size 16x16"

# ---- 1: every command takes --help and --version (gully(1), OPTIONS) ----
# (params and presets refused --version: exit 2, "unknown option".)
for c in run sweep render info params presets; do
	expect 0 "$c --version" -- "$GULLY" $c --version
	grep -q '^gully [0-9]' "$T/out" || fail "$c --version printed no version: $(cat "$T/out")"
	expect 0 "$c --help" -- "$GULLY" $c --help
	grep -q -- '--version' "$T/out" || fail "$c --help does not list --version"
done

# ---- 2: the formats the help texts name are the ones gully reads ----
# (sweep --help named .ppm as a MAP to start from; gully cannot import one.
# run --help left out .png for --hardness, which it reads.)
expect 0 "a map to start from" -- $RUN -o "$T/map.gsnap"
exts=$("$GULLY" sweep --help | tr '\n' ' ' | sed -n 's/.*MAP, a height map (\([^)]*\)).*/\1/p')
[ -n "$exts" ] || fail "sweep --help names no height-map formats (the check proves nothing)"
for e in $exts; do
	g=
	[ "$e" = .png ] && g=--gray16
	expect 0 "render $e for sweep's MAP" -- "$GULLY" render "$T/map.gsnap" $g -o "$T/start$e"
	expect 0 "sweep starts from a $e map, as its --help says" -- \
		"$GULLY" sweep --quiet --particles 10 --vary world.seed=1,2 "$T/start$e"
done
"$GULLY" run --help | grep -q -- '--hardness FILE .*\.png' || fail "run --help: --hardness lacks .png"
expect 0 "--hardness takes a greyscale .png" -- $RUN --hardness "$T/start.png"

# ---- 3: a file -o replaces keeps its permissions ----
# (Every save made a new file of 0666 less the umask: a 0640 result became
# world-readable, a 0664 one in a shared sweep directory lost group write.)
for f in keep.png keep.gsnap keep.f32; do
	: >"$T/$f"
	chmod 640 "$T/$f"
	expect 0 "-o replaces $f" -- $RUN -o "$T/$f"
	[ -s "$T/$f" ] || fail "-o left $f empty"
	m=$(ls -l "$T/$f" | cut -c1-10)
	[ "$m" = "-rw-r-----" ] || fail "-o $f: mode $m after the save, was -rw-r-----"
done
: >"$T/grp.tsv.png"
chmod 664 "$T/grp.tsv.png"
expect 0 "render -o replaces a 0664 file" -- "$GULLY" render "$T/map.gsnap" -o "$T/grp.tsv.png"
m=$(ls -l "$T/grp.tsv.png" | cut -c1-10)
[ "$m" = "-rw-rw-r--" ] || fail "render -o: mode $m after the save, was -rw-rw-r--"
rm -f "$T/new.png"
(umask 022 && $RUN -o "$T/new.png" >/dev/null) || fail "-o a new file failed"
m=$(ls -l "$T/new.png" | cut -c1-10)
[ "$m" = "-rw-r--r--" ] || fail "a new -o file: mode $m, expected 0666 less umask 022"

# ---- 4: a raw map named with another size than the map's is refused ----
# (render -o ridge_64x64.f32 of a 16x16 map wrote it; gully, as any terrain
# tool, then read it at its name's size: "1024 bytes is not the 64x64 map
# its name gives".)
expect 2 "render -o a raw map named for another size" -- \
	"$GULLY" render "$T/map.gsnap" -o "$T/ok.png" -o "$T/ridge_64x64.f32"
err_has "ridge_64x64.f32: its name says 64x64 but the map is 16x16"
[ -e "$T/ridge_64x64.f32" ] && fail "render wrote ridge_64x64.f32 all the same"
[ -e "$T/ok.png" ] && fail "render wrote ok.png before refusing the other output"
expect 2 "run -o a raw map named for another size, before the run" -- $RUN -o "$T/m_32x32.r16"
[ -s "$T/out" ] && fail "run went ahead before refusing m_32x32.r16"
[ -e "$T/m_32x32.r16" ] && fail "run wrote m_32x32.r16 all the same"
expect 0 "render -o a raw map named with its own size" -- \
	"$GULLY" render "$T/map.gsnap" -o "$T/ridge_16x16.r16" -o "$T/plain.f32"
expect 0 "which reads back" -- $RUN "$T/ridge_16x16.r16"
expect 2 "run from it, -o named for another size" -- $RUN "$T/ridge_16x16.r16" -o "$T/n_17x16.f32"

# ---- 5: --save-maps DIR holds one sweep, as --out DIR does ----
# (A second sweep into the same --save-maps replaced run-0000.gsnap and left
# the first sweep's run-0001 and run-0002 beside it: a directory of maps from
# two sweeps, nothing telling them apart.) The refusal quotes the first line
# of the grids that differs (it said "other values, format or shared
# options", leaving the user to diff them).
SW="$GULLY sweep --quiet --particles 10 --size 16x16"
expect 0 "a sweep keeps its maps" -- $SW --vary world.seed=1,2,3 --save-maps "$T/maps"
[ -f "$T/maps/run-0002.gsnap" ] || fail "no run-0002.gsnap in --save-maps"
cp "$T/maps/run-0000.gsnap" "$T/first.gsnap"
expect 2 "another sweep into those maps is refused" -- $SW --vary particles.friction=0.1 --save-maps "$T/maps"
err_has "maps holds another sweep (its sweep.grid has 'points 3' where this sweep has 'points 1')"
[ -s "$T/out" ] && fail "the other sweep printed rows before refusing"
cmp -s "$T/maps/run-0000.gsnap" "$T/first.gsnap" || fail "the other sweep replaced run-0000.gsnap"
expect 2 "another sweep's --point into them is refused" -- \
	$SW --vary world.seed=7,8 --save-maps "$T/maps" --point 0
expect 2 "another sweep's --emit for them is refused" -- \
	$SW --vary world.seed=7,8 --save-maps "$T/maps" --emit
expect 0 "the same sweep again is fine" -- $SW --vary world.seed=1,2,3 --save-maps "$T/maps"
expect 0 "the same sweep with --out the same directory" -- \
	$SW --vary world.seed=1,2,3 --save-maps "$T/maps" --out "$T/maps"

# ---- 6: emitted commands name the maps' files by absolute paths ----
# (--emit with --save-maps and no --out printed `-o maps/run-0000.gsnap`:
# under parallel --sshlogin or a job array the command runs in another
# directory, and its maps went there, or nowhere: "no directory maps".)
mkdir "$T/elsewhere"
(cd "$T" && $SW --vary world.seed=4,5 --save-maps rel --emit) >"$T/cmds" || fail "--emit failed"
TP=$(cd "$T" && pwd -P)
grep -q -- "-o $TP/rel/run-0000.gsnap" "$T/cmds" || fail "emitted -o is not absolute: $(head -n 1 "$T/cmds")"
(cd "$T/elsewhere" && sh "$T/cmds" >/dev/null 2>&1) || fail "the emitted commands failed elsewhere"
[ -f "$T/rel/run-0001.gsnap" ] || fail "the emitted commands did not write rel/run-0001.gsnap"
[ -e "$T/elsewhere/rel" ] && fail "the emitted commands wrote their maps where they ran"

# ---- 7: --range bounds a float32 holds ----
# (render --range 0:1e40 wrote every sample 0 and said "read back with
# --range 0:inf", a range run then refused.)
for r in 0:1e40 -1e39:0 0:1e-50; do
	expect 2 "render --range $r is refused" -- "$GULLY" render "$T/map.gsnap" -o "$T/r.r16" --range $r
	err_has "is not MIN:MAX"
	expect 2 "run --range $r is refused" -- $RUN "$T/ridge_16x16.r16" --range $r
done
[ -e "$T/r.r16" ] && fail "render wrote r.r16 with a range no float holds"
expect 0 "render --range -1e30:1e30 (floats)" -- "$GULLY" render "$T/map.gsnap" -o "$T/r.r16" --range -1e30:1e30
grep -q "inf" "$T/err" && fail "render printed an infinite range: $(cat "$T/err")"

# ---- 8: sweep --json writes JSON whatever way a number was typed ----
# (--vary takes .1, +0.2 and 0. as --set does, and --json printed them as
# typed: {"particles.friction": .1, ...}, which no JSON reader takes.)
num='-?(0|[1-9][0-9]*)([.][0-9]+)?([eE][+-]?[0-9]+)?'
expect 0 "sweep --json over numbers typed loosely" -- \
	$SW --json --vary particles.friction=.1,+0.2,0.,3e-1 --vary world.seed=+3,4
[ "$(wc -l <"$T/out")" -eq 8 ] || fail "expected 8 JSON lines: $(cat "$T/out")"
grep -Evq "^[{]\"particles[.]friction\": $num, \"world[.]seed\": $num, \"process\": " "$T/out" &&
	fail "a JSON line with a number JSON does not take: $(grep -Ev "^[{]\"particles[.]friction\": $num, \"world[.]seed\": $num, " "$T/out" | head -n 1)"
grep -q '^{"particles.friction": 0.1, "world.seed": 3, ' "$T/out" || fail ".1 and +3 not written as 0.1 and 3"
grep -q '^{"particles.friction": 3e-1, ' "$T/out" || fail "3e-1, a JSON number, not kept as typed"
expect 0 "the same through --out and --collect" -- $SW --json --vary particles.friction=.1,+0.2 --out "$T/jout"
expect 0 "--collect" -- "$GULLY" sweep --collect "$T/jout"
grep -q '^{"particles.friction": 0.2, ' "$T/out" || fail "--collect: +0.2 not written as 0.2: $(cat "$T/out")"
rm "$T/jout/run-0001.json"
expect 1 "--collect with a point missing" -- "$GULLY" sweep --collect "$T/jout"
grep -q '^{"particles.friction": 0.2, "status": "missing"}$' "$T/out" ||
	fail "a missing point's JSON line has not the number its rows have: $(cat "$T/out")"

# ---- 9: emitted commands find the preset the sweep found ----
# (-p NAME found on $GULLY_PRESET_PATH or in the user's presets went out by
# name: on another machine, or under Slurm without that environment, the run
# failed "no preset named", or ran the shipped preset a user's one shadows.)
mkdir -p "$T/pp" "$T/xdg/gully/presets"
printf 'particles:\n  friction: 0.2\n' >"$T/pp/steep.yaml"
GULLY_PRESET_PATH="$T/pp" $SW -p steep --vary world.seed=1,2 --emit >"$T/cmds" ||
	fail "--emit -p steep failed"
grep -q -- "-p $TP/pp/steep.yaml " "$T/cmds" || fail "-p steep not emitted as its file: $(head -n 1 "$T/cmds")"
(unset GULLY_PRESET_PATH; sh "$T/cmds" >/dev/null 2>"$T/err") || fail "the commands failed: $(cat "$T/err")"
printf 'description: mine\nprocess: particles\n' >"$T/xdg/gully/presets/river-valley.yaml"
(unset GULLY_PRESET_PATH; XDG_DATA_HOME="$T/xdg" $SW -p river-valley --vary world.seed=1 --emit) \
	>"$T/cmds" || fail "--emit failed"
grep -q -- "-p $TP/xdg/gully/presets/river-valley.yaml " "$T/cmds" ||
	fail "a user preset shadowing a shipped one went out by name: $(cat "$T/cmds")"
(unset GULLY_PRESET_PATH; XDG_DATA_HOME="$T/none" $SW -p river-valley --vary world.seed=1 --emit) \
	>"$T/cmds" || fail "--emit failed"
grep -q -- "-p river-valley " "$T/cmds" || fail "a shipped preset not emitted by name: $(cat "$T/cmds")"

# ---- 10: sweep's default --jobs is the CPUs it may use, not the machine's ----
# (Under taskset, a cgroup cpuset or Slurm's --cpus-per-task the sweep still
# started one run per CPU of the whole machine, all on the few it was given.)
# (One CPU of those this shell may use: CPU 0 may not be among them.)
cpu=$(taskset -pc $$ 2>/dev/null | sed 's/.*: *//; s/[,-].*//')
if command -v pgrep >/dev/null 2>&1 && [ -n "$cpu" ] && [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ]; then
	taskset -c "$cpu" "$GULLY" sweep --help | grep -q 'may use, 1$' ||
		fail "sweep --help under taskset -c $cpu does not give 1 job: $(taskset -c "$cpu" "$GULLY" sweep --help | grep -A1 jobs)"
	taskset -c "$cpu" "$GULLY" sweep --quiet --vary world.seed=1:4:1 --particles 50M --size 64x64 \
		>/dev/null 2>&1 &
	pid=$!
	# Until its first run has started (a loaded or sanitizer build is slow),
	# then a moment for any second one.
	t=0
	while [ "$(pgrep -P "$pid" | wc -l)" -eq 0 ] && [ $t -lt 100 ]; do
		sleep 0.1
		t=$((t + 1))
	done
	sleep 1
	n=$(pgrep -P "$pid" | wc -l)
	kill -TERM "$pid"
	wait "$pid"
	[ "$n" -eq 1 ] || fail "a sweep under taskset -c $cpu ran $n runs at once, not 1"
else
	echo "note: no taskset, pgrep or second CPU here: the --jobs default case is skipped"
fi

# ---- 11: a sweep whose every run finished says no runs were stopped ----
# (With stdout full it said "1 of 1 runs finished; the runs under way were
# stopped": there were none.)
if [ -w /dev/full ]; then
	$SW --vary world.seed=1 >/dev/full 2>"$T/err" && fail "a sweep into /dev/full exited 0"
	err_has "1 of 1 runs finished"
	grep -q "under way" "$T/err" && fail "a finished sweep spoke of runs under way: $(cat "$T/err")"
fi

# ---- 12: one file named twice by -o, however it is written, is refused ----
# (-o b.png -o ./b.png, or a symlink and its target, passed the "given twice"
# check, which compared the strings: the run wrote the one file twice.)
ln -s twice.png "$T/alias.png"
expect 2 "-o b.png -o ./b.png" -- sh -c "cd '$T' && $RUN -o twice.png -o ./twice.png"
err_has "given twice"
expect 2 "-o through a symlink and its target" -- $RUN -o "$T/alias.png" -o "$T/twice.png"
err_has "twice.png given twice (as -o $T/alias.png)"
expect 2 "render -o DIR/../DIR/x" -- "$GULLY" render "$T/map.gsnap" -o "$T/twice.png" \
	-o "$T/elsewhere/../twice.png"
expect 0 "two files are two" -- $RUN -o "$T/twice.png" -o "$T/twice.gsnap"

# ---- 13: -p FILE for a file here says why it is not taken ----
# (-p run.gsnap, the snapshot beside the user, said only "no preset named
# 'run.gsnap' (see gully presets)", as for a typo.)
cp "$T/map.gsnap" "$T/here.gsnap"
printf 'particles:\n  friction: 0.2\n' >"$T/mine"
expect 2 "-p SNAPSHOT" -- sh -c "cd '$T' && $RUN -p here.gsnap"
err_has "no preset named 'here.gsnap'; it is a file here: a snapshot or height map goes without -p"
expect 2 "-p a preset file without .yaml" -- sh -c "cd '$T' && $RUN -p mine"
err_has "a preset file as ./mine"
expect 0 "which ./mine takes" -- sh -c "cd '$T' && $RUN -p ./mine"
expect 2 "a typo still gets the nearest name" -- $RUN -p river-valey
err_has "did you mean river-valley"

# ---- 14: params SECTION, mistyped, names the nearest and the sections ----
# (gully(1), EXIT STATUS: a usage error names the nearest known name; params
# said only "no section named 'particle'".)
expect 2 "params with a mistyped section" -- "$GULLY" params particle
err_has "no section named 'particle' (did you mean particles? one of world|terrain|"
expect 2 "params with an unknown section" -- "$GULLY" params xyz
err_has "one of world|terrain|hardness|particles|hydrology|emitter|sph|view)"
# One parameter by its key: its section's heading and its row, nothing else
# (it said "no section named 'hydrology.normal'").
expect 0 "params KEY" -- "$GULLY" params hydrology.normal
[ "$(wc -l <"$T/out")" -eq 2 ] && head -1 "$T/out" | grep -q '^hydrology: ' &&
	sed -n 2p "$T/out" | grep -q '^  hydrology.normal  *particles  *particles|2020' ||
	fail "params hydrology.normal: $(cat "$T/out")"
expect 0 "params SECTION starts with its heading" -- "$GULLY" params hydrology
head -1 "$T/out" | grep -q '^hydrology: ' || fail "params hydrology starts with '$(head -1 "$T/out")'"
expect 2 "params with a mistyped key" -- "$GULLY" params hydrology.nrmal
err_has "unknown parameter 'hydrology.nrmal' (did you mean hydrology.normal?)"

# ---- 15: a SIGINT ignored at start stays ignored in run and a sweep's runs ----
# (gully(1), SIGNALS. run caught SIGINT for its chunks whatever it was given:
# a `gully run ... &` in a script, or a sweep's runs under a sweep that
# ignores SIGINT, died of a ^C meant for another program, the sweep marking
# them failed and going on.)
(trap '' INT; exec "$GULLY" run --quiet --particles 50M --size 64x64 >/dev/null 2>&1) &
pid=$!
sleep 1
kill -INT "$pid" 2>/dev/null
sleep 1
if kill -0 "$pid" 2>/dev/null; then
	echo "ok: run ignores a SIGINT it was started ignoring"
	kill -TERM "$pid"
else
	fail "run died of a SIGINT it was started ignoring"
fi
wait "$pid"
if command -v pgrep >/dev/null 2>&1; then
	(trap '' INT; exec $SW --vary world.seed=1,2 --particles 50M --size 64x64 --jobs 1 \
		--out "$T/ign" >/dev/null 2>"$T/ign.err") &
	pid=$!
	sleep 1
	run=$(pgrep -P "$pid" | head -n 1)
	[ -n "$run" ] || fail "no run under the sweep (the check proves nothing)"
	kill -INT "$run" 2>/dev/null
	sleep 1
	kill -0 "$run" 2>/dev/null || fail "a sweep's run died of a SIGINT the sweep ignores"
	kill -TERM "$pid"
	wait "$pid"
	grep -q "point 0 failed" "$T/ign.err" && fail "the sweep marked its run failed: $(cat "$T/ign.err")"
fi

# ---- 16: sweep --dump-preset says what does print a point's preset ----
# (It said "--dump-preset is for single runs: --save-maps DIR keeps each
# run's map", an answer to -o.)
expect 2 "sweep --dump-preset" -- $SW --vary world.seed=1,2 --dump-preset
err_has "dump-preset is for single runs: .gully run. with the shared options"
grep -q "save-maps" "$T/err" && fail "sweep --dump-preset answered as -o: $(cat "$T/err")"
expect 2 "sweep -o" -- $SW --vary world.seed=1,2 -o "$T/x.gsnap"
err_has "save-maps DIR keeps each run's map"

# ---- 17: --rain for a process that takes no rain mask is refused ----
# (The emitter and sph start their particles elsewhere: --rain was read and
# dropped without a word, and a sweep "with rain" ran without it.)
expect 0 "a rain mask" -- "$GULLY" render "$T/map.gsnap" --gray16 -o "$T/rain.png"
expect 2 "run --process emitter --rain" -- $RUN --process emitter --rain "$T/rain.png"
err_has "the emitter process does not start its particles from a rain mask"
[ -s "$T/out" ] && fail "run --process emitter --rain ran before refusing"
expect 2 "run -p sph-horizontal-jet --rain" -- $RUN -p sph-horizontal-jet --rain "$T/rain.png"
expect 2 "sweep -p emitter-canyon --rain, before any run" -- \
	$SW -p emitter-canyon --rain "$T/rain.png" --vary world.seed=1,2
[ -s "$T/out" ] && fail "the sweep ran before refusing --rain"
expect 0 "particles take it" -- $RUN --rain "$T/rain.png"
expect 0 "hydrology takes it" -- $RUN --process hydrology --rain "$T/rain.png"

# ---- 18: --emit=slurm over Slurm's default MaxArraySize ----
# (A 1003-point grid asked for --array=0-1002, which a default Slurm, whose
# indices stop at 1000, refuses at sbatch.) 1000 tasks, task K runs K,
# K + 1000, ...; a failed point fails its task.
expect 0 "--emit=slurm of 1003 points" -- \
	$SW --vary world.seed=1:1003:1 --emit=slurm --out "$T/slurm"
grep -q '^#SBATCH --array=0-999$' "$T/out" || fail "not 1000 tasks: $(grep array "$T/out")"
cp "$T/out" "$T/job.sh"
SLURM_ARRAY_TASK_ID=2 sh "$T/job.sh" >/dev/null 2>&1 || fail "task 2 failed"
[ "$(ls "$T/slurm" | grep -c '^run-')" -eq 2 ] && [ -s "$T/slurm/run-0002.tsv" ] &&
	[ -s "$T/slurm/run-1002.tsv" ] || fail "task 2 did not run points 2 and 1002: $(ls "$T/slurm")"
SLURM_ARRAY_TASK_ID=999 sh "$T/job.sh" >/dev/null 2>&1 || fail "task 999 failed"
[ -s "$T/slurm/run-0999.tsv" ] || fail "task 999 did not run point 999"
mkdir "$T/slurm/run-0001.tsv" # point 1 cannot write its row; point 1001 can
SLURM_ARRAY_TASK_ID=1 sh "$T/job.sh" >/dev/null 2>&1 && fail "a task with a failed point exited 0"
[ -s "$T/slurm/run-1001.tsv" ] || fail "a failed point stopped its task's next one"
expect 0 "--emit=slurm of 1000 points" -- $SW --vary world.seed=1:1000:1 --emit=slurm --out "$T/s2"
grep -q '^#SBATCH --array=0-999$' "$T/out" || fail "1000 points are not 1000 tasks"
grep -q '^exec .* --point "$SLURM_ARRAY_TASK_ID"$' "$T/out" || fail "a task of 1000 points runs more than its own"

# ---- 19: a key both varied and fixed by a shared option is refused ----
# (--vary world.seed won over --seed, --vary world.width over --size and
# --vary K over --set K in every run, without a word: the table's seed column
# said 1, 2 for a user who asked for seed 5.)
expect 2 "--vary world.seed with --seed" -- $SW --vary world.seed=1,2 --seed 5
err_has "vary world.seed and --seed both set the seed"
expect 2 "--vary world.height with --size" -- $SW --vary world.height=16,32
err_has "vary world.height and --size both set the map's size"
expect 2 "--vary K with --set K" -- $SW --vary particles.friction=0.1,0.2 --set particles.friction=0.3
err_has "vary particles.friction and --set particles.friction=0.3 both set it"
[ -s "$T/out" ] && fail "a refused sweep ran"
expect 0 "other keys still combine" -- $SW --vary particles.friction=0.1,0.2 --set particles.dt=1 --seed 3
[ "$(cut -f 3 "$T/out" | sort -u | tr '\n' ' ')" = "3 seed " ] || fail "--seed 3 did not reach the runs"

# ---- 20: a sweep's maps keep the world.threads the user gave ----
# (Each run had --set world.threads=1, so its saved parameters said 1 and
# `gully run maps/run-0000.gsnap` went on with one thread. The runs take
# --threads 1 now, which a snapshot does not keep.)
expect 0 "a sweep saves its maps" -- $SW --vary world.seed=1,2 --save-maps "$T/thr"
expect 0 "info of a saved map" -- "$GULLY" info "$T/thr/run-0001.gsnap"
grep -q 'world.threads' "$T/out" && fail "a sweep's map says $(grep world.threads "$T/out")"
expect 0 "a sweep with -p and --set world.threads=2" -- \
	$SW --set world.threads=2 --vary world.seed=1,2 --save-maps "$T/thr2"
expect 0 "info of its map" -- "$GULLY" info "$T/thr2/run-0000.gsnap"
grep -q '^  world.threads=2$' "$T/out" || fail "--set world.threads=2 not kept: $(grep threads "$T/out")"
expect 0 "the runs of a sweep run on one thread" -- $SW --vary world.seed=1,2 --emit
[ "$(grep -c -- ' --threads 1 ' "$T/out")" -eq 2 ] || fail "no --threads 1: $(cat "$T/out")"
expect 0 "unless world.threads is set" -- $SW --vary world.threads=1,2 --emit
grep -q -- '--threads' "$T/out" && fail "--threads beside a varied world.threads: $(cat "$T/out")"
expect 0 "run --threads 1 keeps --set world.threads=3" -- \
	$RUN --threads 1 --set world.threads=3 -o "$T/t1.gsnap" -o "$T/t1.f32"
expect 0 "info" -- "$GULLY" info "$T/t1.gsnap"
grep -q '^  world.threads=3$' "$T/out" || fail "run --threads 1 saved $(grep threads "$T/out")"
expect 0 "the same run on two threads" -- $RUN --threads 2 -o "$T/t2.f32"
cmp -s "$T/t1.f32" "$T/t2.f32" || fail "--threads 1 and 2 gave other maps"
expect 2 "run --threads 65" -- $RUN --threads 65
err_has "threads: '65' is not a count from 0 to 64"

# ---- 21: --dump-preset with -o is refused, not half done ----
# (run --dump-preset -o FILE printed the preset and wrote no FILE, exit 0;
# sweep -o FILE --dump-preset answered as if for -o alone.)
rm -f "$T/dumped.gsnap"
expect 2 "run --dump-preset -o" -- $RUN --dump-preset -o "$T/dumped.gsnap"
err_has "dump-preset runs nothing, so -o .*dumped.gsnap would get no map"
[ -s "$T/out" ] && fail "run --dump-preset -o printed the preset all the same"
expect 2 "sweep -o FILE --dump-preset" -- $SW -o "$T/p.yaml" --vary world.seed=1,2 --dump-preset
err_has "dump-preset is for single runs: .* (> FILE.yaml keeps it; -o is for maps)"
expect 2 "sweep --dump-preset -o FILE" -- $SW --vary world.seed=1,2 --dump-preset -o "$T/p.yaml"
err_has "dump-preset is for single runs: .* (> FILE.yaml keeps it; -o is for maps)"
expect 0 "run --dump-preset alone" -- $RUN --dump-preset
grep -q '^world:' "$T/out" || fail "run --dump-preset printed no preset"

# ---- 22: sweep --gully '' is refused ----
# (An unset variable, --gully "$GULLY", printed commands that start with ''
# and fail on every machine they are sent to.)
expect 2 "sweep --emit --gully ''" -- $SW --vary world.seed=1,2 --emit --gully ''
err_has "gully: an empty path"
[ -s "$T/out" ] && fail "sweep --gully '' printed commands: $(cat "$T/out")"

# ---- 23: sweep --resume runs only the points --out DIR lacks ----
# (The same sweep started again after a Slurm time limit ran every point
# again, those already in DIR too.) A row taken is not run again (its
# seconds, set to 12345 here, come back as they are); a failed or missing
# point runs; a row file of another grid or cut short is refused, naming
# it, before any run; another grid's DIR names the line that differs.
RS="$SW --vary world.seed=1:4:1 --out $T/res"
expect 0 "a sweep into --out" -- $RS
cut -f 1-7,10- "$T/out" >"$T/whole"
awk 'BEGIN { FS = OFS = "\t" } NR == 2 { $8 = 12345 } { print }' "$T/res/run-0000.tsv" >"$T/r0"
mv "$T/r0" "$T/res/run-0000.tsv"
rm "$T/res/run-0002.tsv" "$T/res/run-0003.tsv"
echo "exit 1" >"$T/res/run-0003.failed"
expect 0 "--resume" -- $RS --resume
[ "$(sed -n 2p "$T/out" | cut -f 8)" = 12345 ] || fail "--resume ran point 0 again: $(sed -n 2p "$T/out")"
[ "$(cut -f 1-7,10- "$T/out")" = "$(cat "$T/whole")" ] || fail "--resume's table differs: $(cat "$T/out")"
[ -s "$T/res/run-0002.tsv" ] && [ -s "$T/res/run-0003.tsv" ] && [ ! -e "$T/res/run-0003.failed" ] ||
	fail "--resume did not run points 2 and 3: $(ls "$T/res")"
expect 0 "--resume with every point done" -- "$GULLY" sweep --particles 10 --size 16x16 \
	--vary world.seed=1:4:1 --out "$T/res" --resume
err_has "resume: 4 of 4 points are done in $T/res; running the other 0"
[ "$(wc -l <"$T/out")" -eq 5 ] || fail "--resume of a finished sweep: $(cat "$T/out")"
expect 0 "--point --resume of a point done" -- $RS --resume --point 0
[ "$(sed -n 2p "$T/out" | cut -f 8)" = 12345 ] || fail "--point --resume ran it again: $(cat "$T/out")"
# --emit --resume lists only the points left (it printed a command for
# every point, the finished ones returning at once when run); a job array's
# script keeps every task id, each passing --resume on.
RV="$GULLY sweep --particles 10 --size 16x16 --vary world.seed=1:4:1 --out $T/res"
expect 0 "--emit --resume of a finished sweep" -- $RV --resume --emit
[ -s "$T/out" ] && fail "--emit --resume printed commands for points done: $(cat "$T/out")"
err_has "resume: all 4 points are done in $T/res: nothing to emit"
expect 0 "--emit=slurm --resume" -- $RS --resume --emit=slurm
grep -q -- '^#SBATCH --array=0-3$' "$T/out" && grep -q -- ' --resume --point "$SLURM_ARRAY_TASK_ID"$' "$T/out" ||
	fail "--emit=slurm --resume: $(cat "$T/out")"
rm "$T/res/run-0001.tsv" "$T/res/run-0002.tsv"
echo "exit 1" >"$T/res/run-0002.failed"
expect 0 "--emit --resume of a sweep half done" -- $RV --resume --emit
[ "$(grep -c -- ' --resume --point [12]$' "$T/out")" -eq 2 ] && [ "$(wc -l <"$T/out")" -eq 2 ] ||
	fail "--emit --resume did not list points 1 and 2 alone: $(cat "$T/out")"
err_has "resume: 2 of 4 points are done in $T/res; emitting the other 2"
sh "$T/out" >/dev/null 2>&1 || fail "the emitted commands failed"
[ -s "$T/res/run-0001.tsv" ] && [ -s "$T/res/run-0002.tsv" ] && [ ! -e "$T/res/run-0002.failed" ] ||
	fail "the emitted commands did not run points 1 and 2: $(ls "$T/res")"
cp "$T/res/run-0000.tsv" "$T/res/run-0003.tsv"
for e in "" =slurm; do
	expect 1 "--emit$e --resume over another point's row" -- $RS --resume --emit$e
	err_has "run-0003.tsv: its row is not this point's (its varied values differ): remove it to run point 3 again"
	[ -s "$T/out" ] && fail "--emit$e --resume printed over a bad row: $(cat "$T/out")"
done
cp "$T/res/run-0000.tsv" "$T/res/run-0001.tsv"
rm "$T/res/run-0003.tsv"
expect 1 "--resume over another point's row" -- $RS --resume
err_has "run-0001.tsv: its row is not this point's (its varied values differ): remove it to run point 1 again"
[ -s "$T/out" ] && fail "--resume printed rows before refusing"
[ -e "$T/res/run-0003.tsv" ] && fail "--resume ran a point before refusing"
head -c 40 "$T/res/run-0002.tsv" >"$T/res/run-0001.tsv"
expect 1 "--resume over a row cut short" -- $RS --resume
err_has "run-0001.tsv: it is cut short in its header"
expect 2 "--resume into another grid's DIR" -- $SW --vary world.seed=1:5:1 --out "$T/res" --resume
err_has "res holds another sweep (its sweep.grid has 'points 4' where this sweep has 'points 5')"
# A DIR with a space is quoted where a message names it mid-sentence, as
# the user would type it (it read "done in my runs; running ...").
expect 0 "a sweep into a DIR with a space" -- $SW --vary world.seed=1,2 --out "$T/my runs"
expect 0 "--resume in a DIR with a space" -- "$GULLY" sweep --particles 10 --size 16x16 \
	--vary world.seed=1,2 --out "$T/my runs" --resume
err_has "points are done in '$T/my runs'; running the other 0"
expect 2 "another grid in a DIR with a space" -- $SW --vary world.seed=1:3:1 --out "$T/my runs"
err_has "^gully: '$T/my runs' holds another sweep .*, or empty '$T/my runs' first"
expect 2 "--resume without --out" -- $SW --vary world.seed=1:4:1 --resume
err_has "resume takes the rows a sweep left in --out DIR"
expect 0 "a JSON sweep" -- $SW --vary world.seed=1,2 --json --out "$T/resj"
cp "$T/out" "$T/j1"
rm "$T/resj/run-0001.json"
expect 0 "--resume of it" -- $SW --vary world.seed=1,2 --json --out "$T/resj" --resume
[ "$(sed 's/"seconds.*"eroded/"eroded/' "$T/out")" = "$(sed 's/"seconds.*"eroded/"eroded/' "$T/j1")" ] ||
	fail "a JSON --resume differs: $(cat "$T/out")"
# A sweep really stopped (SIGTERM, as a Slurm time limit sends), then
# resumed, gives the table of one that never stopped.
BIG="$GULLY sweep --quiet --particles 20000 --size 64x64 --jobs 1 --vary world.seed=1:6:1"
expect 0 "an uninterrupted sweep" -- $BIG
cut -f 1-7,10- "$T/out" >"$T/whole"
$BIG --out "$T/cut" >/dev/null 2>&1 &
pid=$!
n=0
while [ ! -e "$T/cut/run-0000.tsv" ] && [ $n -lt 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
kill -TERM "$pid" 2>/dev/null
wait "$pid"
expect 0 "the stopped sweep resumed" -- $BIG --out "$T/cut" --resume
[ "$(cut -f 1-7,10- "$T/out")" = "$(cat "$T/whole")" ] || fail "stopped and resumed differs: $(cat "$T/out")"

# ---- 24: --collect tells a row file that cannot be read from a missing one ----
# (A row file without read permission was "not this grid's row: cannot
# read", marked failed: as if the run had gone wrong, when its row may be
# fine.) A file there that cannot be read (no permission; a directory, which
# root cannot read either) is named with the reason and marked unreadable;
# --resume says to make it readable or remove it; an absent one is missing.
CO="$SW --vary world.seed=1:3:1 --out $T/co"
expect 0 "a sweep into --out" -- $CO
chmod 755 "$T" "$T/co"
as_other() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
	as_other() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	as_other "$GULLY" --version >/dev/null 2>&1 || as_other() { return 99; }
fi
chmod 600 "$T/co/run-0001.tsv"
if as_other "$GULLY" --version >/dev/null 2>&1; then
	expect 1 "--collect with a row file it may not read" -- as_other "$GULLY" sweep --collect "$T/co"
	err_has "point 1: $T/co/run-0001.tsv: cannot read: Permission denied$"
	grep -q "not this grid's row" "$T/err" && fail "an unreadable row called another grid's: $(cat "$T/err")"
	[ "$(sed -n 3p "$T/out" | cut -f 1,2)" = "2	unreadable" ] || fail "not marked unreadable: $(sed -n 3p "$T/out")"
	expect 1 "--resume with a row file it may not read" -- as_other $CO --resume
	err_has "run-0001.tsv: cannot read: Permission denied: make it readable, or remove it to run point 1 again"
else
	echo "note: no other user to read as: the permission case is skipped"
fi
chmod 644 "$T/co/run-0001.tsv"
mv "$T/co/run-0001.tsv" "$T/co/row1"
mkdir "$T/co/run-0001.tsv"
expect 1 "--collect with a directory for a row file" -- "$GULLY" sweep --collect "$T/co"
err_has "point 1: $T/co/run-0001.tsv: cannot read: "
[ "$(sed -n 3p "$T/out" | cut -f 1,2)" = "2	unreadable" ] || fail "not marked unreadable: $(sed -n 3p "$T/out")"
rmdir "$T/co/run-0001.tsv"
expect 1 "--collect with a row file absent" -- "$GULLY" sweep --collect "$T/co"
err_has "point 1 missing: $T/co/run-0001.tsv$"
[ "$(sed -n 3p "$T/out" | cut -f 1,2)" = "2	missing" ] || fail "not marked missing: $(sed -n 3p "$T/out")"

# ---- 25: --vary refuses a value given twice ----
# (world.seed=1,1,2 ran seed 1 twice: two identical rows that look like a
# result, a typo's cost in runs.) The same number written two ways is the
# same run too; negative values and exponents are values like any other.
expect 2 "--vary with a value twice" -- $SW --vary world.seed=1,1,2 --emit
err_has "vary world.seed: 1 is given twice (values 1 and 2): their points would be the same runs"
[ -s "$T/out" ] && fail "--vary 1,1,2 emitted commands: $(cat "$T/out")"
expect 2 "--vary with one number written two ways" -- $SW --vary particles.friction=0.1,2e-1,0.10
err_has "vary particles.friction: 0.1 and 0.10 are the same value (values 1 and 3)"
# A range whose STEP is lost in the 12 digits its values are written with
# says so (it said "0.1 is given twice", which the user never typed).
expect 2 "--vary with a range finer than its values' digits" -- \
	$SW --vary particles.friction=0.1:0.1000000000001:0.00000000000001 --emit
err_has "the range 0.1:0.1000000000001:0.00000000000001 gives 0.1 twice (a STEP that small is lost in 12 digits)"
expect 0 "--vary with negative and exponent values" -- $SW --process hydrology --vary hydrology.sea_level=-1e-1,-2,5E-1
[ "$(cut -f 1 "$T/out" | tr '\n' ' ')" = "hydrology.sea_level -1e-1 -2 5E-1 " ] ||
	fail "negative and exponent values: $(cut -f 1 "$T/out")"

# ---- 26: an --out DIR the user may not write in is said before any run ----
# (A sweep into a DIR already there but read-only to this user, resumed or
# run again, ran every point and then failed to keep each row, one line a
# point.) With every point done, --resume still prints the table.
WO="$SW --vary world.seed=1,2 --out $T/wo"
expect 0 "a sweep into --out" -- $WO
rm "$T/wo/run-0001.tsv"
chmod 555 "$T/wo"
if [ "$(id -u)" -ne 0 ] || as_other "$GULLY" --version >/dev/null 2>&1; then
	for extra in "" "--point 1" "--resume"; do
		expect 1 "a sweep $extra into a DIR it may not write in" -- as_other $WO $extra
		err_has "wo: cannot write the runs' files in it: Permission denied"
		[ "$(grep -c 'cannot' "$T/err")" -eq 1 ] || fail "more than one line: $(cat "$T/err")"
		[ -s "$T/out" ] && fail "rows printed before the refusal: $(cat "$T/out")"
	done
	chmod 755 "$T/wo"
	expect 0 "the missing point" -- $WO --point 1
	chmod 555 "$T/wo"
	expect 0 "--resume with every point done, DIR read-only" -- as_other $WO --resume
	[ "$(wc -l <"$T/out")" -eq 3 ] || fail "--resume of a read-only DIR: $(cat "$T/out")"
else
	echo "note: no other user to run as: the read-only DIR case is skipped"
fi
chmod 755 "$T/wo"

# ---- 27: what a user copies from gully's words is quoted; one line a command ----
# (The job script's comment said `gully sweep --collect DIR` with DIR bare,
# which a DIR with a space breaks, and "of 1 runs"; --collect of a DIR with
# no grid named `--out DIR` bare too. A line break in a path, even quoted,
# cut an emitted command in two: parallel ran each half, and a job script
# ran its comment's second line as a command.)
SP="$T/sp ace"
mkdir "$SP"
expect 0 "--emit=slurm into a DIR with a space" -- $SW --vary world.seed=1 --emit=slurm --out "$SP/one dir"
grep -q "^# A gully sweep of 1 run as" "$T/out" || fail "not '1 run': $(sed -n 2p "$T/out")"
grep -q "^# is done, \`gully sweep --collect '$SP/one dir'\` prints the table.$" "$T/out" ||
	fail "the collect command in the script is not quoted: $(sed -n 4p "$T/out")"
expect 1 "--collect of a DIR without a grid" -- "$GULLY" sweep --collect "$SP"
err_has "(a sweep with \`--out '$SP'\` writes it)"
nl="$T/n
l"
for e in "" =slurm; do
	expect 2 "--emit$e into a DIR with a line break" -- $SW --vary world.seed=1,2 --emit$e --out "$nl"
	err_has "emit: '$T/n?l' holds a line break"
	[ -s "$T/out" ] && fail "--emit$e printed commands with a line break in them: $(cat "$T/out")"
	[ -e "$nl" ] && fail "--emit$e made the DIR all the same"
done

# A varied key of a process the runs do not use: every row was the same
# run, labelled with values that never acted. Refused, naming the fix.
expect 2 "--vary of an sph key on process 1's runs" -- \
	"$GULLY" sweep --quiet --particles 10 --size 32x32 --vary sph.jet1_speed=4,8
err_has "the runs are the particles process, which does not read sph.\*: add --process sph"
expect 2 "--vary of a particles key on an sph preset's runs" -- \
	"$GULLY" sweep --quiet -p sph-craters --steps 5 --vary particles.friction=0.1,0.2
err_has "add --process particles"
expect 0 "the sph key with --process sph" -- \
	"$GULLY" sweep --quiet --process sph --steps 5 --size 32x32 --vary sph.jet1_speed=4,8
[ "$(cut -f 1,2 "$T/out" | tail -n 2 | tr '\n' ' ')" = "4	sph 8	sph " ] ||
	fail "the sph sweep's rows: $(cat "$T/out")"

# A refused fixed value names the ones taken, from the option's own table.
expect 2 "--emit=x" -- "$GULLY" sweep --vary world.seed=1,2 --emit=x
err_has "--emit=x: one of parallel, slurm"
expect 2 "--theme blue" -- "$GULLY" --theme blue
err_has "--theme: 'blue' is not dark or light"

# ---- 28: a picture or height map given to info or render says what it is ----
# (both said only "not a gully snapshot (wrong magic)" of a map gully itself
# had written with run -o.)
"$GULLY" run --quiet --size 32x32 --particles 0 -o "$T/hm.f32" -o "$T/pic.png" >/dev/null ||
	fail "run -o hm.f32 -o pic.png"
expect 2 "info HEIGHTMAP" -- "$GULLY" info "$T/hm.f32"
err_has "is a picture or height map, not a snapshot (.gsnap); a height map becomes one with \`gully run "
expect 2 "render PICTURE" -- "$GULLY" render "$T/pic.png" -o "$T/x.png"
err_has "is a picture or height map, not a snapshot (.gsnap); a height map's terrain is pictured by"
[ ! -e "$T/x.png" ] || fail "render wrote x.png from a picture"
expect 1 "info of a missing map is still 'cannot open'" -- "$GULLY" info "$T/none.png"
err_has "cannot open: No such file or directory"

echo "checks done"
finish
