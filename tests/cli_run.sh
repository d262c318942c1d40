#!/bin/sh
# gully run as its name promises: N droplets run to their end, counts as
# people write them, every -o checked before the run, several outputs at
# once, and SIGINT/SIGTERM keeping what is done in a snapshot that resumes to
# the very bits of a run that never stopped. POSIX sh; make check sets GULLY.
. "$(dirname "$0")/clilib.sh"
# col NAME: that column of the TSV row in $T/out.
col() {
	awk -F '\t' -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i }
		NR == 2 { print $c }' "$T/out"
}
# The soil books balance: eroded - deposited = off the map + still in flight.
balanced() {
	awk -v e="$(col eroded_volume)" -v d="$(col deposited_volume)" \
		-v o="$(col sediment_off_map)" -v f="$(col sediment_in_flight)" \
		'BEGIN { r = e - d - o - f; exit !(r <= 1e-6 * e && -r <= 1e-6 * e) }'
}

# N droplets run to their end: each lockstep-engine edge case of 64 lanes.
last_steps=0
for n in 1 10 63 64 65 1000; do
	expect 0 "--particles $n" -- "$GULLY" run --quiet --size 64x64 --particles $n
	[ "$(col particles)" = "$n" ] || fail "$n droplets: particles $(col particles)"
	[ "$(col total_particles)" = "$n" ] || fail "$n droplets: total $(col total_particles)"
	[ "$(col sediment_in_flight)" = 0 ] || fail "$n droplets: $(col sediment_in_flight) in flight"
	steps=$(col steps)
	[ "$steps" -ge "$n" ] || fail "$n droplets took $steps steps: not every one moved"
	[ "$steps" -ge "$last_steps" ] || fail "$n droplets took fewer steps than fewer droplets"
	last_steps=$steps
	balanced || fail "$n droplets: the soil books do not balance"
done
# One droplet in the lockstep engine is the one-at-a-time engine's droplet.
"$GULLY" run --quiet --size 64x64 --particles 1 -o "$T/l.f32" >/dev/null
"$GULLY" run --quiet --size 64x64 --particles 1 --set particles.lanes=1 -o "$T/s.f32" >/dev/null
cmp -s "$T/l.f32" "$T/s.f32" || fail "one droplet: lanes and the solo engine differ"

# Counts as people write them.
for c in 2k 2000 2e3 0.002M; do
	expect 0 "--particles $c" -- "$GULLY" run --quiet --size 32x32 --particles $c
	[ "$(col particles)" = 2000 ] || fail "--particles $c ran $(col particles)"
done
for c in 1.5 2x 1e-3 -1 k 1e16; do
	expect 2 "--particles $c refused" -- "$GULLY" run --quiet --particles "$c"
	err_has "particles"
done

# Unknown names: a usage error (2) that suggests the nearest one.
expect 2 "presets NAME unknown" -- "$GULLY" presets bogus
expect 2 "-p NAME unknown" -- "$GULLY" run -p bogus
expect 2 "-p near a name" -- "$GULLY" run -p river-valey
err_has "did you mean river-valley?"
expect 2 "presets near a name" -- "$GULLY" presets river-valey
err_has "did you mean river-valley?"
expect 2 "--set near a key" -- "$GULLY" run --set particles.frction=0.1
err_has "did you mean particles.friction?"
expect 2 "--set a bare name" -- "$GULLY" run --set friction=0.1
err_has "did you mean particles.friction?"
expect 2 "--vary near a key" -- "$GULLY" sweep --vary hydrology.drainag=0.1
err_has "did you mean hydrology.drainage?"
expect 2 "--process near a name" -- "$GULLY" run --process hydrolgy
err_has "did you mean hydrology?"
expect 2 "nothing near" -- "$GULLY" run --set zzzzzzzz=1
grep -q "did you mean" "$T/err" && fail "suggested a name for zzzzzzzz: $(cat "$T/err")"

# info shows the embedded preset only when asked.
"$GULLY" run --quiet --size 32x32 --particles 10 -o "$T/p.gsnap" >/dev/null
expect 0 "info" -- "$GULLY" info "$T/p.gsnap"
grep -q "^  | " "$T/out" && fail "info printed the preset text unasked"
grep -q "^preset: *embedded (shown with --preset)" "$T/out" || fail "info does not say a preset is there"
expect 0 "info --preset" -- "$GULLY" info --preset "$T/p.gsnap"
grep -q "^  | particles:" "$T/out" || fail "info --preset did not print the preset text"

# Every -o is checked before the run: a billion droplets would take minutes,
# so an exit within seconds means nothing ran.
for bad in "$T/pic.jpg" "$T/nodir/x.gsnap" "$T/out/x.gsnap"; do
	start=$(date +%s)
	expect 2 "-o $bad refused first" -- "$GULLY" run --quiet --particles 1e9 \
		-o "$T/ok.gsnap" -o "$bad"
	[ $(($(date +%s) - start)) -lt 10 ] || fail "-o $bad: refused only after running"
	[ -e "$T/ok.gsnap" ] && fail "-o $bad: the good output was written anyway"
	: >"$T/out"
