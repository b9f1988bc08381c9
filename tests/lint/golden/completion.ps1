# cudaenv completion for PowerShell. Generic: the candidates come from
# `cudaenv __complete` (its commands, their options and arguments, the specs
# of the installed pairs), one a line; for a folder or a file it returns
# nothing, and PowerShell completes the path itself.
Register-ArgumentCompleter -Native -CommandName cudaenv -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $typed = @($commandAst.CommandElements | Where-Object { $_.Extent.StartOffset -lt $cursorPosition } |
        ForEach-Object { $_.Extent.Text } | Select-Object -Skip 1)
    # The word under the cursor is passed only when it is not empty (Windows
    # PowerShell 5.1 drops an empty argument): its index says which it is.
    if ($wordToComplete -ne '' -and $typed.Count -gt 0) {
        $before = @($typed | Select-Object -First ($typed.Count - 1))
    } else {
        $before = $typed
    }
    $arguments = @('__complete', [string]$before.Count, '--') + $before
    if ($wordToComplete -ne '') { $arguments += $wordToComplete }
    $out = @(& cudaenv @arguments 2>$null)
    if ($out.Count -eq 0 -or $out[0] -eq ':folders' -or $out[0] -eq ':files') { return }
    $out | ForEach-Object { [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_) }
}
