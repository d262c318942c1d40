#!/bin/sh
# usage: lat.sh GULLY LABEL : runs SPH rain to the particle cap, then times 5 presses of ?
G=$1; S=sphui$$
tmux -L $S new-session -d -x 160 -y 48 "$G --process sph -p sph-rain-valley --set terrain.generator=basins --set sph.rain=20000 --set sph.absorb_rate=0 --set sph.dry_rate=0"
sleep 1
# (the explorer starts running)
# wait for >= 24.5k particles in the stats
end=$(( $(date +%s) + 240 ))
while :; do
  p=$(tmux -L $S capture-pane -p | sed -n "s/.* particles  *\([0-9][0-9,]*\).*/\1/p" | head -1 | tr -d ,)
  [ "${p:-0}" -ge ${TARGET:-24500} ] 2>/dev/null && break
  [ $(date +%s) -gt $end ] && { echo "never reached 25k: $p"; break; }
  sleep 1
done
echo "particles $p after $(( $(date +%s) - end + 240 )) s"
s1=$(tmux -L $S capture-pane -p | sed -n "s/.* steps  *\([0-9][0-9,]*\).*/\1/p" | head -1 | tr -d ,); sleep 10; s2=$(tmux -L $S capture-pane -p | sed -n "s/.* steps  *\([0-9][0-9,]*\).*/\1/p" | head -1 | tr -d ,); echo "steps in 10 s: $s1 -> $s2"
tmux -L $S capture-pane -p | grep -E "steps  |particles  |per second" | head -3
for i in 1 2 3 4 5; do
  sleep 1
  t0=$(date +%s%N); tmux -L $S send-keys "?"
  while ! tmux -L $S capture-pane -p | grep -q "show or hide this help"; do :; done
  echo "$2 $(( ($(date +%s%N) - t0) / 1000000 )) ms"
  tmux -L $S send-keys "?"
  while tmux -L $S capture-pane -p | grep -q "show or hide this help"; do :; done
done
tmux -L $S capture-pane -p | grep -E "steps|particles|per second" | head -4
tmux -L $S kill-server
