# Tab completion for gully(1) in bash; in zsh, after
#   autoload -U +X bashcompinit && bashcompinit
# too. Installed as $(datadir)/bash-completion/completions/gully, which
# bash-completion loads by itself; or source this file (README.md).
#
# The candidates come from gully itself: `gully complete -- WORD...`, the
# words of the line up to the one under the cursor, prints them one a line
# from its own tables (commands, each command's options, parameter keys and
# values, presets, processes, layers, overlays). A line "@files" or "@dirs"
# asks for the file or directory names the shell completes here.

# The line's words as gully gets them, in _gully_words: bash splits words
# at '=' and ':' too (COMP_WORDBREAKS), so pieces with no blank between
# them are joined again, and simple quoting is taken off.
_gully_line() {
	local line=${COMP_LINE:0:COMP_POINT} rest w i n
	_gully_words=()
	for ((i = 0; i <= COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		rest=${line#"${line%%[![:blank:]]*}"}
		n=${#_gully_words[@]}
		if ((i > 1 && ${#rest} == ${#line})) &&
			[[ $w == [=:]* || ${_gully_words[n - 1]} == *[=:] ]]; then
			_gully_words[n - 1]+=$w
		else
			_gully_words+=("$w")
		fi
		line=${rest#"$w"}
	done
	for ((i = 0; i < ${#_gully_words[@]}; i++)); do
		w=${_gully_words[i]//\\/}
		w=${w//\'/}
		_gully_words[i]=${w//\"/}
	done
}

_gully() {
	local cur=${COMP_WORDS[COMP_CWORD]} prog=${COMP_WORDS[0]} _gully_words line trim full
	local files= dirs= nospace=
	COMPREPLY=()
	_gully_line
	full=${_gully_words[${#_gully_words[@]} - 1]}
	# Without a '/', the gully on PATH (not an alias or function of the name).
	[[ $prog == '~/'* ]] && prog=$HOME/${prog#'~/'}
	[[ $prog == */* ]] || prog=$(type -P -- "$prog") || return 0
	# Candidates are whole words; bash replaces only its own last piece.
	local bare=${cur//\\/}
	bare=${bare//\'/}
	bare=${bare//\"/}
	# Right after "--opt=" bash's word is the '=', but what it replaces is
	# the nothing after it.
	[[ $bare == [=:] ]] && bare=
	trim=$((${#full} - ${#bare}))
	((trim >= 0)) || trim=0
	while IFS= read -r line; do
		case $line in
		@files) files=1 ;;
		@dirs) dirs=1 ;;
		'') ;;
		*)
			[[ $line == *[=.] ]] && nospace=1
			COMPREPLY+=("${line:trim}")
			;;
		esac
	done < <("$prog" complete -- "${_gully_words[@]}" 2>/dev/null)
	if [[ $files$dirs ]]; then
		while IFS= read -r line; do
			[[ $line ]] && COMPREPLY+=("$line")
		done < <(if [[ $files ]]; then compgen -f -- "$bare"; else compgen -d -- "$bare"; fi)
		type compopt &>/dev/null && compopt -o filenames 2>/dev/null
	fi
	[[ $nospace ]] && type compopt &>/dev/null && compopt -o nospace 2>/dev/null
	return 0
}

complete -F _gully gully
