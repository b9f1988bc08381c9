# cudaenv shell integration for PowerShell. Add to $PROFILE:
#   Invoke-Expression (& cudaenv init pwsh | Out-String)
# Windows PowerShell 5.1 syntax only (no ??, &&, ternaries): both read this.
# Runs the binary with CUDAENV_SHELL=pwsh for the commands whose output is
# code, reads that output as UTF-8 and evaluates it only when the binary
# succeeded; passes every other command on. $LASTEXITCODE is the binary's.
# Global in the profile; the session shim keeps it to its own script.
function global:__cudaenv_run {
    $__ce_sub = ''
    if ($args.Count -gt 0) { $__ce_sub = [string]$args[0] }
    if (@('use', 'shell', 'deactivate') -contains $__ce_sub) {
        $__ce_enc = [Console]::OutputEncoding
        $env:CUDAENV_SHELL = 'pwsh'
        try {
            try { [Console]::OutputEncoding = New-Object System.Text.UTF8Encoding $false } catch { }
            $__ce_code = & '/opt/cudaenv/bin/cudaenv' @args
            $__ce_status = $LASTEXITCODE
        } finally {
            try { [Console]::OutputEncoding = $__ce_enc } catch { }
            Remove-Item Env:CUDAENV_SHELL -ErrorAction SilentlyContinue
        }
        if ($__ce_status -ne 0) { $global:LASTEXITCODE = $__ce_status; return }
        if ($__ce_code) { Invoke-Expression ($__ce_code -join "`n") }
        $global:LASTEXITCODE = 0
    } else {
        & '/opt/cudaenv/bin/cudaenv' @args
    }
}
function global:cudaenv {
    __cudaenv_run @args
    # After deactivate (or a new .cudaenv here) the folder's pair applies again at once.
    $__ce_sub = ''
    if ($args.Count -gt 0) { $__ce_sub = [string]$args[0] }
    if ((@('deactivate', 'local') -contains $__ce_sub) -and $LASTEXITCODE -eq 0) {
        $global:__cudaenv_key = $null
        __cudaenv_hook
    }
}
# Under Set-StrictMode a variable must exist before it is read.
if (-not (Test-Path Variable:global:__cudaenv_key)) { $global:__cudaenv_key = $null }
# What the hook compares of a version file: "r" and its first bytes, one more
# than the binary reads, or "u" when it cannot be read (the binary then says
# why, once per change of the key). Only a file with a size is opened: a FIFO
# or a device (size 0) is never read, so it cannot block or flood the prompt.
function global:__cudaenv_read([string]$Path) {
    $s = $null
    try {
        $info = New-Object System.IO.FileInfo -ArgumentList $Path
        if ($info.Length -le 0) { return 'r' }
        $s = New-Object System.IO.FileStream -ArgumentList $Path, ([System.IO.FileMode]::Open), ([System.IO.FileAccess]::Read), ([System.IO.FileShare]::ReadWrite)
        $buf = New-Object byte[] '8193'
        $n = 0
        while ($n -lt $buf.Length) {
            $got = $s.Read($buf, $n, $buf.Length - $n)
            if ($got -le 0) { break }
            $n += $got
        }
        # As text by its byte-order mark (UTF-8, UTF-16 LE/BE), like the binary.
        $r = New-Object System.IO.StreamReader -ArgumentList (New-Object System.IO.MemoryStream -ArgumentList $buf, 0, $n), ([System.Text.Encoding]::UTF8), $true
        return 'r' + $r.ReadToEnd()
    } catch {
        return 'u'
    } finally {
        if ($s) { $s.Dispose() }
    }
}
# Auto-switch. The key is "k", then for every version file that can decide
# the pair here (the nearest .cudaenv and any .tool-versions below it) its
# path and first bytes, read with .NET only: an unchanged key starts no
# process, and a file's content is only compared, never evaluated. PowerShell
# 7 calls the hook from LocationChangedAction (chained with any existing
# handler); Windows PowerShell 5.1 has none, so there the prompt function is
# wrapped. `cd` is never aliased or wrapped.
function global:__cudaenv_hook {
    # An explicit `cudaenv use` (or a CUDAENV_VERSION of the user's) wins.
    if ($env:CUDAENV_VERSION) { return }
    $loc = $ExecutionContext.SessionState.Path.CurrentFileSystemLocation
    if (-not $loc) { return }
    $dir = $loc.ProviderPath
    $key = New-Object System.Text.StringBuilder
    [void]$key.Append('k')
    $hit = $false
    while ($dir) {
        $f = [System.IO.Path]::Combine($dir, '.cudaenv')
        if ([System.IO.File]::Exists($f)) {
            [void]$key.Append("`n").Append($f).Append("`n").Append((__cudaenv_read $f))
            $hit = $true
            break
        }
        $f = [System.IO.Path]::Combine($dir, '.tool-versions')
        if ([System.IO.File]::Exists($f)) {
            $c = __cudaenv_read $f
            if ($c.IndexOf('cuda', [System.StringComparison]::OrdinalIgnoreCase) -ge 0) { $hit = $true }
            [void]$key.Append("`n").Append($f).Append("`n").Append($c)
        }
        $dir = [System.IO.Path]::GetDirectoryName($dir)
    }
    $k = $key.ToString()
    if ($k -ceq $global:__cudaenv_key) { return }
    $global:__cudaenv_key = $k
    # With no .cudaenv and no .tool-versions that mentions cuda, and nothing
    # active, there is nothing to do.
    if (-not $hit -and -not $env:__CUDAENV_STATE) { return }
    $__ce_last = 0
    if (Test-Path Variable:global:LASTEXITCODE) { $__ce_last = $global:LASTEXITCODE }
    $__ce_enc = [Console]::OutputEncoding
    $env:CUDAENV_SHELL = 'pwsh'
    try {
        try { [Console]::OutputEncoding = New-Object System.Text.UTF8Encoding $false } catch { }
        $__ce_code = & '/opt/cudaenv/bin/cudaenv' hook-env
        $__ce_status = $LASTEXITCODE
    } finally {
        try { [Console]::OutputEncoding = $__ce_enc } catch { }
        Remove-Item Env:CUDAENV_SHELL -ErrorAction SilentlyContinue
    }
    if ($__ce_status -eq 0 -and $__ce_code) { Invoke-Expression ($__ce_code -join "`n") }
    $global:LASTEXITCODE = $__ce_last
}
if ($PSVersionTable.PSVersion.Major -ge 7) {
    $__ce_ic = $ExecutionContext.SessionState.InvokeCommand
    if (Test-Path Variable:global:__cudaenv_lca) {
        $__ce_ic.LocationChangedAction = [System.Delegate]::Remove($__ce_ic.LocationChangedAction, $global:__cudaenv_lca)
    }
    $global:__cudaenv_lca = [System.EventHandler[System.Management.Automation.LocationChangedEventArgs]] { __cudaenv_hook }
    $__ce_ic.LocationChangedAction = [System.Delegate]::Combine($__ce_ic.LocationChangedAction, $global:__cudaenv_lca)
} elseif (-not (Test-Path Variable:global:__cudaenv_prompt)) {
    $global:__cudaenv_prompt = $function:prompt
    function global:prompt {
        __cudaenv_hook
        & $global:__cudaenv_prompt
    }
}
__cudaenv_hook
