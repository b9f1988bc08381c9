#!/usr/bin/env python3
"""Completion, typed as a user types it: TAB in a real interactive shell on
a pseudo-terminal (bash, zsh, fish, PowerShell 7).

    python3 test_completion.py --cudaenv BIN --shell zsh [unittest args]

The shell loads the script `cudaenv completions <shell>` prints the way it is
installed: bash sources it, zsh autoloads `_cudaenv` from $fpath through
compinit (the first TAB must complete at once), fish finds `cudaenv.fish` on
$fish_complete_path, PowerShell dot-sources it. Each case types a partial
command line and TAB, then moves to the start of the line and types a
function name in front of it, so Enter prints the line as TAB left it."""
import argparse
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import struct
import sys
import tempfile
import termios
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixture  # noqa: E402
import test_shells  # noqa: E402

ARGS = None
FIX = None
WAIT = 120  # seconds one keystroke's answer may take before the test gives up (PowerShell starved of CPU took over 60)


class Terminal:
    """One interactive shell on a pty."""

    def __init__(self, shell, outdir):
        self.shell = shell
        self.buf = b""
        env = FIX.base_env()
        env["PATH"] = os.path.dirname(FIX.cudaenv) + ":/usr/local/bin:/usr/bin:/bin"
        if shell == "fish":
            env["TERM"] = "xterm-256color"  # fish draws its pager of candidates only on a capable terminal
        script = FIX.run_cudaenv("completions", shell).stdout
        seen = {"bash": "__seen() { printf 'SEEN[%s]\\n' \"$*\"; }\n",
                "zsh": "__seen() { printf 'SEEN[%s]\\n' \"$*\"; }\n",
                "fish": "function __seen; printf 'SEEN[%s]\\n' \"$argv\"; end\n",
                "pwsh": "function __seen { 'SEEN[' + ($args -join ' ') + ']' }\n"}[shell]
        if shell == "bash":
            path = os.path.join(outdir, "cudaenv.bash")
            rc = os.path.join(outdir, "bashrc")
            body = "PS1='$ '\nbind 'set show-all-if-ambiguous off'\n. %s\n" % test_shells.posix_quote(path)
            argv = [fixture.shell_exe("bash"), "--noprofile", "--rcfile", rc, "-i"]
        elif shell == "zsh":
            fdir = os.path.join(outdir, "functions")
            os.makedirs(fdir)
            path = os.path.join(fdir, "_cudaenv")
            rc = os.path.join(outdir, ".zshrc")
            env["ZDOTDIR"] = outdir
            body = ("PS1='Z> '\nbindkey -e\nunsetopt BEEP\nfpath=(%s $fpath)\n"
                    "autoload -Uz compinit && compinit -u -d %s\n"
                    % (test_shells.posix_quote(fdir), test_shells.posix_quote(os.path.join(outdir, "zcompdump"))))
            argv = [fixture.shell_exe("zsh"), "-d", "-i"]
        elif shell == "fish":
            cdir = os.path.join(outdir, "completions")
            os.makedirs(cdir)
            path = os.path.join(cdir, "cudaenv.fish")
            rc = os.path.join(outdir, "rc.fish")
            body = ("function fish_prompt; echo -n '> '; end\nfunction fish_title; end\n"
                    "set -p fish_complete_path %s\n" % test_shells.fish_quote(cdir))
            argv = [fixture.shell_exe("fish"), "--no-config", "-i", "-C", "source " + rc]
        else:
            path = os.path.join(outdir, "cudaenv-completion.ps1")
            rc = os.path.join(outdir, "rc.ps1")
            # PSReadLine (its TAB completion; on Linux its keys are emacs': Ctrl-A is the line's start).
            body = "function global:prompt { 'PS> ' }\n. '%s'\n" % path.replace("'", "''")
            argv = [fixture.PWSH, "-NoLogo", "-NoProfile", "-NoExit", "-Command", ". '%s'" % rc.replace("'", "''")]
        with open(path, "w", encoding="utf-8") as f:
            f.write(script)
        with open(rc, "w", encoding="utf-8") as f:
            f.write(body + seen)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.chdir(FIX.tmp)
            os.execve(argv[0], argv, env)
        # A terminal of 40 rows of 120 columns: candidates are laid out in it
        # (PSReadLine fails to list them on one of width 0).
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        self.expect_prompt()

    def read_until(self, pattern, start):
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            m = re.search(pattern, self.buf[start:])
            if m:
                return m
            r, _, _ = select.select([self.fd], [], [], 0.2)
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    break
                # PowerShell asks where the cursor is.
                if b"\x1b[6n" in data:
                    os.write(self.fd, b"\x1b[1;1R" * data.count(b"\x1b[6n"))
                self.buf += data
        raise AssertionError("no %r from %s; the terminal said:\n%s" %
                             (pattern, self.shell, self.buf[start:].decode("utf-8", "replace")[-3000:]))

    def expect_prompt(self):
        # The first prompt, then a line run: the shell reads keys (PowerShell
        # loads PSReadLine first; keys typed before that are lost).
        self.read_until({"bash": rb"\$ ", "zsh": rb"Z> ", "fish": rb"> ", "pwsh": rb"PS> "}[self.shell], 0)
        self.write("__seen ready\r")
        self.read_until(rb"SEEN\[ready\]", 0)

    def write(self, text):
        os.write(self.fd, text.encode("utf-8"))
        time.sleep(0.05)

    def line_after_tab(self, typed, tabs=1):
        """What the command line holds after typing `typed` and TAB."""
        start = len(self.buf)
        self.write(typed)
        for _ in range(tabs):
            at = len(self.buf)
            self.write("\t")
            # The completion runs cudaenv: let it answer before the next key.
            # PSReadLine asks where the cursor is (answered in read_until) as it
            # draws the completed line, and reads keys typed before that as the
            # answer: a loaded machine's TAB once took more than the second the
            # other shells get here.
            if self.shell == "pwsh":
                self.read_until(re.escape(b"\x1b[6n"), at)
            else:
                time.sleep(1.0)
        self.write("\x01__seen \r")  # Ctrl-A: the start of the line (emacs keys in every shell here)
        return self.read_until(rb"SEEN\[([^\]\r\n]*)\]", start).group(1).decode("utf-8").strip()

    def shown_after_tabs(self, typed, listed=rb"\bexport\b"):
        """What the shell lists after typing `typed` and TAB (once `listed` shows)."""
        start = len(self.buf)
        # bash and PSReadLine (emacs keys) list them at the second TAB, zsh and fish at the first.
        self.write(typed + ("\t\t" if self.shell in ("bash", "pwsh") else "\t"))
        # "ex" alone never becomes "export": the word shows only in a list.
        self.read_until(listed, start)
        time.sleep(1.0)
        text = self.buf[start:].decode("utf-8", "replace")
        # Leave the list the way line_after_tab leaves a line: Ctrl-A and a function name in
        # front of it. Not Ctrl-C: fish may still be running a completion job when it comes,
        # and takes it as that job's SIGINT, leaving the line to run as a command.
        mark = len(self.buf)
        self.write("\x01__seen again \r")
        self.read_until(rb"SEEN\[again\b", mark)
        return text

    def close(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except OSError:
            pass
        os.close(self.fd)


class CompletionTests(unittest.TestCase):
    def setUp(self):
        self.outdir = tempfile.mkdtemp(prefix="completion-", dir=FIX.tmp)
        self.t = Terminal(ARGS.shell, self.outdir)

    def tearDown(self):
        self.t.close()

    def test_commands_first_tab(self):
        # zsh: the autoloaded _cudaenv completes on the very first TAB.
        self.assertEqual(self.t.line_after_tab("cudaenv lis"), "cudaenv list")
        self.assertEqual(self.t.line_after_tab("cudaenv doc"), "cudaenv doctor")

    def test_export_formats_kernel_subcommands_and_shells(self):
        self.assertEqual(self.t.line_after_tab("cudaenv export lm"), "cudaenv export lmod")
        self.assertEqual(self.t.line_after_tab("cudaenv export cmake-"), "cudaenv export cmake-presets")
        self.assertEqual(self.t.line_after_tab("cudaenv kernel a"), "cudaenv kernel add")
        self.assertEqual(self.t.line_after_tab("cudaenv kernel re"), "cudaenv kernel remove")
        self.assertEqual(self.t.line_after_tab("cudaenv init fi"), "cudaenv init fish")

    def test_specs(self):
        # Every pair's unique spec, as `cudaenv list` shows it.
        self.assertEqual(self.t.line_after_tab("cudaenv use 11"), "cudaenv use 11.8.89+8.9.7")
        self.assertEqual(self.t.line_after_tab("cudaenv export dotenv 12.4"), "cudaenv export dotenv 12.4.131+9.1.0")
        self.assertEqual(self.t.line_after_tab("cudaenv kernel add 11"), "cudaenv kernel add 11.8.89+8.9.7")
        self.assertEqual(self.t.line_after_tab("cudaenv exec sys"), "cudaenv exec system")

    def test_options_and_folders(self):
        self.assertEqual(self.t.line_after_tab("cudaenv list --ba"), "cudaenv list --bare")
        os.makedirs(os.path.join(FIX.tmp, "toolkit-dir-for-completion"), exist_ok=True)
        line = self.t.line_after_tab("cudaenv add toolkit-dir-f")
        self.assertRegex(line, r"^cudaenv add (\./)?toolkit-dir-for-completion")  # PowerShell writes ./

    def test_installer_commands(self):
        # install, lock, sync and mirror live in cudaenv-install, which answers
        # for their options and subcommands (issue 40 D9).
        for typed, completed in (("install --mir", "install --mirror"), ("install --conn", "install --connections"),
                                 ("lock --plat", "lock --platform"), ("sync --fro", "sync --frozen"),
                                 ("mirror cr", "mirror create"), ("mirror create --lo", "mirror create --lock")):
            self.assertEqual(self.t.line_after_tab("cudaenv " + typed), "cudaenv " + completed)
        shown = self.t.shown_after_tabs("cudaenv mirror ", rb"\bverify\b")
        self.assertIn("create", shown)

    def test_several_candidates_are_listed(self):
        shown = self.t.shown_after_tabs("cudaenv ex")
        self.assertIn("exec", shown)
        self.assertIn("export", shown)
        self.assertNotIn("__complete", shown)
        self.assertNotIn("hook-env", shown)


def main():
    global ARGS, FIX
    ap = argparse.ArgumentParser()
    ap.add_argument("--cudaenv", required=True)
    ap.add_argument("--shell", required=True)  # CTest passes each of `cudaenv __shells`
    ARGS, rest = ap.parse_known_args()
    FIX = fixture.Fixture(ARGS.cudaenv)
    return fixture.run_tests(FIX, rest)


if __name__ == "__main__":
    sys.exit(main())
