#!/bin/sh
# For a class: the legend's heights are the terrain's own range and stay
# while it erodes (c re-fits them); overlays list their values; the
# cross-section (x) is drawn with an axis, follows the running map and keeps
# its place on a map of another size; the
# run counts down to particles.budget, stops there and runs on with Space.
# A big map says it is being made before it is.
. "$(dirname "$0")/lib.sh"

# The terrain's range, as `gully run` measures it, in the legend's format.
range=$("$GULLY" run --particles 0 --seed 5 --size 64x64 --json --quiet |
	sed -n 's/.*"height_min": *\([-0-9.e]*\).*"height_max": *\([-0-9.e]*\).*/\1 \2/p')
[ -n "$range" ] || range=$("$GULLY" run --particles 0 --seed 5 --size 64x64 --json --quiet |
	tr ',' '\n' | sed -n 's/.*"height_\(min\|max\)": *//p' | tr '\n' ' ')
lo=$(echo "$range" | awk '{ printf "%.3f", $1 }')
hi=$(echo "$range" | awk '{ printf "%.3f", $2 }')

start 100 34 -- --paused --seed 5 --size 64x64 --set particles.budget=40000
wait_for "1:particles"
wait_for "-- legend (c re-fits) --"
# The panel's border is | in ASCII and │ in UTF-8.
ramp=$(screen | grep -E "(\||│) $lo +[0-9.]+ +[0-9.]+ +$hi *$" | sed 's/.*\(|\|│\)//') ||
	fail "the legend's ramp does not run from $lo to $hi"
[ -n "$ramp" ] || fail "the legend's ramp does not run from $lo to $hi"
# The overlays on show (streams, pools) and the erosion pair with values (a
# swatch before each: a space, or a dithered half block at 256 colours).
screen | grep -E -q "streams[^0-9]+0\.10[^0-9]+0\.50[^0-9]+1\.00" || fail "no stream values in the legend"
screen | grep -E -q "pools[^0-9]+0\.005[^0-9]+0\.020[^0-9]+0\.050" || fail "no pool depths in the legend"
keys e
wait_for "erosion/deposition overlay: on"
# The erosion scale fits the map's changes; a map not yet eroded shows the default.
screen | grep -E -q "eroded[^0-9]+0\.002[^0-9]+0\.01[^0-9]+0\.05" || fail "no erosion values in the legend"
screen | grep -E -q "deposits[^0-9]+0\.002[^0-9]+0\.01[^0-9]+0\.05" || fail "no deposition values"
keys v
wait_for "trees overlay: on"
screen | grep -E -q "trees[^0-9]+0\.20[^0-9]+0\.50[^0-9]+1\.00" || fail "no tree values in the legend"

# The count-down before the run.
wait_for "PAUSED | 40,000 droplets to go |"

# The cross-section along the middle row: title, axis with the heights,
# its ends under it.
keys x
wait_for "cross-section along row 32"
wait_for "A 0,32"
wait_for "B 63,32"
screen | grep -E -q "^ *[0-9]\.[0-9]{3}┤" || fail "no height axis on the cross-section"
profile() { screen | sed -n '/cross-section along/,/A 0,32/p'; }
before=$(profile)
echo "$before" | grep -q "█" || fail "no filled curve"

# Run: it stops at the budget, the cross-section has followed the erosion,
# the legend's heights have not moved.
keys ' '
wait_for "stopped at 40,000"
wait_for "PAUSED | budget reached: Space runs on |"
screen | grep -E -q "droplets +40,000 *$" || fail "the run did not stop at exactly 40,000"
after=$(profile)
[ "$before" != "$after" ] || fail "the cross-section did not follow the run"
screen | grep -F -q "$ramp" || fail "the legend's heights moved while the map eroded"
# The erosion legend now fits the run's changes: its three values whole and
# rising (a narrow panel drops their leading 0s rather than cut the last;
# the legend is below the stats, whose eroded row is a total).
vals=$(screen | grep -E "eroded " | tail -1 | grep -oE '[0-9]*\.[0-9]+(e-[0-9]+)?' | head -3 | tr '\n' ' ')
echo "$vals" | awk '{ exit !(NF == 3 && $1 > 0 && $2 > $1 && $3 > $2) }' ||
	fail "the erosion legend's values are cut or out of order: $vals"

