#!/usr/bin/env python3
"""`cudaenv use <spec> --msvc` in cmd.exe under Wine, against fake Visual
Studio layouts: a fake vswhere.exe (fake/vswhere.c) lists the installations,
each with VC\\Tools\\MSVC\\<toolset>\\bin\\Hostx64\\x64\\cl.exe (fake/cl.c) and a
vcvarsall.bat that sets variables (fake/vcvarsall.bat). Three layouts:
two toolsets of one Visual Studio 2022, Build Tools 2019 only, none.

For each: `use 11.8 --msvc` picks the newest toolset CUDA 11.8's nvcc accepts
(_MSC_VER 1910-1939), the session gets the variables vcvarsall sets (cl.exe of
that toolset first on PATH), vcvarsall runs once per toolset (kept in the
store's cache), `deactivate` gives back every variable byte for byte (`set`
before and after), doctor names the toolset, and the exported presets carry a
Visual Studio preset whose toolset field is `cuda=<the pair's toolkit>`. With
no fitting toolset, one line names the _MSC_VER range and
-allow-unsupported-compiler, and no toolset is entered.

The same session runs in cmd and in PowerShell 7 (Windows' own pwsh, built by
tests/windows/pwsh/build.sh; Wine 8 starts its console host only with a
terminal, so it runs under `script`).

usage: msvc_win.py <cmd|pwsh> <cudaenv.exe> <vswhere.exe> <cl.exe> <vcvarsall.bat> <pwsh.exe or -> <work dir> [runner...]"""
import json
import os
import shlex
import shutil
import subprocess
import sys

import wintest
from wintest import check

SHELL, EXE, VSWHERE, CL, VCVARSALL, PWSH, WORK = sys.argv[1:8]
RUNNER = sys.argv[8:]


def win(path):
    return wintest.win_path(path, RUNNER)


ENV = {k: v for k, v in os.environ.items() if not k.startswith(("CUDAENV_", "VIRTUAL_ENV"))}


def run(*args, want=0, env=None):
    return wintest.run(RUNNER, args, env or ENV, 900, want)


def toolkit(root, version):
    os.makedirs(os.path.join(root, "bin"))
    for f in ("nvcc.exe", "cudart64_110.dll" if version.startswith("11") else "cudart64_12.dll"):
        open(os.path.join(root, "bin", f), "w").close()
    with open(os.path.join(root, "version.json"), "w") as f:
        f.write('{"cuda": {"name": "CUDA SDK", "version": "%s"}}\n' % version)


def installation(pf86, year, edition, name, version, toolsets):
    inst = os.path.join(pf86, "Microsoft Visual Studio", year, edition)
    build = os.path.join(inst, "VC", "Auxiliary", "Build")
    os.makedirs(build)
    shutil.copy(VCVARSALL, build)
    for t in toolsets:
        x64 = os.path.join(inst, "VC", "Tools", "MSVC", t, "bin", "Hostx64", "x64")
        os.makedirs(x64)
        shutil.copy(CL, os.path.join(x64, "cl.exe"))
    return {"instanceId": year + edition, "installationPath": win(inst), "installationVersion": version,
            "displayName": name, "isComplete": True, "productId": "Microsoft.VisualStudio.Product." + edition}


def parse_set(text):
    """`set`'s output (or the pwsh session's NAME=value lines) as name -> value."""
    out = {}
    for line in text.split("\n"):
        if "=" in line:
            k, v = line.split("=", 1)
            out[k.upper()] = v
    return out


CASES = {
    # name: (installations, the toolset `use 11.8 --msvc` enters, the one `use 12.6 --msvc` enters)
    "two_toolsets": ([("2022", "Community", "Visual Studio Community 2022", "17.14.36310.24",
                       ["14.44.35207", "14.38.33130"])], "14.38.33130", "14.44.35207"),
    "build_tools_only": ([("2019", "BuildTools", "Visual Studio Build Tools 2019", "16.11.35431.28", ["14.29.30133"])],
                         "14.29.30133", "14.29.30133"),
    "none": ([], None, None),
}

