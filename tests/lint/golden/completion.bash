# cudaenv completion for bash (4.0 or later: mapfile)
_cudaenv_complete() {
  local cur="${COMP_WORDS[COMP_CWORD]}"
  if [ "$COMP_CWORD" -eq 1 ]; then
    mapfile -t COMPREPLY < <(compgen -W 'list current use deactivate local global env init exec which add discover pair completions rehash setup install lock sync mirror uninstall check doctor export kernel trace inspect' -- "$cur")
    return
  fi
  case "${COMP_WORDS[1]}" in
    'use'|'shell'|'local'|'global'|'env'|'exec'|'uninstall'|'check'|'pair'|'trace'|'inspect')
      mapfile -t COMPREPLY < <(compgen -W "system $(command cudaenv list --bare 2>/dev/null)" -- "$cur") ;;
    'init'|'completions')
      mapfile -t COMPREPLY < <(compgen -W 'bash zsh fish pwsh powershell cmd' -- "$cur") ;;
    'add'|'discover')
      # One folder a line: names with blanks stay whole.
      mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
  esac
}
complete -F _cudaenv_complete cudaenv
