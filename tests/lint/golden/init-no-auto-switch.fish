# cudaenv shell integration for fish. Add to ~/.config/fish/config.fish:  cudaenv init fish | source
set -g __cudaenv_bin '/opt/cudaenv/bin/cudaenv'
# `VAR=value command` needs fish 3.1; it spares starting env(1).
function cudaenv --description 'CUDA toolkit + cuDNN environment manager'
    if contains -- "$argv[1]" 'use' 'shell' 'deactivate'
        set -l __cudaenv_code (CUDAENV_SHELL=fish command $__cudaenv_bin $argv)
        or return $status
        string join \n -- $__cudaenv_code | source
    else
        command $__cudaenv_bin $argv
        or return $status
    end
end
