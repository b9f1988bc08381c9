if (Test-Path -LiteralPath @EXE@) { Invoke-Expression (& @EXE@ init pwsh | Out-String) }
