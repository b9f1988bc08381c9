# cudaenv completion for PowerShell
Register-ArgumentCompleter -Native -CommandName cudaenv -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $words = @($commandAst.CommandElements | ForEach-Object { $_.ToString() })
    $candidates = @()
    if ($words.Count -le 1 -or ($words.Count -eq 2 -and $wordToComplete -ne '')) {
        $candidates = @('list', 'current', 'use', 'deactivate', 'local', 'global', 'env', 'init', 'exec', 'which', 'add', 'discover', 'pair', 'completions', 'rehash', 'setup', 'install', 'lock', 'sync', 'mirror', 'uninstall', 'check', 'doctor', 'export', 'kernel', 'trace', 'inspect')
    } elseif (@('use', 'shell', 'local', 'global', 'env', 'exec', 'uninstall', 'check', 'pair', 'trace', 'inspect') -contains $words[1]) {
        $candidates = @('system') + @(& cudaenv list --bare 2>$null)
    } elseif (@('init', 'completions') -contains $words[1]) {
        $candidates = @('bash', 'zsh', 'fish', 'pwsh', 'powershell', 'cmd')
    }
    $candidates | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object {
        [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
    }
}