done
expect 2 "-o twice" -- "$GULLY" run --quiet -o "$T/a.r16" -o "$T/a.r16"
expect 2 "--overlay without a picture" -- "$GULLY" run --quiet --overlay streams -o "$T/a.r16"

# Several outputs at once, each by its extension.
expect 0 "-o three ways" -- "$GULLY" run --quiet --size 32x32 --particles 500 \
	-o "$T/m.gsnap" -o "$T/m.png" -o "$T/m.r16"
[ "$(head -c 4 "$T/m.png" | od -An -c | tr -d ' ')" = "211PNG" ] || fail "m.png is not a PNG"
[ "$(wc -c <"$T/m.r16")" -eq 2048 ] || fail "m.r16 is not 32x32 16-bit"
"$GULLY" render "$T/m.gsnap" -o "$T/m2.r16" && cmp -s "$T/m.r16" "$T/m2.r16" ||
	fail "-o .r16 differs from the snapshot's height rendered"

# SIGINT and SIGTERM mid-run: what is done is written, marked, and resumes
# exactly. The budget doubles until a signal lands before the run ends.
interrupt() { # SIGNAL STATUS
	budget=1000000
	while :; do
		# (Every signal at its default: a background job of this shell
		# ignores INT, and gully keeps an ignored signal ignored.)
		env --default-signal "$GULLY" run --quiet --size 64x64 --particles $budget \
			-o "$T/i.gsnap" >"$T/out" 2>"$T/err" &
		pid=$!
		sleep 0.3
		kill -"$1" $pid 2>/dev/null
		wait $pid
		got=$?
		[ "$got" -ne 0 ] || [ $budget -ge 32000000 ] && break
		budget=$((budget * 2))
	done
	[ "$got" -eq "$2" ] || { fail "SIG$1: exit $got, expected $2"; return 1; }
	echo "ok: SIG$1 exits $2"
	err_has "interrupted"
	[ "$(col process)" = particles ] || fail "SIG$1: no metrics row"
	balanced || fail "SIG$1: the soil books do not balance"
	return 0
}
if interrupt INT 130; then
	"$GULLY" info "$T/i.gsnap" >"$T/info" || fail "info on the interrupted snapshot"
	done_n=$(sed -n 's/^interrupted: *after \([0-9]*\) of .*/\1/p' "$T/info")
	[ -n "$done_n" ] || fail "info does not say the snapshot was interrupted"
	grep -Eq "^ +sediment_in_flight +0$" "$T/info" &&
		fail "the interrupted snapshot has no droplets in flight to resume"
	expect 0 "resume the interrupted run" -- "$GULLY" run --quiet \
		--particles $((budget - done_n)) "$T/i.gsnap" -o "$T/r.f32"
	expect 0 "the run that never stopped" -- "$GULLY" run --quiet --size 64x64 \
		--particles $budget -o "$T/u.f32"
	cmp -s "$T/r.f32" "$T/u.f32" || fail "interrupted + resumed differs from unbroken"
	# Without --particles the snapshot's own mark gives the rest, and says so.
	expect 0 "resume with no count" -- "$GULLY" run "$T/i.gsnap" -o "$T/r2.f32"
	cmp -s "$T/r2.f32" "$T/u.f32" || fail "a resume with no count did not run the rest"
	err_has "stopped after $done_n of $budget droplets: running the other $((budget - done_n))"
	[ "$(col particles)" = $((budget - done_n)) ] || fail "the resume ran $(col particles) droplets"
	# Continued with another process, the droplets in flight land first.
	expect 0 "continue with hydrology" -- "$GULLY" run --quiet --process hydrology \
		--particles 0 "$T/i.gsnap"
	[ "$(col sediment_in_flight)" = 0 ] || fail "hydrology left soil in flight"
	balanced || fail "after landing, the soil books do not balance"
fi
interrupt TERM 143
# A hang-up too (the SSH connection dropped under a run in the foreground):
# what is done is written and resumable, as the explorer autosaves; before,
# the run died at once and a day's work was gone.
rm -f "$T/i.gsnap"
if interrupt HUP 129; then
	"$GULLY" info "$T/i.gsnap" 2>&1 | grep -q "^interrupted: *after [0-9]* of $budget\$" ||
		fail "SIGHUP: no snapshot marked interrupted"
	err_has "interrupted (Hangup)"
fi

# sph counts time, not droplets: its water stays in flight at a run's end,
# so a run saved and continued is the run that never stopped.
expect 0 "sph, 40 steps" -- "$GULLY" run --quiet --process sph -p sph-horizontal-jet \
	--steps 40 -o "$T/s1.gsnap"
[ "$(col sph_particles)" -gt 0 ] || fail "sph run ended with $(col sph_particles) particles"
expect 0 "sph, 40 more" -- "$GULLY" run --quiet "$T/s1.gsnap" --steps 40 -o "$T/s2.f32"
expect 0 "sph, 80 at once" -- "$GULLY" run --quiet --process sph -p sph-horizontal-jet \
	--steps 80 -o "$T/s3.f32"
