@if not defined CUDAENV_CMD_INIT (set "CUDAENV_CMD_INIT=1" & doskey cudaenv="/home/user/.local/share/cudaenv/shims\cudaenv.cmd" $*)