shutil.rmtree(WORK, ignore_errors=True)
for case, (insts, want118, want126) in CASES.items():
    work = os.path.join(WORK, case)
    pf86 = os.path.join(work, "Program Files (x86)")
    installer = os.path.join(pf86, "Microsoft Visual Studio", "Installer")
    os.makedirs(installer)
    shutil.copy(VSWHERE, os.path.join(installer, "vswhere.exe"))
    found = [installation(pf86, *i) for i in insts]
    with open(os.path.join(installer, "vswhere.json"), "w") as f:
        json.dump(found, f, indent=2)
    os.makedirs(os.path.join(work, "ProgramData"))
    os.makedirs(os.path.join(work, "project"))
    tk118, tk126 = os.path.join(work, "CUDA", "v11.8"), os.path.join(work, "CUDA", "v12.6")
    toolkit(tk118, "11.8.0")
    toolkit(tk126, "12.6.3")
    env = dict(ENV, CUDAENV_ROOT=win(os.path.join(work, "store")))
    run(EXE, "add", win(tk118), env=env)
    run(EXE, "add", win(tk126), env=env)
    run(EXE, "init", "cmd", env=env)
    d = lambda *p: win(os.path.join(work, *p))  # noqa: E731
    if SHELL == "cmd":
        script = os.path.join(work, "session.cmd")
        with open(script, "w", newline="\r\n") as f:
            f.write("@echo off\n"
                    'set "ProgramFiles(x86)=%s"\n' % win(pf86) +
                    'set "ProgramData=%s"\n' % d("ProgramData") +
                    'set "PATH=%s;%%SystemRoot%%\\system32;%%SystemRoot%%"\n' % d("store", "shims") +
                    'set "INCLUDE=C:\\my include"\n'
                    'set > "%s"\n' % d("before.txt") +
                    'call cudaenv use 11.8 --msvc 2> "%s"\n' % d("use118.err") +
                    "if errorlevel 1 echo FAIL: use 11.8 --msvc\n"
                    'set > "%s"\n' % d("use118.txt") +
                    'for %%%%i in (cl.exe) do echo cl: %%%%~$PATH:i> "%s"\n' % d("cl.txt") +
                    '"%s" doctor --json > "%s"\n' % (win(EXE), d("doctor118.json")) +
                    'call cudaenv use 12.6 --msvc 2> "%s"\n' % d("use126.err") +
                    'set > "%s"\n' % d("use126.txt") +
                    'call cudaenv use 11.8 --msvc 2> nul\n'
                    'set > "%s"\n' % d("use118b.txt") +
                    "call cudaenv use 11.8\n"
                    'set > "%s"\n' % d("plain.txt") +
                    "call cudaenv deactivate\n"
                    'set > "%s"\n' % d("after.txt") +
                    'cd /d "%s"\n' % d("project") +
                    '"%s" export cmake-presets 11.8\n' % win(EXE) +
                    'echo done> "%s"\n' % d("done.txt"))
        out, err = run("cmd", "/d", "/c", win(script), env=env)
    else:
        q = lambda p: "'" + p.replace("'", "''") + "'"  # noqa: E731
        script = os.path.join(work, "session.ps1")
        with open(script, "w", encoding="utf-8-sig") as f:
            f.write("${env:ProgramFiles(x86)} = %s\n" % q(win(pf86)) +
                    "$env:ProgramData = %s\n" % q(d("ProgramData")) +
                    "$env:PATH = %s + ';' + $env:SystemRoot + '\\system32;' + $env:SystemRoot\n" % q(d("store", "shims")) +
                    "$env:INCLUDE = 'C:\\my include'\n"
                    "Invoke-Expression (& %s init pwsh | Out-String)\n" % q(win(EXE)) +
                    "function Snap($f) { Get-ChildItem env: | Sort-Object Name | ForEach-Object { \"$($_.Name)=$($_.Value)\" } | "
                    "Set-Content -LiteralPath $f -Encoding utf8 }\n"
                    "Snap %s\n" % q(d("before.txt")) +
                    "cudaenv use 11.8 --msvc 2> %s\n" % q(d("use118.err")) +
                    "Snap %s\n" % q(d("use118.txt")) +
                    # The first cl.exe on PATH, looked up by hand: PowerShell under Wine 8 finds no
                    # program by name (Get-Command cmd.exe fails too).
                    "'cl: ' + ($env:PATH -split ';' | ForEach-Object { Join-Path $_ 'cl.exe' } | "
                    "Where-Object { Test-Path -LiteralPath $_ } | Select-Object -First 1) | Set-Content -LiteralPath %s\n"
                    % q(d("cl.txt")) +
                    "& %s doctor --json | Set-Content -LiteralPath %s -Encoding utf8\n" % (q(win(EXE)), q(d("doctor118.json"))) +
                    "cudaenv use 12.6 --msvc 2> %s\n" % q(d("use126.err")) +
                    "Snap %s\n" % q(d("use126.txt")) +
                    "cudaenv use 11.8 --msvc 2> $null\n"
                    "Snap %s\n" % q(d("use118b.txt")) +
                    "cudaenv use 11.8\n"
                    "Snap %s\n" % q(d("plain.txt")) +
                    "cudaenv deactivate\n"
                    "Snap %s\n" % q(d("after.txt")) +
                    "Set-Location -LiteralPath %s\n" % q(d("project")) +
                    "& %s export cmake-presets 11.8\n" % q(win(EXE)) +
                    "'done' | Set-Content -LiteralPath %s\n" % q(d("done.txt")))
        # Wine 8 runs PowerShell's console host only with a terminal: `script` gives it one.
        line = " ".join(shlex.quote(a) for a in RUNNER + [PWSH, "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File", win(script)])
        # .NET's assemblies load through Wine's mscoree, which cmake/wine-run.sh otherwise turns off.
        # Under Wine 8 the CLR dies finalizing PowerShell's dynamic methods after a GC ("Internal CLR
        # error" in DynamicResolver+DestroyScout.Finalize): a 512 MiB first generation keeps the short
        # session free of collections.
        p = subprocess.run(["script", "-q", "-e", "-c", line, "/dev/null"],
                           env=dict(env, CUDAENV_WINE_DLLOVERRIDES="mshtml=", DOTNET_GCgen0size="0x20000000"),
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=900)
        out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    check(os.path.exists(os.path.join(work, "done.txt")), "%s/%s: the session ran to its end" % (SHELL, case), out + err)
    read = lambda name: open(os.path.join(work, name), encoding="utf-8", errors="replace").read().replace("\r\n", "\n")  # noqa: E731
    before, after = read("before.txt"), read("after.txt")
    check(before == after, "%s: deactivate gives back every variable byte for byte" % case,
          "\n".join(sorted(set(before.split("\n")) ^ set(after.split("\n")))))
    use118, use126, use118b, plain = (parse_set(read(n)) for n in ("use118.txt", "use126.txt", "use118b.txt", "plain.txt"))
    err118 = read("use118.err")
    if want118:
        check(use118.get("VCTOOLSVERSION") == want118 and use118.get("CUDAENV_MSVC") == want118,
              "%s: use 11.8 --msvc enters %s" % (case, want118), err118)
        cl_dir = "\\VC\\Tools\\MSVC\\%s\\bin\\Hostx64\\x64" % want118
        path = use118.get("PATH", "").split(";")
        check(len(path) > 1 and path[0] == win(tk118) + "\\bin" and path[1].endswith(cl_dir),
              "%s: the pair's bin, then that toolset's cl.exe folder, first on PATH" % case, use118.get("PATH", ""))
        check(("cl: " + path[1] + "\\cl.exe").lower() in read("cl.txt").lower(), "%s: cl.exe is that toolset's" % case,
              read("cl.txt"))
        check(use118.get("INCLUDE", "").endswith(";C:\\my include"), "%s: INCLUDE prepended to the user's" % case,
              use118.get("INCLUDE", ""))
        check("__VSCMD_PREINIT_PATH" not in use118, "%s: vsdevcmd's own PATH record left out" % case)
        check("entered MSVC " + want118 in err118, "%s: use says which toolset" % case, err118)
        check(use126.get("VCTOOLSVERSION") == want126, "%s: use 12.6 --msvc enters %s" % (case, want126))
        check(all(want118 not in use126.get(v, "") for v in ("PATH", "INCLUDE", "LIB")) or want118 == want126,
              "%s: none of the first toolset's entries stay" % case)
        # (cudaenv's own record differs: it also names CUDA_PATH_V12_6, which the use between set.)
        same = lambda v: {k: x for k, x in v.items() if not k.startswith("__CUDAENV_")}  # noqa: E731
        check(same(use118b) == same(use118), "%s: use 11.8 --msvc again: the same variables as the first time" % case,
              "\n".join(sorted(set(read("use118.txt").split("\n")) ^ set(read("use118b.txt").split("\n")))))
        check(not any(k.startswith("WINE") for k in use118.get("__CUDAENV_STATE", "").replace("=", ";").split(";")),
              "%s: nothing but vcvarsall's variables taken for the toolset's" % case, use118.get("__CUDAENV_STATE", ""))
        with open(os.path.join(pf86, "Microsoft Visual Studio", insts[0][0], insts[0][1], "VC", "Auxiliary", "Build",
                               "calls.log")) as f:
            calls = f.read().split("\n")
        calls = [c for c in calls if c.strip()]
        check(len(calls) == len({want118, want126}), "%s: vcvarsall ran once per toolset (kept in the store): %s" % (case, calls))
        doc = {t["topic"]: t for t in json.load(open(os.path.join(work, "doctor118.json")))["findings"]}
        check(doc.get("msvc", {}).get("details", {}).get("fitting") == want118 and "entered" in doc["msvc"]["summary"],
              "%s: doctor names the toolset and that it is entered" % case, json.dumps(doc.get("msvc"), indent=2))
        hc = doc.get("host_compiler", {})
        check("_MSC_VER 19" + want118[3:5] in hc.get("summary", "") and hc.get("status") == "ok",
              "%s: doctor: nvcc's host compiler is that cl.exe, which CUDA 11.8 accepts" % case, json.dumps(hc, indent=2))
    else:
        check("VCTOOLSVERSION" not in use118 and "CUDAENV_MSVC" not in use118, "%s: no toolset entered" % case)
        check("_MSC_VER 1910-1939" in err118 and "-allow-unsupported-compiler" in err118 and
              len([l for l in err118.split("\n") if l.strip()]) == 1,
              "%s: one line with the range and -allow-unsupported-compiler" % case, err118)
        check(use118.get("CUDA_PATH") == win(tk118), "%s: the pair is active all the same" % case)
    check("VCTOOLSVERSION" not in plain and plain.get("INCLUDE") == "C:\\my include" and "CUDAENV_MSVC" not in plain,
          "%s: a plain `use` leaves the toolset" % case)
    # The exported presets: a Visual Studio preset whose toolset is the pair's toolkit.
    presets = json.load(open(os.path.join(work, "project", "CMakeUserPresets.json")))
    vs = [p for p in presets["configurePresets"] if p.get("generator", "").startswith("Visual Studio")]
    if insts:
        check(len(vs) == 1 and vs[0]["toolset"]["value"].endswith("cuda=" + win(tk118)) and
              vs[0]["toolset"]["strategy"] == "set", "%s: the presets' toolset field is cuda=<toolkit>" % case,
              json.dumps(presets, indent=2))
        check("version=" + want118 in vs[0]["toolset"]["value"], "%s: and the toolset version CUDA 11.8 accepts" % case,
              vs[0]["toolset"]["value"])
        if shutil.which("cmake"):
            # CMake here (Linux) reads the presets; it has no Visual Studio generator to run the preset with.
            proj = os.path.join(work, "project")
            with open(os.path.join(proj, "CMakeLists.txt"), "w") as f:
                f.write("cmake_minimum_required(VERSION 3.25)\nproject(p NONE)\n")
            r = subprocess.run(["cmake", "--list-presets=all"], cwd=proj, capture_output=True, text=True)
            check(r.returncode == 0 and '"%s"' % vs[0]["name"] in r.stdout, "%s: CMake reads the presets" % case,
                  r.stdout + r.stderr)
            r = subprocess.run(["cmake", "--preset", vs[0]["name"]], cwd=proj, capture_output=True, text=True)
            check("Could not create named generator " + vs[0]["generator"] in r.stderr,
                  "%s: and takes the Visual Studio preset's generator (absent on Linux)" % case, r.stdout + r.stderr)
    else:
        check(vs == [], "%s: no Visual Studio, no Visual Studio preset" % case, json.dumps(presets, indent=2))

wintest.finish()
print("PASS")
