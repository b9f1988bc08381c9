if [ -x @EXE@ ]; then eval "$(@EXE@ init bash)"; fi
