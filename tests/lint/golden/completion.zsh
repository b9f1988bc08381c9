#compdef cudaenv
# cudaenv completion for zsh
_cudaenv() {
  emulate -L zsh
  if (( CURRENT == 2 )); then
    compadd -- 'list current use deactivate local global env init exec which add discover pair completions rehash setup install lock sync mirror uninstall check doctor export kernel trace inspect'
    return
  fi
  case "${words[2]}" in
    'use'|'shell'|'local'|'global'|'env'|'exec'|'uninstall'|'check'|'pair'|'trace'|'inspect')
      compadd -- system ${(f)"$(command cudaenv list --bare 2>/dev/null)"} ;;
    'init'|'completions') compadd -- 'bash' 'zsh' 'fish' 'pwsh' 'powershell' 'cmd' ;;
    'add'|'discover') _files -/ ;;
  esac
}
if (( $+functions[compdef] )); then compdef _cudaenv cudaenv; fi
