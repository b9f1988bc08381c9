# cudaenv completion for bash (4.0 or later: mapfile)
_cudaenv_complete() {
  local cur="${COMP_WORDS[COMP_CWORD]}"
  if [ "$COMP_CWORD" -eq 1 ]; then
    mapfile -t COMPREPLY < <(compgen -W @COMMANDS@ -- "$cur")
    return
  fi
  case "${COMP_WORDS[1]}" in
    @SPEC_COMMANDS@)
      mapfile -t COMPREPLY < <(compgen -W "system $(command cudaenv list --bare 2>/dev/null)" -- "$cur") ;;
    @SHELL_COMMANDS@)
      mapfile -t COMPREPLY < <(compgen -W @SHELLS@ -- "$cur") ;;
    @FOLDER_COMMANDS@)
      # One folder a line: names with blanks stay whole.
      mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
  esac
}
complete -F _cudaenv_complete cudaenv
