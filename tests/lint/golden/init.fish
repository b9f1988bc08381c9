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
    # After deactivate (or a new .cudaenv here) the folder's pair applies again at once.
    if contains -- "$argv[1]" 'deactivate' 'local'
        set -g __cudaenv_key
        __cudaenv_hook
    end
end
# What the hook compares of a version file: "r" and its first characters,
# one more than the binary reads, or "u" when it cannot be read (the binary
# then says why, once per change of the key).
# fish's read stops at a NUL byte (UTF-16 has many), so the file's time of
# change (`path`, fish 3.5) is part of it too.
function __cudaenv_read
    if test -r $argv[1]
        read -z -n '8193' -l text <$argv[1] 2>/dev/null
        set -l mtime
        builtin -q path; and set mtime (path mtime -- $argv[1])
        printf 'r%s %s\n' "$mtime" "$text"
    else
        echo u
    end
end
# The key is "k", then for every version file that can decide the pair here
# its path and first bytes; files are only compared as strings, never
# evaluated, and only regular files are read (`test -f`: a FIFO or a device
# never blocks a prompt). Only builtins and functions run (command
# substitution of those does not fork), so an unchanged key starts no process.
function __cudaenv_hook --on-variable PWD --on-event fish_prompt
    # An explicit `cudaenv use` (or a CUDAENV_VERSION of the user's) wins.
    test -n "$CUDAENV_VERSION"; and return
    # $PWD as it is: a command substitution would drop a newline ending the name.
    set -l d $PWD
    test "$d" = /; and set d ''
    set -l k k
    set -l hit
    while true
        if test -f "$d/.cudaenv"
            set -a k "$d/.cudaenv" (__cudaenv_read "$d/.cudaenv" | string collect)
            set hit 1
            break
        end
        if test -f "$d/.tool-versions"
            set -l text (__cudaenv_read "$d/.tool-versions" | string collect)
            string match -q '*cuda*' -- $text; and set hit 1
            set -a k "$d/.tool-versions" $text
        end
        test -z "$d"; and break
        # Up one folder. A folder name may hold (or end in) a newline: the
        # parent comes from a named capture (fish 3.4), never from a command
        # substitution, which would split it into lines or drop the last newline.
        set -e __ce_up
        string match -qr '(?s)^(?<__ce_up>.*)/[^/]*\z' -- $d
        if set -q __ce_up
            set d $__ce_up
        else
            set d (string replace -r '/[^/]*$' '' -- $d | string collect)
        end
    end
    set -l key (string join \n -- $k | string collect)
    test "$key" = "$__cudaenv_key"; and return
    set -g __cudaenv_key $key
    # With no .cudaenv and no .tool-versions that mentions cuda, and nothing
    # active, there is nothing to do.
    if test -z "$hit"; and not set -q __CUDAENV_STATE
        return
    end
    set -l code (CUDAENV_SHELL=fish command $__cudaenv_bin hook-env)
    and string join \n -- $code | source
end
