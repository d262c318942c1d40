#!/bin/sh
# Tab completion: `gully complete -- WORD...` offers what the program's own
# tables hold (commands, each command's getopt options, the parameter
# registry, the preset search, processes, layers, overlays), and
# completion/gully.bash turns it into COMPREPLY in bash. The last part holds
# the completion to the sources: every command in main.c's table and every
# option in a getopt table is offered, so none can be added without it.
. "$(dirname "$0")/clilib.sh"
srcdir=${srcdir:-.}
# Presets from a directory of this test's own, on the search path -p uses.
mkdir -p "$T/home" "$T/presets" "$T/work/runs" "$T/work/maps"
export HOME="$T/home" GULLY_PRESET_PATH="$T/presets"
unset XDG_DATA_HOME
echo "description: only here" >"$T/presets/only-in-this-test.yaml"
: >"$T/work/heights.r16"

# comp WORD...: the candidates, sorted, one a line, in $T/got; stderr
# must stay empty and the status 0 (it runs on every Tab).
comp() {
	"$GULLY" complete -- gully "$@" >"$T/raw" 2>"$T/err"
	st=$?
	[ "$st" -eq 0 ] || fail "complete $*: exit $st"
	[ -s "$T/err" ] && fail "complete $*: wrote to stderr: $(cat "$T/err")"
	sort "$T/raw" >"$T/got"
}
# offers WHAT CANDIDATE...: each is a line of the last comp's output.
offers() {
	what=$1
	shift
	for c in "$@"; do
		grep -qxF -- "$c" "$T/got" || fail "$what: '$c' not offered: $(tr '\n' ' ' <"$T/got")"
	done
	echo "ok: $what"
}
lacks() {
	what=$1
	shift
	for c in "$@"; do
		grep -qxF -- "$c" "$T/got" && fail "$what: '$c' offered"
	done
	echo "ok: $what"
}

# ---- commands, options and their fixed values ----
comp ''
offers "the commands" run sweep params render info presets
lacks "the hidden command" complete
offers "a preset where the explorer takes one, and files" river-valley only-in-this-test @files
comp r
offers "commands by prefix" run render
lacks "commands by prefix" sweep
comp sweep --em
offers "a long option, with = when its value is optional" --emit --emit=
comp sweep --emit=
offers "--emit='s values" --emit=parallel --emit=slurm
comp sweep --emit=s
[ "$(cat "$T/got")" = "--emit=slurm" ] || fail "--emit=s: $(cat "$T/got")"
comp --co
offers "the explorer's options" --color --colour
comp --color=
offers "--color's tiers" --color=truecolor --color=256 --color=16 --color=8 --color=none
comp render x.gsnap --colors ''
offers "--colors' values" 256 truecolor
comp --theme ''
offers "--theme's values" light dark
comp -
lacks "options the explorer refuses" --output --json --particles --quiet --rain
offers "the explorer's own" --mouse --resume --paused --set
comp sweep -
lacks "options sweep refuses" --output --dump-preset
offers "sweep's own and the shared ones" --vary --collect --save-maps --particles --set

# ---- parameter keys and values, from the registry ----
comp run --set ''
offers "--set: the sections first" world. particles. hydrology. sph.
comp run --set particles.sym
offers "--set: a key only the registry names, with its =" particles.symmetric_normal=
comp run --set particles.symmetric_normal=
offers "a bool's values" particles.symmetric_normal=true particles.symmetric_normal=false
comp sweep --vary terrain.generator=
offers "--vary: an enum's values" terrain.generator=fbm terrain.generator=basins
comp sweep --vary terrain.generator=fbm,r
offers "--vary: the list's next value" terrain.generator=fbm,ridged
lacks "--vary: a value the list holds" terrain.generator=fbm,fbm
comp run --set=terrain.gen
offers "--set=KEY" --set=terrain.generator=
comp params h
offers "params SECTION" hardness hydrology
comp params hydrology.no
offers "params KEY" hydrology.normal
# Every key `gully params` lists, and every value of its enums and bools.
"$GULLY" params | awk '/^  [a-z]/ {print $1, $3}' >"$T/keys"
[ "$(wc -l <"$T/keys")" -gt 50 ] || fail "gully params listed $(wc -l <"$T/keys") keys"
bad=0
while read -r key range; do
	comp run --set "$key"
	grep -qxF "$key=" "$T/got" || { bad=$((bad + 1)); fail "--set $key: not offered"; }
	case $range in
	*'|'*)
		comp run --set "$key="
		for v in $(echo "$range" | tr '|' ' '); do
			grep -qxF "$key=$v" "$T/got" || { bad=$((bad + 1)); fail "--set $key=: no $v"; }
		done
		;;
	esac
