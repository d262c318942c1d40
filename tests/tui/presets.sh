#!/bin/sh
# Presets in the explorer: P loads one through a prompt whose Tab completes
# and cycles the names; a bad preset shows its one-line error and changes
# nothing; W saves the parameters under a name and asks before replacing,
# your own preset too when another of its name hides it; the unsaved mark
# [+] follows what a file holds.
. "$(dirname "$0")/lib.sh"

printf 'particles:\n  friction: 0.25x\n' >"$TMPD/bad.yaml"
start 100 30 GULLY_PRESET_PATH="$PRESETS" -- --paused --seed 5 --size 64x64
wait_for "whole map | new map "
screen | grep -F -q "[+]" && fail "a fresh session is marked unsaved"

# Tab: the shared part of the names, then each in turn.
keys P
wait_for "load preset (Tab completes):"
keys e m i Tab
wait_for "load preset (Tab completes): emitter-"
screen | grep -F -q "emitter-canyon" || fail "the matches are not listed"
keys Tab
wait_for "load preset (Tab completes): emitter-canyon"
keys Tab
wait_for "load preset (Tab completes): emitter-spiral"
keys Tab
wait_for "load preset (Tab completes): emitter-canyon"
keys Escape
wait_for "no preset loaded"
screen | grep -F -q "1:particles" || fail "Esc changed the process"

# Nothing to complete says so and leaves the text.
keys P C-u z z Tab
wait_for "no match for 'zz'"
keys Escape

keys P C-u e m i t t e r - c Tab
wait_for "load preset (Tab completes): emitter-canyon"
keys Enter
wait_for "loaded preset emitter-canyon (emitter)"
wait_for "3:emitter"
wait_for "preset emitter-canyon"
screen | grep -F -q "[+]" && fail "a preset just loaded is marked unsaved"

# A bad preset: its error, one line, and the session as it was.
keys P C-u
keys -l "$TMPD/bad.yaml"
keys Enter
wait_for "bad.yaml:2: particles.friction"
screen | grep -F -q "3:emitter" || fail "a bad preset changed the process"
# The message has the status line while it shows; then the name is back.
wait_for "preset emitter-canyon"

# A parameter change marks the session; saving the preset clears it, as the
# map is still the one the parameters make.
keys Right
wait_for "[+]"
keys W
wait_for "save the parameters as preset: emitter-canyon"
keys C-u m i n e Enter
wait_for "saved preset mine"
wait_gone "[+]"
[ -f "$TMPD/home/.local/share/gully/presets/mine.yaml" ] || fail "no mine.yaml in the user presets"
grep -q "process: emitter" "$TMPD/home/.local/share/gully/presets/mine.yaml" ||
	fail "the saved preset does not name its process"

# Running changes the map: a preset alone no longer holds the session.
keys .
wait_for "stepped "
wait_for "[+]"
keys W
wait_for "save the parameters as preset: mine"
keys Enter
wait_for "preset mine exists"
keys n
wait_for "kept preset mine; nothing saved"
keys W Enter
wait_for "replace it? (y/n)"
keys y
wait_for "saved preset mine (parameters only: S saves the map too)"
screen | grep -F -q "[+]" || fail "a preset save cleared the mark of a run map"
# A shipped preset's name: not "replace it?" (the shipped file stays), and
# after saving, which of the two the name finds (here GULLY_PRESET_PATH's,
# searched before the user's presets).
cp "$PRESETS/river-valley.yaml" "$TMPD/river-valley.shipped"
keys W C-u
keys -l "river-valley"
keys Enter
wait_for "river-valley names a preset already"
keys y
wait_for "to your presets, but "
[ -f "$TMPD/home/.local/share/gully/presets/river-valley.yaml" ] || fail "no river-valley.yaml saved"
cmp -s "$PRESETS/river-valley.yaml" "$TMPD/river-valley.shipped" ||
	fail "the shipped river-valley was touched"
# A snapshot holds the map too.
keys S C-u
keys -l "$TMPD/s.gsnap"
keys Enter
wait_for "saved $TMPD/s.gsnap"
wait_gone "[+]"
quit_discarding

# Your own preset hidden by one of the same name found before it (here on
# GULLY_PRESET_PATH): W says it would replace yours; n leaves your file as
# it was, y replaces it, and the one that hides it stays as it was either
# way. The path is long and the terminal 80 columns: the question loses
# its middle, not its end, so "(y/n)" shows.
mine="$TMPD/home/.local/share/gully/presets/mine.yaml"
pp="$TMPD/presets-the-geography-class-shares-on-the-school-server/pp"
mkdir -p "$pp"
cp "$PRESETS/plane-rills.yaml" "$pp/mine.yaml"
cp "$mine" "$TMPD/mine.before"
start 80 30 GULLY_PRESET_PATH="$pp" -- --paused --seed 6 --size 64x64
wait_for "whole map | new map "
keys W C-u m i n e Enter
wait_for "ml) exists: replace it? (y/n)"
screen | grep -F -q "your preset mine (hidden by " || fail "the question lost its start"
keys n
wait_for "kept preset mine; nothing saved"
cmp -s "$mine" "$TMPD/mine.before" || fail "n changed your hidden preset"
keys W C-u m i n e Enter
wait_for "ml) exists: replace it? (y/n)"
keys y
wait_for "saved mine to your presets, but"
cmp -s "$mine" "$TMPD/mine.before" && fail "y left your hidden preset as it was"
# What it holds now is this session's: particles, seed 6 (it was emitter's).
grep -q "process: particles" "$mine" || fail "y did not write this session's process"
grep -q "seed: 6" "$mine" || fail "y did not write this session's seed"
cmp -s "$pp/mine.yaml" "$PRESETS/plane-rills.yaml" ||
	fail "the preset that hides yours was touched"
quit_discarding

# Installed with --prefix=$HOME/.local, your presets' directory is the
# shipped presets' own: W over a shipped name says so before replacing
# (here XDG_DATA_HOME's gully/presets is a link to the shipped ones; n).
mkdir -p "$TMPD/xdg/gully"
ln -s "$PRESETS" "$TMPD/xdg/gully/presets"
start 120 30 XDG_DATA_HOME="$TMPD/xdg" -- --paused --seed 7 --size 64x64
wait_for "whole map | new map "
keys W C-u
keys -l "river-valley"
keys Enter
wait_for "where gully's shipped presets are too): replace it? (y/n)"
keys n
wait_for "kept preset river-valley; nothing saved"
cmp -s "$PRESETS/river-valley.yaml" "$TMPD/river-valley.shipped" ||
	fail "n touched the shipped river-valley"
quit_discarding
echo ok
