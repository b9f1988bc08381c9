# cudaenv completion for bash (4.0 or later: mapfile). Generic: the
# candidates come from `cudaenv __complete` (its commands, their options and
# arguments, the specs of the installed pairs), one a line.
_cudaenv_complete() {
  local line="${COMP_LINE:0:COMP_POINT}" cur="${COMP_WORDS[COMP_CWORD]-}" full prefix n
  local -a words out
  # Split at blanks only: bash also breaks words at @ = : (COMP_WORDBREAKS),
  # and specs hold them (12.6@cuda-12.6+9.8.0).
  read -r -a words <<<"$line"
  n=$((${#words[@]} - 2))
  full="${words[${#words[@]} - 1]-}"
  case "$line" in *[[:blank:]]) n=$((n + 1)) full='' ;; esac
  mapfile -t out < <(command cudaenv __complete "$n" -- "${words[@]:1}" 2>/dev/null)
  case "${out[0]-}" in
    :folders) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
    :files) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
    *)
      # bash replaces only what follows its last word break: drop what precedes it.
      prefix="${full%"$cur"}"
      COMPREPLY=("${out[@]#"$prefix"}") ;;
  esac
}
complete -F _cudaenv_complete cudaenv