done <"$T/keys"
[ "$bad" -eq 0 ] && echo "ok: every key of gully params, and every enum's and bool's value"

# ---- presets, files, directories, and the other tables ----
comp run -p only
offers "-p: a preset on GULLY_PRESET_PATH" only-in-this-test
comp run --preset=riv
offers "--preset=: the shipped ones" --preset=river-valley
comp sweep riv
offers "a preset where sweep takes one" river-valley @files
comp render ''
offers "render's snapshot: files" @files
lacks "render's snapshot: no presets" river-valley
comp run -o ''
offers "-o: files" @files
comp sweep --out ''
offers "--out: directories" @dirs
comp sweep --collect ''
offers "--collect: directories" @dirs
comp run --seed ''
[ -s "$T/got" ] && fail "--seed offered $(cat "$T/got")"
comp run --process ''
offers "--process: the process table" $("$GULLY" --help | sed -n 's/^Processes: //p' | tr '|' ' ')
"$GULLY" render x.gsnap --layer bogus -o "$T/x.png" 2>"$T/layers"
comp render x.gsnap --layer ''
offers "--layer: the layers render takes" $(sed -n 's/.*(one of \(.*\))/\1/p' "$T/layers" | tr '|' ' ')
comp run --overlay streams,p
offers "--overlay: a comma list's last item" streams,pools
comp render x.gsnap --overlay=streams,pools,
offers "--overlay=: the names not in the list yet" --overlay=streams,pools,erosion
lacks "--overlay=: the names in the list" --overlay=streams,pools,streams
# Words the option's value takes are not options: -o's value is -p here.
comp run -o -p ''
offers "-o's value is no option" river-valley

# ---- odd input: never an error, never a word on stderr ----
for words in "''" "--" "-" "--=" "-:" "run --set =" "run --set ==x" \
	"frobnicate --s" "complete ''" "params a b c" \
	"run --set $(printf '%05000d' 0)=" "render --overlay ,,,"; do
	eval "comp $words"
done
comp run '--"quoted'
comp run --set "'par"
"$GULLY" complete >"$T/raw" 2>"$T/err" || fail "complete without words: exit $?"
[ -s "$T/err" ] && fail "complete without words wrote to stderr"
grep -qx run "$T/raw" || fail "complete without words: no commands"
"$GULLY" --help | grep -q complete && fail "gully --help lists the hidden command"
echo "ok: odd input"

# ---- the completion holds every command and option of the sources ----
# Every command in main.c's table that --help lists is offered.
sed -n '/^static const struct cli_command commands/,/^};/p' "$srcdir/src/cli/main.c" |
	tr -d '\n' | sed -e 's|/\*[^*]*\*/||g' -e 's/},/}\n/g' | sed -n 's/.*{"\([a-z]*\)", "[^"]*", *\([^,]*\),.*/\1 \2/p' \
	>"$T/commands"
[ "$(wc -l <"$T/commands")" -ge 6 ] || fail "read $(wc -l <"$T/commands") commands from main.c"
comp ''
while read -r name summary; do
	if [ "$summary" = NULL ]; then
		grep -qxF "$name" "$T/got" && fail "hidden command $name offered"
	else
		grep -qxF "$name" "$T/got" || fail "command $name (main.c) not offered"
	fi
done <"$T/commands"
# Every getopt_long call reads a command's registered table.
grep -n 'getopt_long(' "$srcdir"/src/cli/*.c | grep -v '_options\.shortopts' >"$T/calls" &&
	fail "getopt_long with a table completion does not see: $(cat "$T/calls")"
# Every option of a command's file is offered for it (cmd_explore.c: the
# explorer); the shared ones (cli.h) for run.
options() {
	sed -n 's/.*{"\([a-z0-9-]*\)", *\(no\|required\|optional\)_argument.*/\1/p' "$1"
}
checked=0
for f in "$srcdir"/src/cli/cmd_*.c "$srcdir/src/cli/cli.h"; do
	name=$(basename "$f" .c)
	name=${name#cmd_}
	case $name in
	explore) cmd= ;;
	cli.h) cmd=run ;;
	*) cmd=$name ;;
	esac
	# Those the file lists as hidden (build and test aids) are not.
	hide=,$(sed -n 's/.*_hidden\[\] = {\(.*\), NULL};.*/\1/p' "$f" | tr -d '" '),
	for o in $(options "$f"); do
		comp $cmd "--$o"
		case $hide in
		*",$o,"*)
			grep -qxF -- "--$o" "$T/got" && fail "--$o, hidden, offered for '${cmd:-the explorer}'"
			continue
			;;
		esac
		grep -qxF -- "--$o" "$T/got" || fail "--$o ($(basename "$f")) not offered for '${cmd:-the explorer}'"
		checked=$((checked + 1))
	done
