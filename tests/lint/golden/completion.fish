# cudaenv completion for fish
complete -c cudaenv -f
complete -c cudaenv -n __fish_use_subcommand -a 'list current use deactivate local global env init exec which add discover pair completions rehash setup install lock sync mirror uninstall check doctor export kernel trace inspect'
complete -c cudaenv -n '__fish_seen_subcommand_from ''use shell local global env exec uninstall check pair trace inspect' -a '(command cudaenv list --bare 2>/dev/null; echo system)'
complete -c cudaenv -n '__fish_seen_subcommand_from ''init completions' -a 'bash zsh fish pwsh powershell cmd'
complete -c cudaenv -n '__fish_seen_subcommand_from ''add discover' -a '(__fish_complete_directories)'
