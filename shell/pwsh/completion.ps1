# cudaenv completion for PowerShell
Register-ArgumentCompleter -Native -CommandName cudaenv -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $words = @($commandAst.CommandElements | ForEach-Object { $_.ToString() })
    $candidates = @()
    if ($words.Count -le 1 -or ($words.Count -eq 2 -and $wordToComplete -ne '')) {
        $candidates = @(@COMMANDS@)
    } elseif (@(@SPEC_COMMANDS@) -contains $words[1]) {
        $candidates = @('system') + @(& cudaenv list --bare 2>$null)
    } elseif (@(@SHELL_COMMANDS@) -contains $words[1]) {
        $candidates = @(@SHELLS@)
    }
    $candidates | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object {
        [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
    }
}
