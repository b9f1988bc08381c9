# cudaenv session shim for PowerShell (generated; do not edit).
# With this folder first on PATH, `cudaenv use 12.4` changes the calling session.
# @include pwsh/run.ps1
__cudaenv_run @args
exit $LASTEXITCODE
