# cudaenv completion for fish. Generic: the candidates come from `cudaenv
# __complete` (its commands, their options and arguments, the specs of the
# installed pairs), one a line.
function __cudaenv_complete
    set -l before (commandline -opc)
    set -l cur (commandline -ct)
    set -e before[1]
    set -l out (command cudaenv __complete (count $before) -- $before $cur 2>/dev/null)
    switch "$out[1]"
        case :folders
            __fish_complete_directories "$cur"
        case :files
            __fish_complete_path "$cur"
        case '*'
            printf '%s\n' $out
    end
end
complete -c cudaenv -f -a '(__cudaenv_complete)'
