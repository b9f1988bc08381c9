#!/usr/bin/env python3
"""Runs the built cudaenv inside the real shells (bash, zsh, fish, pwsh) and
checks what each shell ends up with: which nvcc it resolves, the variables its
child processes see, and that deactivate restores everything byte for byte.

    python3 test_shells.py --cudaenv BIN --shell bash [unittest args]

Each test writes a script in that shell's own syntax, runs it with no user
profile, and reads back snapshots taken from inside the shell by a child
process (`fixture.py --dump`), so every assertion is about real shell state."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixture  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ARGS = None
FIX = None

# PATH entries around the CUDA ones: unrelated folders (one needing quoting),
# a duplicate, and a usual CUDA place that `use` must remove and `deactivate`
# put back where it was.
UNRELATED = "/opt/unrelated tools"


def posix_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def fish_quote(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def ps_quote(s):
    out = []
    for ch in s:
        if ch in "'\u2018\u2019\u201a\u201b":
            out.append(ch)
        out.append(ch)
    return "'" + "".join(out) + "'"


class Dialect:
    """How to say things in one shell."""

    def __init__(self, name):
        self.name = name

    def q(self, s):
        return {"fish": fish_quote, "pwsh": ps_quote}.get(self.name, posix_quote)(s)

    def argv(self, script):
        exe = fixture.shell_exe(self.name)
        return {
            "bash": [exe, "--norc", "--noprofile", script],
            "zsh": [exe, "-f", script],
            "fish": [exe, "--no-config", script],
            "pwsh": [exe, "-NoLogo", "-NoProfile", "-NonInteractive", "-File", script],
        }[self.name]

    def ext(self):
        return {"bash": ".bash", "zsh": ".zsh", "fish": ".fish", "pwsh": ".ps1"}[self.name]

    def preamble(self, outdir):
        py, dump = self.q(sys.executable), self.q(os.path.join(HERE, "fixture.py"))
        out = self.q(outdir)
        if self.name in ("bash", "zsh"):
            return ("__snap() {\n"
                    "  local __rc=\"${2-0}\" __p __o\n"
                    "  __p=\"$(command -v nvcc)\"\n"
                    "  __o=\"$(nvcc 2>&1)\"\n"
                    "  %s %s --dump %s \"$1\" \"$__rc\" \"$__p\" \"$__o\"\n"
                    "}\n" % (py, dump, out))
        if self.name == "fish":
            return ("function __snap\n"
                    "    set -l rc 0\n"
                    "    if set -q argv[2]; set rc $argv[2]; end\n"
                    "    set -l p (command -v nvcc)\n"
                    "    set -l o ''\n"
                    "    if test -n \"$p\"; set o (nvcc 2>&1 | string collect); end\n"
                    "    %s %s --dump %s $argv[1] $rc \"$p\" \"$o\"\n"
                    "end\n" % (py, dump, out))
        return ("$ErrorActionPreference = 'Continue'\n"
                "function __snap([string]$label, $rc = 0) {\n"
                "    $c = Get-Command nvcc -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1\n"
                "    $p = ''; $o = ''\n"
                "    if ($c) { $p = $c.Source; $o = (& nvcc 2>&1) -join \"`n\" }\n"
                "    & %s %s --dump %s $label \"$rc\" $p $o\n"
                "}\n" % (py, dump, out))

    def load(self, auto_switch=False):
        flag = "" if auto_switch else " --no-auto-switch"
        exe = self.q(FIX.cudaenv)
        if self.name in ("bash", "zsh"):
            return 'eval "$(%s init %s%s)"\n' % (exe, self.name, flag)
        if self.name == "fish":
            return "%s init fish%s | source\n" % (exe, flag)
        return "Invoke-Expression (& %s init pwsh%s | Out-String)\n" % (exe, flag)

    def snap(self, label, rc=False):
        if not rc:
            return "__snap %s\n" % label
        return {"bash": "__snap %s $?\n", "zsh": "__snap %s $?\n", "fish": "__snap %s $status\n",
                "pwsh": "__snap %s $LASTEXITCODE\n"}[self.name] % label

    def setvar(self, name, value):
        if self.name in ("bash", "zsh"):
            return "export %s=%s\n" % (name, self.q(value))
        if self.name == "fish":
            if name in ("PATH", "LD_LIBRARY_PATH"):
                return "set -gx %s %s\n" % (name, " ".join(self.q(e) for e in value.split(":")))
            return "set -gx %s %s\n" % (name, self.q(value))
        return "$env:%s = %s\n" % (name, self.q(value))

    def unsetvar(self, name):
        if self.name in ("bash", "zsh"):
            return "unset %s\n" % name
        if self.name == "fish":
            return "set -e %s\n" % name
        return "Remove-Item -LiteralPath Env:%s -ErrorAction SilentlyContinue\n" % name

    def cd(self, path):
        if self.name == "pwsh":
            return "Set-Location -LiteralPath %s\n" % self.q(path)
        return "cd %s\n" % self.q(path)

    def run_bin(self, *args):
        """The binary itself, bypassing the integration's function."""
        a = " ".join(self.q(x) for x in args)
        if self.name == "pwsh":
            return "& %s %s\n" % (self.q(FIX.cudaenv), a)
        if self.name == "fish":
            return "command %s %s\n" % (self.q(FIX.cudaenv), a)
        return "command %s %s\n" % (self.q(FIX.cudaenv), a)

    def run_fn(self, *args):
        return "cudaenv %s\n" % " ".join(self.q(x) for x in args)

    def echo_rc(self, tag):
        return {"bash": "echo \"%s=$?\"\n", "zsh": "echo \"%s=$?\"\n", "fish": "echo \"%s=$status\"\n",
                "pwsh": "Write-Output \"%s=$LASTEXITCODE\"\n"}[self.name] % tag


