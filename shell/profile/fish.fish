if test -x @EXE@; @EXE@ init fish | source; end