# c re-fits the colours to the eroded heights (the deposits raised the lowest).
keys c
wait_for "height colours now span "
screen | grep -F -q "$ramp" && fail "f did not re-fit the ramp"

# x again: along the middle column; ( moves it.
keys x
wait_for "cross-section along column 32"
keys '('
wait_for "cross-section along column 30"
wait_for "A 30,0"
keys x
wait_for "cross-section hidden"
wait_gone "A 30,0"

# Picking the line by clicks needs the mouse, and says so.
keys X
wait_for "picking a line needs the mouse"

# Space runs on past the budget.
keys ' '
wait_for "running on past the budget"
wait_for "RUNNING"
keys ' '
wait_for "PAUSED"

# A preset of another size: the column keeps its place on the map (30 of
# 64 is 60 of 128), not its number.
keys x x
wait_for "cross-section along column 32"
keys '('
wait_for "A 30,0"
printf 'world:\n  width: 128\n  height: 128\n' >"$TMPD/big.yaml"
keys P C-u
keys -l "$TMPD/big.yaml"
keys Enter
wait_for "| preset big"
wait_for "A 60,0"
wait_for "B 60,127"
quit_discarding

# Two clicks on the map give the cross-section's ends.
start 100 34 -- --paused --seed 5 --size 64x64 --mouse
wait_for "1:particles"
keys X
wait_for "cross-section: click its start"
click 4 20
wait_for "click its end"
click 20 50
wait_for "cross-section from "
title=$(screen | grep -o "cross-section from [0-9]*,[0-9]* to [0-9]*,[0-9]*" | head -n 1)
set -- $(echo "$title" | tr -c '0-9\n' ' ')
[ "$1" -lt "$3" ] && [ "$2" -lt "$4" ] || fail "the ends are not where the clicks were: $title"
screen | grep -F -q "A $1,$2" || fail "no start label under the cross-section"
screen | grep -F -q "B $3,$4" || fail "no end label under the cross-section"
quit_discarding

# A big map says what it is doing before its seconds of making a terrain
# (on stderr, which stays on the terminal's normal screen).
start 100 34 -- --paused --size 1024x1024
wait_for "1:particles"
grep -F -q "gully: making a 1024x1024 terrain" "$TMPD/err" || fail "no message before a big terrain"
quit_discarding

# Small changes (100 droplets, seed 1: a scale of about 0.09) need four
# digits each: the legend drops the leading 0s so that all three fit the
# panel whole.
start 100 34 -- --paused --seed 1 --size 64x64 --set particles.budget=100
wait_for "1:particles"
keys e ' '
wait_for "stopped at 100 droplets"
row=$(screen | grep -E "eroded " | tail -1)
echo "$row" | grep -q -E "[^0-9]\.00[0-9]+ +[^ ]?\.0[0-9]+ +[^ ]?\.0[0-9]+ *$" ||
	fail "the erosion legend is not compact: $row"
vals=$(echo "$row" | grep -oE '\.[0-9]+' | tr '\n' ' ')
echo "$vals" | awk '{ exit !(NF == 3 && $1 > 0 && $2 > $1 && $3 > $2) }' ||
	fail "the erosion legend's values are cut or out of order: $vals"
quit_discarding

# Tiny changes (a scale of about 0.001): the row's three values in one
# form, all decimals or all with an exponent, whole and rising (it was
# "4.6e-05 .00023 .0", two forms and the last cut).
start 100 34 -- --paused --seed 1 --size 64x64 --set particles.budget=100 \
	--set particles.deposition_rate=0.0005
wait_for "1:particles"
keys e ' '
wait_for "stopped at 100 droplets"
row=$(screen | grep -E "eroded " | tail -1)
vals=$(echo "$row" | sed 's/.*eroded//' | grep -oE '[0-9]*\.?[0-9]+(e-?[0-9]+)?' | tr '\n' ' ')
echo "$vals" | awk '{ e = 0; for (i = 1; i <= NF; i++) e += index($i, "e") > 0
	exit !(NF == 3 && (e == 0 || e == 3) && $1 > 0 && $2 > $1 && $3 > $2) }' ||
	fail "the erosion legend mixes its forms or is cut: $row"
quit_discarding
echo ok