class Result:
    def __init__(self, proc, outdir):
        self.rc = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr
        self.snaps = {}
        for f in os.listdir(outdir):
            if f.endswith(".json"):
                with open(os.path.join(outdir, f), encoding="utf-8") as fh:
                    self.snaps[f[:-5]] = json.load(fh)

    def __getitem__(self, label):
        return self.snaps[label]


def run_script(body, cwd=None, env=None, auto_switch=False, load=True):
    d = Dialect(ARGS.shell)
    outdir = tempfile.mkdtemp(prefix="snaps-", dir=FIX.tmp)
    script = d.preamble(outdir) + (d.load(auto_switch) if load else "") + body
    path = os.path.join(outdir, "script" + d.ext())
    with open(path, "w", encoding="utf-8") as f:
        f.write(script)
    e = FIX.base_env()
    e["PATH"] = start_path()
    if env:
        e.update(env)
    e = {k: v for k, v in e.items() if v is not None}
    proc = subprocess.run(d.argv(path), env=e, cwd=cwd or FIX.home, capture_output=True, text=True, timeout=120)
    return Result(proc, outdir)


def start_path():
    # bash also gets an empty entry (the current folder): a pair's PATH never has one
    # (issue 29.2), and deactivate gives it back with the rest, byte for byte.
    extra = ":" if ARGS.shell == "bash" else ""
    return ":".join(["/usr/local/bin", UNRELATED, "/usr/local/cuda-10.0/bin", "/usr/bin", UNRELATED,
                     "/bin"]) + extra


def entries(path):
    return path.split(":")