cmp -s "$T/s2.f32" "$T/s3.f32" || fail "sph: 40 + 40 steps differs from 80"
# Its soil keeps the pores it was made with: a --set of them on its snapshot
# is the options' fault, a usage error said as run's (and sweep's) others
# are, before any run (it was "gully: ...", exit 1, once per sweep point).
expect 2 "sph snapshot, --set sph.soil_depth" -- "$GULLY" run --quiet "$T/s1.gsnap" \
	--steps 5 --set sph.soil_depth=2
err_has "^gully run: --set: .*s1.gsnap: its sph state was made with sph.soil_depth=1.0"
expect 2 "sph snapshot, sweep over sph.porosity" -- "$GULLY" sweep --quiet "$T/s1.gsnap" \
	--steps 5 --vary sph.porosity=0.3,0.5
err_has "^gully sweep: --vary sph.porosity=0.5: .*s1.gsnap: its sph state was made with"
grep -q "point .* failed" "$T/err" && fail "the sweep ran its points: $(cat "$T/err")"
# `gully presets NAME` without such a preset: a usage error, said as one.
expect 2 "presets of no such name" -- "$GULLY" presets no-such-preset
err_has "^gully presets: no preset named 'no-such-preset'"

# info gives an sph snapshot's own totals, the values the run's row gave.
expect 0 "sph run for info" -- "$GULLY" run --process sph --size 64x64 --steps 120 \
	-o "$T/si.gsnap"
expect 0 "info on sph" -- "$GULLY" info "$T/si.gsnap"
cp "$T/out" "$T/info"
"$GULLY" run --process sph --size 64x64 --steps 120 >"$T/out" 2>/dev/null
for k in splash_volume scour_volume mud_deposited water_absorbed; do
	v=$(col $k)
	grep -q "^  $k  *$v\$" "$T/info" || fail "info: $k is not the run's $v: $(grep "$k" "$T/info")"
done
grep -q "^  particles  *$(col sph_particles) in flight, $(col particles) released\$" "$T/info" ||
	fail "info: sph particles: $(grep "in flight" "$T/info")"
grep -q "in 120 steps\$" "$T/info" || fail "info: sph steps: $(grep "simulated" "$T/info")"
# Its top line says which particles it counts: the released, not in flight.
grep -q "^particles: *$(col total_particles) released\$" "$T/info" ||
	fail "info: the particles line does not say released: $(grep "^particles" "$T/info")"
[ "$(col splash_volume)" != 0 ] || fail "the sph run for info splashed nothing"

# info says where the terrain came from, for whoever cites the run: the
# parameters' generator and seed when they make the base layer, and not
# when the map began as a height map of its own or the seed changed since
# (--seed on a snapshot restarts only the random stream).
"$GULLY" run --quiet --size 48x32 --seed 5 -p river-valley --particles 200 \
	-o "$T/t.gsnap" -o "$T/t_48x32.f32" >/dev/null || fail "run for the terrain line"
"$GULLY" info "$T/t.gsnap" >"$T/info"
grep -q "^terrain: *terrain.generator=valley, world.seed=5 (the base layer is what they make)" \
	"$T/info" || fail "info on a made terrain: $(grep -A1 '^terrain' "$T/info")"
"$GULLY" run --quiet "$T/t_48x32.f32" --particles 200 -o "$T/own.gsnap" >/dev/null ||
	fail "run on a height map"
"$GULLY" info "$T/own.gsnap" >"$T/info"
grep -q "^terrain: *not what terrain.generator=fbm, world.seed=42 make: a height map" "$T/info" ||
	fail "info on an imported terrain: $(grep -A1 '^terrain' "$T/info")"
"$GULLY" run --quiet "$T/t.gsnap" --seed 6 --particles 10 -o "$T/s6.gsnap" >/dev/null ||
	fail "run --seed on a snapshot"
"$GULLY" info "$T/s6.gsnap" >"$T/info"
grep -q "^terrain: *not what terrain.generator=valley, world.seed=6 make" "$T/info" ||
	fail "info after --seed: $(grep -A1 '^terrain' "$T/info")"

# What to cite: --version names the commit gully was built from (a git
# checkout's; "0.1.0" alone named every build), and info says which gully
# wrote a snapshot, as the preset text inside it records.
src=${srcdir:-.}
"$GULLY" --version >"$T/out"
if [ -e "$src/.git" ] && head=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null); then
	grep -q "^gully [0-9][0-9.]* (git $head\(-dirty\)\?)\$" "$T/out" ||
		fail "--version does not name the commit $head: $(head -n 1 "$T/out")"
else
	echo "ok: (no git checkout at $src: --version without a commit)"
fi
"$GULLY" info "$T/t.gsnap" >"$T/info"
want=$(head -n 1 "$T/out")
grep -q "^written by: *$want\$" "$T/info" ||
	fail "info does not say which gully wrote it ($want): $(sed -n 2p "$T/info")"
"$GULLY" info --preset "$T/t.gsnap" | grep -q "^  | # gully preset, written by $want:" ||
	fail "the snapshot's preset text does not name $want"

finish
