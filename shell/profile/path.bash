# @include posix/path.sh
