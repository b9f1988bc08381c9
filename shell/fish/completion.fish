# cudaenv completion for fish
complete -c cudaenv -f
complete -c cudaenv -n __fish_use_subcommand -a @COMMANDS@
complete -c cudaenv -n '__fish_seen_subcommand_from '@SPEC_COMMANDS@ -a '(command cudaenv list --bare 2>/dev/null; echo system)'
complete -c cudaenv -n '__fish_seen_subcommand_from '@SHELL_COMMANDS@ -a @SHELLS@
complete -c cudaenv -n '__fish_seen_subcommand_from '@FOLDER_COMMANDS@ -a '(__fish_complete_directories)'