done
[ "$checked" -gt 40 ] || fail "checked $checked options only"
echo "ok: $checked options and $(wc -l <"$T/commands") commands of the sources are offered"

# ---- the bash script: COMPREPLY as the shell would fill it ----
script=$(cd "$srcdir" && pwd)/completion/gully.bash
[ -f "$script" ] || fail "no $script"
if command -v bash >/dev/null 2>&1; then
	# reply LINE: _gully on LINE (cursor at its end) split as bash splits
	# it, the words at blanks and at '=' and ':'; COMPREPLY sorted in $T/got.
	cat >"$T/reply.bash" <<'EOF'
. "$1"
line=$2
COMP_LINE=$line
COMP_POINT=${#line}
read -r -a COMP_WORDS <<<"$(printf '%s' "$line" | sed 's/\([=:]\)/ \1 /g')"
[[ $line == *' ' ]] && COMP_WORDS+=('')
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_gully
printf '%s\n' "${COMPREPLY[@]}"
EOF
	reply() {
		(cd "$T/work" && bash "$T/reply.bash" "$script" "$1") 2>"$T/err" | sort >"$T/got"
		[ -s "$T/err" ] && fail "bash: $1: stderr: $(cat "$T/err")"
	}
	reply "$GULLY sweep --em"
	offers "bash: an option" --emit --emit=
	reply "$GULLY sweep --emit=s"
	[ "$(cat "$T/got")" = slurm ] || fail "bash: --emit=s gave '$(cat "$T/got")', not slurm"
	reply "$GULLY sweep --emit="
	offers "bash: right after =" parallel slurm
	reply "$GULLY run --set terrain.generator=ri"
	[ "$(cat "$T/got")" = ridged ] || fail "bash: KEY=ri gave '$(cat "$T/got")', not ridged"
	reply "$GULLY run --set particles.symm"
	offers "bash: a key" particles.symmetric_normal=
	reply "$GULLY run -p only"
	offers "bash: a preset" only-in-this-test
	reply "$GULLY run he"
	offers "bash: files where a map goes" heights.r16
	reply "$GULLY sweep --out "
	offers "bash: directories" runs maps
	lacks "bash: directories only" heights.r16
	reply "$GULLY render x.gsnap --overlay streams,p"
	offers "bash: a comma list" streams,pools
	reply "$GULLY "
	offers "bash: commands" run sweep
else
	echo "SKIP: no bash to run $script in"
fi
# zsh runs the same script through bashcompinit: its words are not split at
# '=', and a whole word takes its space from the candidate.
if command -v zsh >/dev/null 2>&1; then
	cat >"$T/reply.zsh" <<'EOF'
autoload -U compinit && compinit -u -D
autoload -U +X bashcompinit && bashcompinit
. "$1"
COMP_LINE=$2
COMP_POINT=${#COMP_LINE}
COMP_WORDS=(${=COMP_LINE})
[[ $COMP_LINE == *' ' ]] && COMP_WORDS+=('')
COMP_CWORD=$((${#COMP_WORDS} - 1))
_gully
print -rl -- "${COMPREPLY[@]}"
EOF
	zreply() {
		(cd "$T/work" && zsh -f "$T/reply.zsh" "$script" "$1") 2>"$T/err" | sort >"$T/got"
		[ -s "$T/err" ] && fail "zsh: $1: stderr: $(cat "$T/err")"
	}
	zreply "$GULLY sweep --emit=s"
	offers "zsh: --emit=s" "--emit=slurm "
	zreply "$GULLY run --set terrain.gen"
	offers "zsh: a key, no space after its =" "terrain.generator="
	zreply "$GULLY run --hardness=he"
	offers "zsh: a file after --opt=" "--hardness=heights.r16 "
	zreply "$GULLY sweep --out m"
	offers "zsh: a directory" "maps/"
else
	echo "SKIP: no zsh to run $script in"
fi
finish
