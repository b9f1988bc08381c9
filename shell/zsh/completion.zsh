#compdef cudaenv
# cudaenv completion for zsh. Generic: the candidates come from `cudaenv
# __complete` (its commands, their options and arguments, the specs of the
# installed pairs), one a line. As a file named _cudaenv on $fpath, compinit
# autoloads it and its first run completes at once; sourced (`source
# <(cudaenv completions zsh)` after compinit), it registers itself.
_cudaenv() {
  # No `emulate -L zsh`: the completion system runs this with its own options
  # (_comp_options), which _files needs (extended_glob).
  local -a out
  out=("${(@f)$(command cudaenv __complete $((CURRENT - 2)) -- "${(@)words[2,CURRENT]}" 2>/dev/null)}")
  case "${out[1]-}" in
    :folders) _files -/ ;;
    :files) _files ;;
    '') return 1 ;;
    *) compadd -- "${out[@]}" ;;
  esac
}
if [[ "${zsh_eval_context[-1]-}" == loadautofunc ]]; then
  _cudaenv "$@"
elif (( $+functions[compdef] )); then
  compdef _cudaenv cudaenv
fi
