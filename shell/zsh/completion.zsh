#compdef cudaenv
# cudaenv completion for zsh
_cudaenv() {
  emulate -L zsh
  if (( CURRENT == 2 )); then
    compadd -- @COMMANDS@
    return
  fi
  case "${words[2]}" in
    @SPEC_COMMANDS@)
      compadd -- system ${(f)"$(command cudaenv list --bare 2>/dev/null)"} ;;
    @SHELL_COMMANDS@) compadd -- @SHELLS@ ;;
    @FOLDER_COMMANDS@) _files -/ ;;
  esac
}
if (( $+functions[compdef] )); then compdef _cudaenv cudaenv; fi
