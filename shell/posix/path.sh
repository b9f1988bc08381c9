case ":${PATH}:" in *:@SHIMS@:*) ;; *) export PATH=@SHIMS@"${PATH:+:${PATH}}" ;; esac
