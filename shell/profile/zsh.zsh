if [ -x @EXE@ ]; then eval "$(@EXE@ init zsh)"; fi
