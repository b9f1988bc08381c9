if (-not (($env:PATH -split [IO.Path]::PathSeparator) -contains @SHIMS@)) { $env:PATH = @SHIMS@ + [IO.Path]::PathSeparator + $env:PATH }
