#!/bin/sh
# Without a UTF-8 locale the map is an ASCII ramp; 8 colours still colour
# it; NO_COLOR (and --color=none) send no colour escapes at all.
. "$(dirname "$0")/lib.sh"

# LANG=C: no half blocks, no other UTF-8 either.
start 100 30 LANG=C -- --seed 2 --set particles.budget=0
wait_for "RUNNING"
wait_for "-- stats --"
screen | grep -q '▀' && fail "half blocks under LANG=C"
screen | LC_ALL=C grep -q '[^ -~]' && fail "non-ASCII bytes under LANG=C"
screen | cut -c1-60 | grep -q '[.,=+*#%@-]' || fail "no density ramp in the map"
quit_discarding
stop

has_colour() { T capture-pane -p -e -t g | grep -E -q '\[([0-9;]*;)?(3[0-7]|4[0-7]|9[0-7]|10[0-7]|38;|48;)'; }

# Colour is there by default...
start 100 30 -- --seed 2 --set particles.budget=0
wait_for "RUNNING"
has_colour || fail "no colour escapes in the default run"
quit_discarding
stop

# An 8-colour terminal (63 pairs) still gets a coloured map, shaded: two
# of its colours through a shading glyph a cell.
start 100 30 TERM=xterm -- --seed 2 --set particles.budget=0
wait_for "RUNNING"
has_colour || fail "no colour escapes with 8 colours"
screen | grep -q '[░▒▓]' || fail "no shading glyphs with 8 colours"
quit_discarding
stop

# ...and colour is gone with NO_COLOR, where pools show as '~' and streams as
# ':' (tests/tui/terminals.sh looks for them).
start 100 30 NO_COLOR=1 -- --seed 2 --set particles.budget=0
wait_for "RUNNING"
wait_for "-- stats --"
has_colour && fail "colour escapes with NO_COLOR"
quit_discarding
stop

start 100 30 -- --color=none --ascii --seed 2 --set particles.budget=0
wait_for "RUNNING"
has_colour && fail "colour escapes with --color=none"
screen | LC_ALL=C grep -q '[^ -~]' && fail "non-ASCII bytes with --ascii"
quit_discarding
echo ok
