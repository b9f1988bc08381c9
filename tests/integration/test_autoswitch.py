#!/usr/bin/env python3
"""Auto-switch on directory change, driven in a real interactive shell.

    python3 test_autoswitch.py --cudaenv BIN --shell bash [unittest args]

The shell (bash, zsh, fish or pwsh) runs interactively on a pseudo-terminal
under `strace -f -e trace=execve`, with `cudaenv init <shell>` loaded from its
rc file. The test types commands as a user would: cd into a project with a
.cudaenv, into a nested project, out again; presses Enter on unchanged
folders; uses `cudaenv use` and `deactivate`. After each step a child of the
shell records what it sees (fixture.py --dump); the strace log then tells how
many cudaenv processes each step started. No timing is asserted: waits only
bound how long the test may hang."""
import argparse
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixture  # noqa: E402
from test_shells import Dialect  # noqa: E402
import test_shells  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ARGS = None
FIX = None
WAIT = 90  # seconds one step may take before the test gives up


class Session:
    """One interactive shell on a pty, under strace."""

    def __init__(self, shell, rc_body, cwd):
        self.d = Dialect(shell)
        self.outdir = tempfile.mkdtemp(prefix="auto-", dir=FIX.tmp)
        self.trace = os.path.join(self.outdir, "strace.log")
        self.buf = bytearray()
        self.lock = threading.Lock()
        rc = self.d.preamble(self.outdir) + rc_body
        env = FIX.base_env()
        env["PATH"] = "/usr/local/bin:/opt/unrelated tools:/usr/bin:/opt/unrelated tools:/bin"
        env["TERM"] = "dumb"
        if shell == "bash":
            rcfile = os.path.join(self.outdir, "bashrc")
            argv = [fixture.shell_exe("bash"), "--noprofile", "--rcfile", rcfile, "-i"]
            rc = "PS1='$ '\n" + rc
        elif shell == "zsh":
            rcfile = os.path.join(self.outdir, ".zshrc")
            env["ZDOTDIR"] = self.outdir
            argv = [fixture.shell_exe("zsh"), "-d", "-i"]
            rc = "PS1='%% '\nunsetopt BEEP ZLE\n" + rc
        elif shell == "fish":
            rcfile = os.path.join(self.outdir, "rc.fish")
            argv = [fixture.shell_exe("fish"), "--no-config", "-i", "-C", "source " + rcfile]
            rc = "function fish_prompt; echo -n '> '; end\nfunction fish_title; end\n" + rc
        else:
            rcfile = os.path.join(self.outdir, "rc.ps1")
            argv = [fixture.PWSH, "-NoLogo", "-NoProfile", "-NoExit", "-Command", ". '%s'" % rcfile]
            rc = ("Remove-Module PSReadLine -ErrorAction SilentlyContinue\n"
                  "function global:prompt { 'PS> ' }\n" + rc)
        with open(rcfile, "w", encoding="utf-8") as f:
            f.write(rc)
        argv = [shutil.which("strace"), "-f", "-s", "4096", "-e", "trace=execve", "-o", self.trace] + argv
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.chdir(cwd)
            os.execve(argv[0], argv, env)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            try:
                r, _, _ = select.select([self.fd], [], [], 0.5)
                if not r:
                    continue
                data = os.read(self.fd, 65536)
            except OSError:
                return
            if not data:
                return
            with self.lock:
                self.buf += data
                # Answer cursor-position queries (PowerShell asks for one).
                n = self.buf.count(b"\x1b[6n")
                if n:
                    self.buf = self.buf.replace(b"\x1b[6n", b"<DSR>")
                    for _ in range(n):
                        os.write(self.fd, b"\x1b[1;1R")

    def output(self):
        with self.lock:
            return self.buf.decode("utf-8", "replace")

    def send(self, line):
        os.write(self.fd, line.encode("utf-8") + b"\r")

    def wait_output(self, pattern):
        """Every match of `pattern` once the terminal has shown one. A snapshot
        file can appear before the reader thread has taken what the shell
        printed ahead of it from the pty."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            found = re.findall(pattern, self.output())
            if found:
                return found
            time.sleep(0.05)
        raise AssertionError("no %r; terminal said:\n%s" % (pattern, self.output()[-3000:]))

    def wait_file(self, path):
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            if os.path.exists(path):
                # The dumper writes then closes; a complete JSON file loads.
                try:
                    with open(path, encoding="utf-8") as f:
                        return test_shells.json.load(f)
                except ValueError:
                    pass
            time.sleep(0.05)
        raise AssertionError("no snapshot %s; terminal said:\n%s" % (os.path.basename(path), self.output()[-3000:]))

    def snap(self, label):
        self.send("__snap " + label)
        return self.wait_file(os.path.join(self.outdir, label + ".json"))

    def close(self):
        self.send("exit")
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                break
            time.sleep(0.05)
        else:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        # The shell has gone: let the reader take what is left in the pty (it
        # ends at EOF), so that output() afterwards holds everything printed.
        self.reader.join(10)
        try:
            os.close(self.fd)
        except OSError:
            pass

    def execs(self):
        """The execve calls in order: ("snap", label) or ("cudaenv", argv text) or ("other", path)."""
        out = []
        with open(self.trace, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.search(r'execve\("((?:[^"\\]|\\.)*)", \[(.*)', line)
                # Failed attempts (a shell trying each PATH entry) start nothing.
                if not m or re.search(r"= -1 E[A-Z]+", line):
                    continue
                path, rest = m.group(1), m.group(2)
                if "--dump" in rest:
                    lm = re.search(r'"--dump", "[^"]*", "([^"]+)"', rest)
                    out.append(("snap", lm.group(1) if lm else "?"))
                elif path.endswith("/cudaenv"):
                    out.append(("cudaenv", rest[:200]))
                else:
                    out.append(("other", path))
        return out


def execs_between(execs, start, end):
    """Every process started after snapshot `start` and before `end`."""
    labels = [x[1] for x in execs if x[0] == "snap"]
    assert start in labels and end in labels, (start, end, labels)
    i = next(n for n, x in enumerate(execs) if x == ("snap", start))
    j = next(n for n, x in enumerate(execs) if x == ("snap", end))
    return execs[i + 1:j]


def cudaenv_calls_between(execs, start, end):
    """cudaenv processes started after snapshot `start` and before `end`."""
    labels = [x[1] for x in execs if x[0] == "snap"]
    assert start in labels and end in labels, (start, end, labels)
    i = next(n for n, x in enumerate(execs) if x == ("snap", start))
    j = next(n for n, x in enumerate(execs) if x == ("snap", end))
    return [x[1] for x in execs[i + 1:j] if x[0] == "cudaenv"]


class AutoSwitchTests(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        base = os.path.join(FIX.tmp, "auto %s" % self.id().rsplit(".", 1)[-1])
        self.p1 = os.path.join(base, "proj 一 $a 'b'")
        self.p2 = os.path.join(self.p1, "inner `x` %y%")
        self.p2sub = os.path.join(self.p2, "sub dir")
        os.makedirs(self.p2sub)
        fixture.write(os.path.join(self.p1, ".cudaenv"), "11.8  # old project\n")
        fixture.write(os.path.join(self.p2, ".cudaenv"), "# newer\n12.4+9\n")
        self.tv = os.path.join(base, "asdf project")
        os.makedirs(self.tv)
        fixture.write(os.path.join(self.tv, ".tool-versions"), "python 3.11.4\ncuda 12.4\ncudnn 9.1.0\n")
        self.py = os.path.join(base, "python only")
        os.makedirs(self.py)
        fixture.write(os.path.join(self.py, ".tool-versions"), "python 3.11.4\nnodejs 20.1.0\n")

    def assert_pair(self, snap, toolkit, cudnn):
        env = snap["env"]
        self.assertEqual(env.get("CUDA_PATH"), toolkit)
        self.assertEqual(env.get("CUDA_HOME"), toolkit)
        self.assertEqual(env.get("CUDNN_PATH"), cudnn)
        self.assertEqual(snap["nvcc_path"], os.path.join(toolkit, "bin", "nvcc"))
        self.assertEqual(env["PATH"].split(":")[0], os.path.join(toolkit, "bin"))

    def assert_restored(self, snap, start):
        for v in ("PATH", "LD_LIBRARY_PATH", "CUDA_PATH", "CUDA_HOME", "CUDNN_PATH", "CUDNN_HOME",
                  "CUDAENV_VERSION", "__CUDAENV_STATE"):
            self.assertEqual(snap["env"].get(v), start["env"].get(v), v)
        state = lambda e: sorted((k, v) for k, v in e.items() if k.startswith("__CUDAENV_"))
        self.assertEqual(state(snap["env"]), state(start["env"]))
        self.assertEqual(snap["nvcc_path"], "")

    def test_switch_on_cd_and_count_processes(self):
        self.flow(Dialect(ARGS.shell).load(auto_switch=True))

    def test_prompt_hook_of_windows_powershell_5(self):
        """Windows PowerShell 5.1 has no LocationChangedAction, so there the
        integration wraps the prompt function. PowerShell 7 runs that branch
        here when the version test in the script is made false."""
        if ARGS.shell != "pwsh":
            self.skipTest("PowerShell only")
        load = ("Invoke-Expression ((& %s init pwsh | Out-String).Replace("
                "'$PSVersionTable.PSVersion.Major -ge 7', '$false'))\n"
                "if ($ExecutionContext.SessionState.InvokeCommand.LocationChangedAction) { throw 'LCA set' }\n"
                % Dialect("pwsh").q(FIX.cudaenv))
        self.flow(load)

    def flow(self, load):
        d = Dialect(ARGS.shell)
        s = Session(ARGS.shell, load, FIX.home)
        try:
            snaps = {}
            snaps["start"] = s.snap("start")
            for _ in range(4):
                s.send("")
            snaps["idle"] = s.snap("idle")
            s.send(d.cd(self.p1).strip())
            snaps["p1"] = s.snap("p1")
            for _ in range(3):
                s.send("")
            snaps["p1idle"] = s.snap("p1idle")
            s.send(d.cd(self.p2).strip())
            snaps["p2"] = s.snap("p2")
            s.send(d.cd(self.p2sub).strip())
            snaps["p2sub"] = s.snap("p2sub")
            s.send(d.cd(self.p1).strip())
            snaps["back1"] = s.snap("back1")
            s.send(d.cd(FIX.home).strip())
            snaps["out"] = s.snap("out")
            s.send(d.cd(self.tv).strip())
            snaps["tv"] = s.snap("tv")
            s.send(d.cd(FIX.home).strip())
            snaps["out2"] = s.snap("out2")
            # A .tool-versions without cuda decides nothing here.
            s.send(d.cd(self.py).strip())
            snaps["py"] = s.snap("py")
            # An explicit `use` wins over the folders until deactivate.
            s.send(d.cd(self.p1).strip())
            snaps["p1b"] = s.snap("p1b")
            s.send("cudaenv use 11.8+none")
            snaps["use"] = s.snap("use")
            s.send(d.cd(self.p2).strip())
            snaps["use_p2"] = s.snap("use_p2")
            s.send(d.cd(FIX.home).strip())
            snaps["use_out"] = s.snap("use_out")
            s.send("cudaenv deactivate")
            snaps["deact"] = s.snap("deact")
            s.send(d.cd(self.p2).strip())
            snaps["p2b"] = s.snap("p2b")
            # A .cudaenv written here applies at once.
            s.send(d.cd(self.p2sub).strip())
            s.send("cudaenv local 11.8")
            snaps["local"] = s.snap("local")
            s.send(d.cd(FIX.home).strip())
            snaps["final"] = s.snap("final")
        finally:
            s.close()
        execs = s.execs()
        start = snaps["start"]
        self.assertNotIn("CUDA_PATH", start["env"])

        self.assert_pair(snaps["p1"], FIX.cuda118, FIX.cudnn8)
        self.assertNotIn("CUDAENV_VERSION", snaps["p1"]["env"])
        self.assert_pair(snaps["p1idle"], FIX.cuda118, FIX.cudnn8)
        self.assert_pair(snaps["p2"], FIX.cuda124, FIX.cudnn9)
        self.assert_pair(snaps["p2sub"], FIX.cuda124, FIX.cudnn9)
        self.assert_pair(snaps["back1"], FIX.cuda118, FIX.cudnn8)
        self.assert_restored(snaps["out"], start)
        self.assert_pair(snaps["tv"], FIX.cuda124, FIX.cudnn9)
        self.assert_restored(snaps["out2"], start)
        self.assert_restored(snaps["py"], start)
        self.assert_pair(snaps["p1b"], FIX.cuda118, FIX.cudnn8)
        for k in ("use", "use_p2", "use_out"):
            self.assert_pair(snaps[k], FIX.cuda118, None)
            self.assertEqual(snaps[k]["env"]["CUDAENV_VERSION"], "11.8.89+none")
        self.assert_restored(snaps["deact"], start)
        self.assert_pair(snaps["p2b"], FIX.cuda124, FIX.cudnn9)
        self.assert_pair(snaps["local"], FIX.cuda118, FIX.cudnn8)
        self.assert_restored(snaps["final"], start)

        calls = lambda a, b: cudaenv_calls_between(execs, a, b)  # noqa: E731
        # Prompts in a folder whose resolution cannot have changed: no process
        # at all (there is no nvcc on PATH yet, so __snap starts none either).
        self.assertEqual(execs_between(execs, "start", "idle"), [])
        self.assertEqual(calls("p1", "p1idle"), [])
        self.assertEqual(calls("p2", "p2sub"), [])
        # Each change of project: exactly one.
        self.assertEqual(len(calls("idle", "p1")), 1)
        self.assertIn('"hook-env"', calls("idle", "p1")[0])
        self.assertEqual(len(calls("p1idle", "p2")), 1)
        self.assertEqual(len(calls("p2sub", "back1")), 1)
        self.assertEqual(len(calls("back1", "out")), 1)
        self.assertEqual(len(calls("out", "tv")), 1)
        self.assertEqual(calls("out2", "py"), [])
        # Under an explicit use only the use itself runs.
        self.assertEqual(len(calls("p1b", "use")), 1)
        self.assertEqual(calls("use", "use_p2"), [])
        self.assertEqual(calls("use_p2", "use_out"), [])

    def test_hostile_dot_cudaenv_is_never_run(self):
        proj = os.path.join(FIX.tmp, "auto hostile")
        os.makedirs(proj, exist_ok=True)
        fixture.write(os.path.join(proj, ".cudaenv"), "$(touch PWNED)\n`touch PWNED`; touch PWNED\n")
        d = Dialect(ARGS.shell)
        s = Session(ARGS.shell, d.load(auto_switch=True), FIX.home)
        try:
            start = s.snap("start")
            s.send(d.cd(proj).strip())
            inproj = s.snap("inproj")
            for _ in range(3):
                s.send("")
            again = s.snap("again")
        finally:
            s.close()
        self.assertFalse(os.path.exists(os.path.join(proj, "PWNED")))
        self.assertFalse(os.path.exists(os.path.join(FIX.home, "PWNED")))
        self.assertIn("not a spec", s.output())
        self.assertEqual(inproj["env"].get("PATH"), start["env"].get("PATH"))
        self.assertNotIn("CUDA_PATH", inproj["env"])
        # The error is reported once, not on every prompt.
        self.assertEqual(cudaenv_calls_between(s.execs(), "inproj", "again"), [])

    def test_project_folder_whose_name_ends_in_a_newline(self):
        """fish's hook lost a newline that ends a folder name (a command
        substitution drops it), so it never found that folder's .cudaenv."""
        proj = os.path.join(FIX.tmp, "auto nl", "ends in a newline\n")
        os.makedirs(proj, exist_ok=True)
        fixture.write(os.path.join(proj, ".cudaenv"), "11.8\n")
        d = Dialect(ARGS.shell)
        # The path reaches the shell through a variable, so no newline is typed.
        cd = {"pwsh": "Set-Location -LiteralPath $env:NLPROJ", "fish": "cd $NLPROJ"}.get(ARGS.shell, 'cd "$NLPROJ"')
        s = Session(ARGS.shell, d.load(auto_switch=True) + d.setvar("NLPROJ", proj), FIX.home)
        try:
            start = s.snap("start")
            s.send(cd)
            inproj = s.snap("inproj")
            s.send(d.cd(FIX.home).strip())
            out = s.snap("out")
        finally:
            s.close()
        self.assertEqual(inproj["cwd"], proj)
        self.assert_pair(inproj, FIX.cuda118, FIX.cudnn8)
        self.assert_restored(out, start)

    def test_a_nul_filled_version_file_is_read_to_a_bound(self):
        """The hook reads at most 8 KiB + 1 bytes of a version file, NUL bytes
        counted: bash's `read -N` drops NULs, so a .cudaenv of 50 MB of zeros
        (sparse here; 50 KB in git) was read to its end at every prompt. A
        change past the first NUL byte, where the binary refuses the file,
        starts no process; one before it does."""
        if ARGS.shell == "fish":
            self.skipTest("fish's read stops at a NUL; its key holds the file's time of change instead")
        proj = os.path.join(FIX.tmp, "auto zeros")
        os.makedirs(proj, exist_ok=True)
        f = os.path.join(proj, ".cudaenv")
        with open(f, "wb") as fh:
            fh.write(b"11.8\n")
            fh.truncate(50 << 20)
        d = Dialect(ARGS.shell)
        s = Session(ARGS.shell, d.load(auto_switch=True), FIX.home)
        # PowerShell 7 runs the hook when the location changes, not at every
        # prompt: there, entering the folder again stands for the next prompt.
        again = d.cd(proj).strip() if ARGS.shell == "pwsh" else ""
        try:
            s.snap("start")
            s.send(d.cd(proj).strip())
            s.snap("inproj")
            for _ in range(3):
                s.send(again)
            s.snap("idle")
            with open(f, "r+b") as fh:  # past the bound: the key must not change
                fh.seek(40 << 20)
                fh.write(b"x")
            s.send(again)
            s.snap("far")
            with open(f, "r+b") as fh:  # before the first NUL: the key changes, the hook runs
                fh.seek(2)
                fh.write(b"y")
            s.send(again)
            s.snap("near")
        finally:
            s.close()
        execs = s.execs()
        # The binary refuses the file at its first NUL byte (issue 40 N7), and says so once.
        self.assertEqual(len(cudaenv_calls_between(execs, "start", "inproj")), 1)
        self.assertIn(".cudaenv:2: holds a NUL byte", s.output())
        self.assertEqual(cudaenv_calls_between(execs, "inproj", "idle"), [])
        self.assertEqual(cudaenv_calls_between(execs, "idle", "far"), [])
        self.assertEqual(len(cudaenv_calls_between(execs, "far", "near")), 1)

    def test_an_unchanged_prompt_reads_a_nul_file_once(self):
        """Issue 40 N7: in a folder whose .cudaenv is NUL bytes, an unchanged
        prompt cost bash up to 8,193 `read`s (171-448 ms), one per NUL. The
        binary refuses a version file at its first NUL byte (a spec has none),
        so the hook stops there too: one `read`. UTF-16 (its byte-order mark)
        is read on to its first NUL character or 257 bytes. Counted, not timed:
        the shell's `read` (zsh: `sysread`) is wrapped by a function that
        counts its calls, and one prompt is a command line with nothing to switch."""
        if ARGS.shell not in ("bash", "zsh"):
            self.skipTest("fish and PowerShell read a file with one call whatever it holds")
        base = os.path.join(FIX.tmp, "auto nuls")
        files = {"zeros": b"\0" * 8192, "utf16-zeros": b"\xff\xfe" + b"\0" * 8190,
                 "utf16-long": b"\xff\xfe" + ("#" * 4000).encode("utf-16-le"),
                 "utf16": b"\xff\xfe" + "11.8\r\n".encode("utf-16-le")}
        for name, data in files.items():
            os.makedirs(os.path.join(base, name), exist_ok=True)
            with open(os.path.join(base, name, ".cudaenv"), "wb") as fh:
                fh.write(data)
        wrap = {"bash": '__ce_reads=0\nread() { __ce_reads=$((__ce_reads + 1)); builtin read "$@"; }\n',
                "zsh": "__ce_reads=0\nsysread() { (( __ce_reads++ )); builtin sysread \"$@\"; }\n"}[ARGS.shell]
        d = Dialect(ARGS.shell)
        s = Session(ARGS.shell, d.load(auto_switch=True) + wrap, FIX.home)
        counts = {}
        try:
            s.snap("start")
            for name in files:
                s.send(d.cd(os.path.join(base, name)).strip())
                s.snap("in-" + name)
                s.send("__ce_reads=0")  # the prompt after it is unchanged: what it reads is counted
                s.send("echo \"READS[%s]=$__ce_reads\"" % name)
                s.snap("idle-" + name)
                counts[name] = int(s.wait_output(r"READS\[%s\]=(\d+)" % re.escape(name))[-1])
        finally:
            s.close()
        print("reads per unchanged prompt (%s): %s" % (ARGS.shell, counts))
        one = 1 if ARGS.shell == "zsh" else None  # zsh: one sysread of the whole head, whatever it holds
        self.assertEqual(counts["zeros"], 1)
        self.assertEqual(counts["utf16-zeros"], one or 2)  # the BOM's piece, then the first NUL character
        self.assertEqual(counts["utf16"], one or 7)  # a piece per character: "11.8\r\n" and the end
        self.assertLessEqual(counts["utf16-long"], one or 129)  # 257 bytes, a NUL every other byte
        execs = s.execs()
        for name in files:
            self.assertEqual(cudaenv_calls_between(execs, "in-" + name, "idle-" + name), [], name)
        self.assertIn(".cudaenv:1: holds a NUL byte", s.output())
        self.assertIn(".cudaenv:1: holds a NUL character", s.output())
        self.assertIn("is UTF-16 and larger than 256 bytes", s.output())


def main():
    global ARGS, FIX
    ap = argparse.ArgumentParser()
    ap.add_argument("--cudaenv", required=True)
    ap.add_argument("--shell", required=True)  # CTest passes each of `cudaenv __shells`
    ARGS, rest = ap.parse_known_args()
    if not shutil.which("strace"):
        print("strace is needed (apt-get install strace)", file=sys.stderr)
        return 1
    test_shells.ARGS = ARGS
    FIX = fixture.Fixture(ARGS.cudaenv)
    test_shells.FIX = FIX
    return fixture.run_tests(FIX, rest)


if __name__ == "__main__":
    sys.exit(main())
