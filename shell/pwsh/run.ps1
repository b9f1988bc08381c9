# Runs the binary with CUDAENV_SHELL=pwsh for the commands whose output is
# code, reads that output as UTF-8 and evaluates it only when the binary
# succeeded; passes every other command on. $LASTEXITCODE is the binary's.
# Global in the profile; the session shim keeps it to its own script.
# @if SESSION_SHIM
function __cudaenv_run {
# @end
# @if INIT
function global:__cudaenv_run {
# @end
    $__ce_sub = ''
    if ($args.Count -gt 0) { $__ce_sub = [string]$args[0] }
    if (@(@EVAL_COMMANDS@) -contains $__ce_sub) {
        $__ce_enc = [Console]::OutputEncoding
        $env:CUDAENV_SHELL = 'pwsh'
        try {
            try { [Console]::OutputEncoding = New-Object System.Text.UTF8Encoding $false } catch { }
            $__ce_code = & @CUDAENV_EXE@ @args
            $__ce_status = $LASTEXITCODE
        } finally {
            try { [Console]::OutputEncoding = $__ce_enc } catch { }
            Remove-Item Env:CUDAENV_SHELL -ErrorAction SilentlyContinue
        }
        if ($__ce_status -ne 0) { $global:LASTEXITCODE = $__ce_status; return }
        if ($__ce_code) { Invoke-Expression ($__ce_code -join "`n") }
        $global:LASTEXITCODE = 0
    } else {
        & @CUDAENV_EXE@ @args
    }
}
