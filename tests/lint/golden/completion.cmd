@rem cmd.exe has no programmable completion; cudaenv's commands are listed by `cudaenv --help`.
