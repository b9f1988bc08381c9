"""What the Windows test scripts share: a path as the Windows program sees it
(Z:\\... under Wine); checks that print `ok:` or `FAIL:` (CTest fails the test
on FAIL:) and are counted, or (expect) end the script at the first failure,
naming the step it was in; and cudaenv.exe run through wine_retry with its exit
status checked."""
import os
import sys

import wine_retry

failures = []
step = "start"  # what a script that stops at its first failure is doing (expect)


def win_path(path, runner):
    path = os.path.abspath(path)
    return "Z:" + path.replace("/", "\\") if runner else path


def check(cond, what, text=""):
    if not cond:
        failures.append(what)
        print("FAIL: %s\n%s" % (what, text[:6000]))
    else:
        print("ok:", what)


def fail(msg, text=""):
    print(text[:8000])
    print(f"FAIL [{step}]: {msg}")
    sys.exit(1)


def expect(cond, msg, text=""):
    if not cond:
        fail(msg, text)


def run(runner, args, env, timeout, want):
    """(stdout, stderr) of args under the runner (Wine); its exit status checked against `want` unless None."""
    rc, out, err = wine_retry.run_text(runner + list(args), env, timeout)
    if want is not None:
        check(rc == want, "exit %d, wanted %d: %s" % (rc, want, " ".join(args[:4])),
              "--- stdout\n%s\n--- stderr\n%s" % (out, err))
    return out, err


def finish():
    """Ends the script with status 1 when a check failed."""
    if failures:
        sys.exit(1)
