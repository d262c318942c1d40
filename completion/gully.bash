# Tab completion for gully(1) in bash; in zsh too, after compinit and
#   autoload -U +X bashcompinit && bashcompinit
# Installed as $(datadir)/bash-completion/completions/gully, which
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
	local line=${COMP_LINE:0:$COMP_POINT} rest w i n
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

# The names of files (or, with $2 empty, directories) starting with $1.
# zsh's compgen -f globs the word under the cursor, not $1.
_gully_files() {
	local f
	if [[ -z ${ZSH_VERSION-} && -n $2 ]]; then
		compgen -f -- "$1"
	elif [[ -z ${ZSH_VERSION-} ]]; then
		compgen -d -- "$1"
	else
		for f in "$1"*; do
			[[ -e $f && ( -n $2 || -d $f ) ]] && printf '%s\n' "$f"
		done
	fi
}

_gully() {
	# zsh's bashcompinit runs this as zsh: arrays from 0, as in bash.
	[[ -n ${ZSH_VERSION-} ]] && emulate -L ksh
	local cur=${COMP_WORDS[COMP_CWORD]} prog=${COMP_WORDS[0]} _gully_words line trim full
	local files= dirs= nospace= zsh=${ZSH_VERSION-}
	COMPREPLY=()
	_gully_line
	full=${_gully_words[${#_gully_words[@]} - 1]}
	# Without a '/', the gully on PATH (not an alias or function of the name).
	[[ $prog == '~/'* ]] && prog=$HOME/${prog#'~/'}
	if [[ $prog != */* && -n ${ZSH_VERSION-} ]]; then
		prog=${commands[$prog]-}
	elif [[ $prog != */* ]]; then
		prog=$(type -P -- "$prog")
	fi
	[[ -n $prog ]] || return 0
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
		*[=.]) # more to type: KEY=, a section's "particles."
			nospace=1
			COMPREPLY+=("${line:$trim}")
			;;
		*) COMPREPLY+=("${line:$trim}${zsh:+ }") ;;
		esac
	done < <("$prog" complete -- "${_gully_words[@]}" 2>/dev/null)
	if [[ $files$dirs ]]; then
		# The name is what follows --opt= (one word for gully, and for zsh).
		local head= part=$full
		[[ $full == --*=* ]] && head=${full%%=*}= part=${full#*=}
		while IFS= read -r line; do
			if [[ -z $zsh ]]; then
				COMPREPLY+=("${head:$trim}$line")
			elif [[ -d $line ]]; then
				COMPREPLY+=("$head$line/")
			else
				COMPREPLY+=("$head$line ")
			fi
		done < <(_gully_files "$part" "$files")
		[[ $zsh ]] || compopt -o filenames 2>/dev/null
	fi
	[[ $nospace && -z $zsh ]] && compopt -o nospace 2>/dev/null
	return 0
}

# zsh's bashcompinit has no compopt and takes the space after a word from
# the word itself (above), so it adds none of its own.
if [[ -n ${ZSH_VERSION-} ]]; then
	complete -o nospace -F _gully gully
else
	complete -F _gully gully
fi
