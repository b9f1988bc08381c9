contains -- @SHIMS@ $PATH; or set -gx PATH @SHIMS@ $PATH
