#!/bin/sh
# Nothing is lost (issue 12, section 1): q asks when unsaved, q closes help
# and overlays rather than the program, g, P and a process switch can be
# undone and redone, S never overwrites silently and picks a fresh name,
# and the prompt's pre-filled value is replaced by typing and edits with
# Ctrl-U, Ctrl-W, Home, End, Left and Right.
. "$(dirname "$0")/lib.sh"

# gully runs in the temporary directory, where S saves.
cd "$TMPD" || exit 99
start 140 30 -- --paused --seed 5 --size 64x64
wait_for "PAUSED"
# Nothing run yet: nothing to lose, but help first: q inside it closes it.
keys '?'
wait_for "gully keys"
keys q
wait_gone "gully keys"
screen | grep -q "gully exited" && fail "q in help quit the program"
keys '?'
wait_for "gully keys"
keys Escape
wait_gone "gully keys"
# The equations overlay closes with q too.
keys E
wait_for "the equations (E hides)"
keys q
wait_gone "the equations (E hides)"
# An unbound key says how to find the keys.
keys '#'
wait_for "unknown key: press ? for help"

# A step makes the session unsaved: q asks; n stays, F10 asks the same.
keys .
wait_for "stepped "
wait_for "[+]"
keys q
wait_for "quit without saving? y/n/s to save"
keys n
wait_for "not quitting"
keys F10
wait_for "quit without saving? y/n/s to save"
keys Escape
wait_for "not quitting"

# g is undoable: u brings seed 5's eroded map back, U goes forward again.
droplets() { screen | sed -n 's/.*droplets  *\([0-9.k]*\) *$/\1/p'; }
n1=$(droplets)
[ -n "$n1" ] && [ "$n1" != 0 ] || fail "no droplets after a step ($n1)"
keys g
wait_for "new terrain, seed 6"
[ "$(droplets)" = 0 ] || fail "a new terrain has droplets"
keys u
wait_for "undone: "
[ "$(droplets)" = "$n1" ] || fail "u after g did not bring the eroded map back ($(droplets), not $n1)"
wait_for "seed 5"
keys U
wait_for "redone: "
[ "$(droplets)" = 0 ] || fail "redo did not go back to the new terrain"
wait_for "seed 6"
keys u
wait_for "undone: "
[ "$(droplets)" = "$n1" ] || fail "a second u did not come back to the eroded map"

# P is undoable: its parameters and process go back too.
keys P
wait_for "load preset"
keys -l "$PRESETS/plane-rills.yaml"
keys Enter
wait_for "loaded preset"
keys u
wait_for "undone: "
[ "$(droplets)" = "$n1" ] || fail "u after P did not bring the eroded map back"
wait_for "seed 5"

# S offers a fresh, timestamped name and saves there.
keys S
wait_for "save snapshot to: gully-5-"
keys Enter
wait_for "saved gully-5-"
first=$(ls gully-5-*.gsnap | head -n 1)
[ -f "$first" ] || fail "S saved no file"
# Saving over another existing file asks; n keeps it.
: >"$TMPD/other.gsnap"
keys .
wait_for "stepped "
keys S
wait_for "save snapshot to: "
keys -l "$TMPD/other.gsnap"
keys Enter
wait_for "exists: replace it? (y/n)"
keys n
wait_for "not saved"
[ -s "$TMPD/other.gsnap" ] && fail "n still wrote other.gsnap"
# A picture's name is refused in one line saying how to get a picture (S
# once wrote snapshot bytes into foo.png).
keys S
wait_for "save snapshot to: "
keys -l "$TMPD/pic.png"
keys Enter
wait_for "not saved: S writes a .gsnap snapshot, not pic.png"
wait_for "gully render NAME.gsnap -o pic.png"
[ -e "$TMPD/pic.png" ] && fail "S wrote a snapshot into pic.png"
# A directory (or FIFO) by a snapshot's name: refused at once, not after a
# "replace it?" whose yes could only fail.
mkdir "$TMPD/dir.gsnap"
keys S
wait_for "save snapshot to: "
keys -l "$TMPD/dir.gsnap"
keys Enter
# Whichever comes first: a question would stand where the refusal goes
# (the refusal could only follow its answer), so look for both.
end=$(($(date +%s) + TUI_TIMEOUT))
while :; do
	case $(screen) in
	*"exists: replace it?"*) fail "S asked to replace a directory" ;;
	*"not saved: $TMPD/dir.gsnap"*) break ;;
	esac
	[ "$(date +%s)" -ge "$end" ] && fail "timed out waiting for the directory's refusal"
	sleep 0.2
done
[ -d "$TMPD/dir.gsnap" ] || fail "the directory was touched"

# The prompt: the pre-filled value is selected, so typing replaces it.
keys Home
wait_for ">dt"
keys Down
wait_for ">density"
keys Enter
wait_for "set particles.density to:"
keys 0.25 Enter
wait_for "particles.density = 0.25"
# Home, Right, Right, then 1: 0.25 becomes 0.125.
keys Enter
wait_for "set particles.density to: 0.25"
keys Home Right Right 1 Enter
wait_for "particles.density = 0.125"
# End and Ctrl-W erase the word; Left then a digit inserts before the last.
keys Enter
wait_for "set particles.density to:"
keys End C-w 0.5 Left 7 Enter
wait_for "particles.density = 0.75"
# Ctrl-U clears; Esc cancels, leaving the value.
keys Enter
wait_for "set particles.density to:"
keys C-u 9 Escape
wait_for "cancelled"
screen | grep -E -q '>density +0\.75' || fail "Esc changed the value"

# End and PgUp move in the list; / finds a parameter by name.
keys End
wait_for ">world."
keys PageUp
wait_gone ">world.threads"
keys / 
wait_for "find parameter:"
keys friction Enter
wait_for ">friction"

# y quits without saving.
keys q
wait_for "quit without saving?"
keys y
wait_exit 0

# Unstable parameters (light droplets that dig past the next cell): the run
# pauses as the heights leave the model's range, saying which parameters to
# change, and u goes back past any checkpoint taken as it went wrong.
start 100 30 -- --paused --size 64x64 --set particles.density=0.1 \
	--set particles.deposition_rate=0.5 --set particles.friction=0
wait_for "PAUSED"
keys Space
wait_for "particles went unstable after"
wait_for "lower particles.deposition_rate or particles.dt; paused, u goes back"
wait_for "PAUSED"
keys u
wait_for "undone: seed 42, 0 droplets (was "
keys q
wait_for "quit without saving?"
keys y
wait_exit 0
echo ok