class ShellTests(unittest.TestCase):
    maxDiff = None

    @property
    def d(self):
        return Dialect(ARGS.shell)

    def assert_pair(self, snap, toolkit, cudnn, release, before):
        env = snap["env"]
        self.assertEqual(snap["rc"], "0")
        self.assertEqual(snap["nvcc_path"], os.path.join(toolkit, "bin", "nvcc"))
        self.assertIn("release " + release, snap["nvcc_out"])
        self.assertEqual(env.get("CUDA_PATH"), toolkit)
        self.assertEqual(env.get("CUDA_HOME"), toolkit)
        self.assertEqual(env.get("CUDNN_PATH"), cudnn)
        self.assertEqual(env.get("CUDNN_HOME"), cudnn)
        path = entries(env["PATH"])
        self.assertEqual(path[0], os.path.join(toolkit, "bin"))
        # Every other entry keeps its order, duplicates included; only usual CUDA
        # places (and the other pair) are gone, and empty entries (the current folder).
        kept = [e for e in entries(before["env"]["PATH"]) if e and not e.startswith("/usr/local/cuda")]
        self.assertEqual(path[1:], kept)
        self.assertNotIn("", path)
        ld = entries(env["LD_LIBRARY_PATH"])
        self.assertEqual(ld[:2], [os.path.join(toolkit, "lib64"), os.path.join(cudnn, "lib")])
        old_ld = before["env"].get("LD_LIBRARY_PATH")
        self.assertEqual(ld[2:], entries(old_ld) if old_ld else [])
        for other in (FIX.cuda118, FIX.cuda124, FIX.cudnn8, FIX.cudnn9):
            if other not in (toolkit, cudnn):
                self.assertNotIn(other, env["PATH"])
                self.assertNotIn(other, env["LD_LIBRARY_PATH"])

    def switch_and_back(self, ld):
        d = self.d
        body = ""
        if ld is None:
            body += d.unsetvar("LD_LIBRARY_PATH")
        else:
            body += d.setvar("LD_LIBRARY_PATH", ld)
        body += d.snap("before")
        body += d.run_fn("use", "11.8") + d.snap("u118", rc=True)
        body += d.run_fn("use", "12.4+9") + d.snap("u124", rc=True)
        body += d.run_fn("use", "11.8+8.9.7") + d.snap("u118b", rc=True)
        body += d.run_fn("deactivate") + d.snap("off", rc=True)
        r = run_script(body)
        self.assertEqual(r.rc, 0, r.stderr)
        before = r["before"]
        self.assertEqual(before["nvcc_path"], "")
        self.assert_pair(r["u118"], FIX.cuda118, FIX.cudnn8, "11.8", before)
        # The exact pair `use 11.8` chose, as `current` and `env --json` name it (issue 40 D12).
        self.assertEqual(r["u118"]["env"]["CUDAENV_VERSION"], "11.8.89+8.9.7")
        self.assert_pair(r["u124"], FIX.cuda124, FIX.cudnn9, "12.4", before)
        self.assert_pair(r["u118b"], FIX.cuda118, FIX.cudnn8, "11.8", before)
        off = r["off"]
        self.assertEqual(off["rc"], "0")
        self.assertEqual(off["nvcc_path"], "")
        # Byte for byte, and an unset variable is unset again.
        self.assertEqual(off["env"]["PATH"], before["env"]["PATH"])
        self.assertEqual(off["env"].get("LD_LIBRARY_PATH"), before["env"].get("LD_LIBRARY_PATH"))
        for v in ("CUDA_PATH", "CUDA_HOME", "CUDNN_PATH", "CUDNN_HOME", "CUDAENV_VERSION"):
            self.assertNotIn(v, off["env"])
        # No trace of cudaenv's own state (__CUDAENV_STATE, __CUDAENV_PATH_WAS, ...).
        self.assertEqual([k for k in off["env"] if k.startswith("__CUDAENV_")], [])
        return before

    def test_use_switch_deactivate_ld_unset(self):
        before = self.switch_and_back(None)
        self.assertNotIn("LD_LIBRARY_PATH", before["env"])
        path = entries(before["env"]["PATH"])
        self.assertIn(UNRELATED, path)
        self.assertEqual(path.count(UNRELATED), 2)
        if ARGS.shell == "bash":
            self.assertEqual(path[-1], "")

    def test_use_switch_deactivate_ld_set(self):
        before = self.switch_and_back("/opt/my libs:/usr/lib/extra:/opt/my libs")
        self.assertEqual(before["env"]["LD_LIBRARY_PATH"], "/opt/my libs:/usr/lib/extra:/opt/my libs")

    def test_use_switch_deactivate_ld_empty(self):
        # An empty LD_LIBRARY_PATH must not become "<lib64>:<cudnn>:" (an empty entry is
        # the current folder to the loader, issue 29.2); assert_pair checks there is none.
        before = self.switch_and_back("")
        self.assertEqual(before["env"].get("LD_LIBRARY_PATH", ""), "")

    def test_use_restores_variables_set_before(self):
        d = self.d
        body = d.setvar("CUDA_PATH", "/old cuda $x") + d.unsetvar("LD_LIBRARY_PATH") + d.snap("before")
        body += d.run_fn("use", "12.4") + d.snap("on", rc=True)
        body += d.run_fn("deactivate") + d.snap("off", rc=True)
        r = run_script(body)
        self.assertEqual(r["on"]["env"]["CUDA_PATH"], FIX.cuda124)
        self.assertEqual(r["off"]["env"]["CUDA_PATH"], "/old cuda $x")
        self.assertEqual(r["off"]["env"]["PATH"], r["before"]["env"]["PATH"])

    def test_dot_cudaenv_from_subfolder(self):
        proj = os.path.join(FIX.tmp, "proj $(x) 项目")
        sub = os.path.join(proj, "src", "deep dir")
        os.makedirs(sub, exist_ok=True)
        fixture.write(os.path.join(proj, ".cudaenv"), "# the project's pair\n11.8  # pinned\n")
        d = self.d
        body = d.cd(sub)
        body += d.run_fn("current") + d.echo_rc("current")
        body += d.run_fn("which", "nvcc") + d.echo_rc("which")
        body += d.run_fn("exec", "11.8", "--", "nvcc") + d.echo_rc("exec")
        r = run_script(body)
        self.assertEqual(r.rc, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertIn("current=0", lines)
        self.assertIn("which=0", lines)
        self.assertIn("exec=0", lines)
        self.assertTrue(any(line.startswith("11.8.89+8.9.7") and os.path.join(proj, ".cudaenv") in line
                            for line in lines), r.stdout)
        self.assertIn(os.path.join(FIX.cuda118, "bin", "nvcc"), lines)
        self.assertTrue(any("release 11.8" in line for line in lines), r.stdout)

    def test_env_var_wins_over_dot_cudaenv(self):
        proj = os.path.join(FIX.tmp, "proj env wins")
        os.makedirs(os.path.join(proj, "a"), exist_ok=True)
        fixture.write(os.path.join(proj, ".cudaenv"), "11.8\n")
        d = self.d
        body = d.cd(os.path.join(proj, "a"))
        body += d.run_fn("use", "12.4") + d.run_fn("current") + d.run_fn("which", "nvcc")
        body += d.run_fn("deactivate") + d.run_fn("current")
        r = run_script(body)
        self.assertEqual(r.rc, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0], "12.4.131+9.1.0 (set by CUDAENV_VERSION)")
        self.assertEqual(lines[1], os.path.join(FIX.cuda124, "bin", "nvcc"))
        self.assertEqual(lines[2], "11.8.89+8.9.7 (set by %s)" % os.path.join(proj, ".cudaenv"))

    def test_hostile_dot_cudaenv_is_never_run(self):
        for i, content in enumerate(["$(touch PWNED)\n", "`touch PWNED`\n", "12.4; touch PWNED\n",
                                     "12.4 && touch PWNED\n", "12.4\n$(touch PWNED)\n".replace("12.4\n", "12.4 | ")]):
            with self.subTest(content=content):
                proj = os.path.join(FIX.tmp, "hostile %d" % i)
                os.makedirs(os.path.join(proj, "sub"), exist_ok=True)
                fixture.write(os.path.join(proj, ".cudaenv"), content)
                d = self.d
                body = d.cd(os.path.join(proj, "sub"))
                body += d.run_fn("current") + d.echo_rc("current")
                body += d.run_fn("which", "nvcc") + d.echo_rc("which")
                body += d.snap("after")
                # The auto-switch hook must not run it either.
                r = run_script(body, auto_switch=True)
                self.assertIn("current=1", r.stdout.splitlines())
                self.assertIn("which=1", r.stdout.splitlines())
                self.assertIn("cudaenv: error: " + os.path.join(proj, ".cudaenv") + ":1: not a spec", r.stderr)
                self.assertFalse(os.path.exists(os.path.join(proj, "PWNED")))
                self.assertFalse(os.path.exists(os.path.join(proj, "sub", "PWNED")))
                self.assertFalse(os.path.exists(os.path.join(FIX.home, "PWNED")))
                self.assertNotIn("CUDA_PATH", r["after"]["env"])

    def test_use_without_integration(self):
        d = self.d
        body = d.snap("before") + d.run_bin("use", "11.8") + d.echo_rc("use") + d.snap("after")
        r = run_script(body, load=False)
        self.assertIn("use=1", r.stdout.splitlines())
        self.assertIn("cudaenv: error: `cudaenv use` needs the shell integration", r.stderr)
        self.assertIn("hint: ", r.stderr)
        self.assertIn("cudaenv init", r.stderr)
        self.assertEqual(r["after"]["env"], r["before"]["env"])

    def test_use_unknown_spec_changes_nothing(self):
        d = self.d
        body = d.snap("before") + d.run_fn("use", "99.9") + d.snap("after", rc=True)
        body += d.run_fn("use", "11.8") + d.snap("on") + d.run_fn("use", "10") + d.snap("still", rc=True)
        r = run_script(body)
        self.assertEqual(r["after"]["rc"], "1")
        self.assertEqual(r["after"]["env"], r["before"]["env"])
        self.assertIn("cudaenv: error: ", r.stderr)
        self.assertIn("11.8", r.stderr)
        self.assertIn("12.4", r.stderr)
        self.assertEqual(r["still"]["rc"], "1")
        self.assertEqual(r["still"]["env"], r["on"]["env"])

    def test_use_help_evaluates_nothing(self):
        d = self.d
        body = d.snap("before") + d.run_fn("use", "--help") + d.snap("after", rc=True)
        r = run_script(body)
        self.assertEqual(r["after"]["rc"], "0")
        self.assertEqual(r["after"]["env"], r["before"]["env"])
        self.assertIn("Usage", r.stderr)
        self.assertNotIn("Usage", r.stdout)

    def test_cd_is_never_wrapped(self):
        d = self.d
        body = {
            "bash": "type -t cd\nalias cd 2>/dev/null || echo no-alias\n",
            "zsh": "whence -w cd\nalias cd >/dev/null || echo no-alias\n",
            "fish": "if functions cd | string match -q '*cudaenv*'; echo wrapped; else; echo clean; end\n"
                    "if functions -q __cudaenv_hook; echo hooked; end\n",
            "pwsh": "$c = Get-Command cd\nWrite-Output ($c.CommandType.ToString() + ' ' + $c.Definition)\n"
                    "Write-Output (Get-Command Set-Location).CommandType.ToString()\n",
        }[ARGS.shell]
        r = run_script(body, auto_switch=True)
        self.assertEqual(r.rc, 0, r.stderr)
        want = {"bash": ["builtin", "no-alias"], "zsh": ["cd: builtin", "no-alias"], "fish": ["clean", "hooked"],
                "pwsh": ["Alias Set-Location", "Cmdlet"]}[ARGS.shell]
        self.assertEqual(r.stdout.splitlines(), want)

    def test_hook_keeps_existing_hooks(self):
        """The auto-switch hook joins what is there (once, even when init runs twice)."""
        d = self.d
        if ARGS.shell == "bash":
            body = ("PROMPT_COMMAND='echo mine'\n" + d.load(True) + d.load(True) +
                    "printf '[%s]\\n' \"$PROMPT_COMMAND\"\n"
                    "PROMPT_COMMAND=(first second)\n" + d.load(True) + d.load(True) +
                    "printf '[%s]' \"${PROMPT_COMMAND[@]}\"; echo\n"
                    "unset PROMPT_COMMAND\n" + d.load(True) + "printf '[%s]\\n' \"$PROMPT_COMMAND\"\n")
            r = run_script(body, load=False)
            self.assertEqual(r.stdout, "[__cudaenv_hook\necho mine]\n[__cudaenv_hook][first][second]\n"
                                       "[__cudaenv_hook]\n", r.stderr)
            return
        if ARGS.shell == "zsh":
            body = ("mine() { :; }\nchpwd_functions=(mine)\nprecmd_functions=(mine)\n" + d.load(True) +
                    d.load(True) + "print -r -- \"$chpwd_functions|$precmd_functions\"\n")
            r = run_script(body, load=False)
            self.assertEqual(r.stdout, "mine __cudaenv_hook|__cudaenv_hook mine\n", r.stderr)
            return
        proj = os.path.join(FIX.tmp, "chain proj")
        os.makedirs(proj, exist_ok=True)
        fixture.write(os.path.join(proj, ".cudaenv"), "12.4\n")
        if ARGS.shell == "fish":
            body = ("function mine --on-variable PWD; set -g mine_fired 1; end\n" + d.load(True) + d.load(True) +
                    d.cd(proj) + "echo fired=$mine_fired\n" + d.snap("in"))
            r = run_script(body, load=False)
            self.assertIn("fired=1", r.stdout)
            self.assertEqual(r["in"]["env"]["CUDA_PATH"], FIX.cuda124)
            return
        body = ("$ExecutionContext.SessionState.InvokeCommand.LocationChangedAction = "
                "[System.EventHandler[System.Management.Automation.LocationChangedEventArgs]] "
                "{ $global:mine_fired = 1 + $global:mine_fired }\n" + d.load(True) + d.load(True) +
                "$n = $ExecutionContext.SessionState.InvokeCommand.LocationChangedAction.GetInvocationList().Count\n"
                "Write-Output \"handlers=$n\"\n" + d.cd(proj) + "Write-Output \"fired=$global:mine_fired\"\n" +
                d.snap("in"))
        r = run_script(body, load=False)
        self.assertIn("handlers=2", r.stdout, r.stderr)
        self.assertIn("fired=1", r.stdout, r.stderr)
        self.assertEqual(r["in"]["env"]["CUDA_PATH"], FIX.cuda124)

    def test_no_auto_switch(self):
        proj = os.path.join(FIX.tmp, "no auto proj")
        os.makedirs(proj, exist_ok=True)
        fixture.write(os.path.join(proj, ".cudaenv"), "12.4\n")
        d = self.d
        body = d.cd(proj) + d.snap("in")
        if ARGS.shell in ("bash", "zsh"):
            body += "type __cudaenv_hook >/dev/null 2>&1 && echo hooked\n"
        r = run_script(body, auto_switch=False)
        self.assertNotIn("CUDA_PATH", r["in"]["env"])
        self.assertNotIn("hooked", r.stdout)

    def test_pwsh_session_shim(self):
        if ARGS.shell != "pwsh":
            self.skipTest("PowerShell only")
        r0 = FIX.run_cudaenv("init", "pwsh")
        self.assertEqual(r0.returncode, 0, r0.stderr)
        shims = os.path.join(FIX.root, "shims")
        self.assertTrue(os.path.isfile(os.path.join(shims, "cudaenv.ps1")))
        d = self.d
        body = d.snap("before")
        body += "$env:PATH = %s + [IO.Path]::PathSeparator + $env:PATH\n" % d.q(shims)
        body += "$c = Get-Command cudaenv\nWrite-Output (\"kind=\" + $c.CommandType)\n"
        body += "cudaenv use 11.8\n" + d.snap("on", rc=True)
        body += "cudaenv use 12.4\n" + d.snap("on2", rc=True)
        body += "cudaenv deactivate\n" + d.snap("off", rc=True)
        body += "cudaenv use 99.9\n" + d.snap("bad", rc=True)
        r = run_script(body, load=False)
        self.assertIn("kind=ExternalScript", r.stdout)
        self.assertEqual(r["on"]["env"]["CUDA_PATH"], FIX.cuda118)
        self.assertEqual(r["on"]["nvcc_path"], os.path.join(FIX.cuda118, "bin", "nvcc"))
        self.assertEqual(r["on2"]["env"]["CUDA_PATH"], FIX.cuda124)
        self.assertNotIn("CUDA_PATH", r["off"]["env"])
        self.assertEqual(r["off"]["env"]["PATH"], shims + ":" + r["before"]["env"]["PATH"])
        self.assertEqual(r["bad"]["rc"], "1")
        self.assertNotIn("CUDA_PATH", r["bad"]["env"])

    def test_pwsh_code_has_no_ps7_only_syntax(self):
        """Everything cudaenv gives PowerShell must parse the same in Windows PowerShell 5.1."""
        if ARGS.shell != "pwsh":
            self.skipTest("PowerShell only")
        texts = {}
        for auto in ("--auto-switch", "--no-auto-switch"):
            r = FIX.run_cudaenv("init", "pwsh", auto)
            self.assertEqual(r.returncode, 0, r.stderr)
            texts["init " + auto] = r.stdout
        with open(os.path.join(FIX.root, "shims", "cudaenv.ps1"), encoding="utf-8-sig") as f:
            texts["session shim"] = f.read()
        r = FIX.run_cudaenv("env", "11.8", "--shell", "pwsh", env={"LD_LIBRARY_PATH": "/x"})
        self.assertEqual(r.returncode, 0, r.stderr)
        texts["env"] = r.stdout
        r = FIX.run_cudaenv("completions", "pwsh")
        self.assertEqual(r.returncode, 0, r.stderr)
        texts["completions"] = r.stdout
        checker = os.path.join(HERE, "ps5_syntax.ps1")
        for what, text in texts.items():
            with self.subTest(what=what):
                src = os.path.join(FIX.tmp, "check.ps1")
                with open(src, "w", encoding="utf-8") as f:
                    f.write(text)
                p = subprocess.run([fixture.PWSH, "-NoLogo", "-NoProfile", "-NonInteractive", "-File", checker, src],
                                   capture_output=True, text=True, env=FIX.base_env())
                self.assertEqual(p.returncode, 0, what + ":\n" + p.stdout + p.stderr)
        # The checker itself must catch each construct.
        for bad in ("$a = $b ?? 'x'", "$a ??= 1", "${x}?.Name", "${a}?[0]", "ls && ls", "ls || ls", "$a = $t ? 1 : 2"):
            with self.subTest(bad=bad):
                src = os.path.join(FIX.tmp, "bad.ps1")
                with open(src, "w", encoding="utf-8") as f:
                    f.write(bad + "\n")
                p = subprocess.run([fixture.PWSH, "-NoLogo", "-NoProfile", "-NonInteractive", "-File", checker, src],
                                   capture_output=True, text=True, env=FIX.base_env())
                self.assertEqual(p.returncode, 1, bad + ": " + p.stdout + p.stderr)


def main():
    global ARGS, FIX
    ap = argparse.ArgumentParser()
    ap.add_argument("--cudaenv", required=True)
    ap.add_argument("--shell", required=True)  # CTest passes each of `cudaenv __shells`
    ARGS, rest = ap.parse_known_args()
    if ARGS.shell == "pwsh" and not os.path.exists(fixture.PWSH):
        print("pwsh not found at " + fixture.PWSH, file=sys.stderr)
        return 1
    FIX = fixture.Fixture(ARGS.cudaenv)
    return fixture.run_tests(FIX, rest)


if __name__ == "__main__":
    sys.exit(main())
