"""cudaenv export: dotenv and github-env read back by real parsers (GitHub's
NAME<<DELIMITER rules, python-dotenv's default interpolating reading, docker's
--env-file rules), and the bad input every format must refuse cleanly: a file
where a folder belongs, a folder that cannot be written, a spec that matches
nothing, an unknown format. A value some dotenv consumer would read back
otherwise (a `${` python-dotenv expands, a backslash systemd unescapes) is
refused with the reason, nothing written (issue 29.5)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from support import Checks, Pairs, make_toolkit, parse_github_env  # noqa: E402
import support  # noqa: E402




def parse_docker_env(raw):
    """docker run --env-file: the file must be UTF-8; each line left-trimmed;
    blank lines and lines starting with # skipped; NAME=value with the value
    taken literally (quotes and all)."""
    text = raw.decode("utf-8")  # docker refuses a file that is not UTF-8
    out = {}
    for line in text.split("\n"):
        line = line.lstrip()
        if not line or line.startswith("#"):
            continue
        name, value = line.split("=", 1)
        out[name.lstrip()] = value
    return out


def main():
    args = support.paths("cudaenv")
    c = Checks()
    p = Pairs(args.cudaenv, prefix="cudaenv-export-")
    try:
        want = p.env_json("11.8.89+8.9.7")["set"]  # export names the full spec
        want = {k: v for k, v in want.items() if not k.startswith("__CUDAENV")}

        # github-env: appended, never replacing what other steps wrote
        gh = os.path.join(p.tmp, "github_env")
        open(gh, "w").write("EARLIER=step\n")
        r = p.run("export", "github-env", "11.8", "-o", gh)
        c.eq(r.returncode, 0, "github-env: %s" % r.stderr)
        r = p.run("export", "github-env", "11.8", "-o", gh)
        got = parse_github_env(open(gh).read())
        c.eq(got.pop("EARLIER", None), "step", "github-env keeps earlier lines")
        c.eq(got, want, "github-env gives what `cudaenv env --json` sets")

        # dotenv: a marked block, the rest of the file kept, re-export replaces the block
        de = os.path.join(p.tmp, ".env")
        open(de, "w").write("# mine\nMY_VAR=1\n")
        for spec in ("11.8+none", "11.8"):
            r = p.run("export", "dotenv", spec, "-o", de)
            c.eq(r.returncode, 0, "dotenv %s: %s" % (spec, r.stderr))
        text = open(de).read()
        c.true(text.startswith("# mine\nMY_VAR=1\n"), "dotenv keeps the user's lines")
        c.eq(text.count(">>> cudaenv export"), 1, "one cudaenv block after two exports")
        # python-dotenv as VS Code's python.envFile reads it: interpolating ${...}.
        from dotenv import dotenv_values
        vals = dict(dotenv_values(de))
        vals.pop("MY_VAR", None)
        c.eq(vals, want, "python-dotenv's default reading gives the values back exactly")
        vals = parse_docker_env(open(de, "rb").read())
        vals.pop("MY_VAR", None)
        c.eq(vals, want, "docker's --env-file rules give the values back exactly")

        # Values a consumer would read otherwise: refused with the reason, the file untouched.
        before = open(de).read()
        r = p.run("export", "dotenv", "12.4", "-o", de)  # its folder holds a backslash
        c.true(r.returncode != 0 and "backslash" in r.stderr and "systemd" in r.stderr
               and "nothing was written" in r.stderr, "a backslash refused: %r" % r.stderr)
        dollar = os.path.join(p.tmp, "b${HOME}x", "cuda-13.0")
        make_toolkit(dollar, "13.0.88")
        r = p.run("add", dollar)
        c.eq(r.returncode, 0, "add a toolkit in b${HOME}x: %s" % r.stderr)
        r = p.run("export", "dotenv", "13.0", "-o", de)
        c.true(r.returncode != 0 and "${" in r.stderr and "python-dotenv" in r.stderr and "b${HOME}x" in r.stderr,
               "a ${ refused, the folder named: %r" % r.stderr)
        c.eq(open(de).read(), before, "the .env is untouched")
        r = p.run("export", "github-env", "13.0")
        c.eq(r.returncode, 0, "github-env carries ${ (the runner does not expand it): %s" % r.stderr)
        c.eq(parse_github_env(r.stdout).get("CUDA_PATH"), dollar, "github-env reads ${ back exactly")

        # bad input
        moddir = os.path.join(p.tmp, "mods")
        afile = os.path.join(p.tmp, "a file")
        open(afile, "w").write("x")
        r = p.run("export", "lmod", "11.8", "-o", afile)
        c.true(r.returncode != 0 and "is a file" in r.stderr and r.stderr.startswith("cudaenv: error:"),
               "export into a file refused: %r" % r.stderr)
        c.eq(open(afile).read(), "x", "the file is untouched")
        r = p.run("export", "tcl", "11.8", "-o", "/proc/cudaenv-modules")
        c.true(r.returncode != 0 and "cannot" in r.stderr and r.stderr.startswith("cudaenv: error:"),
               "unwritable folder refused: %r" % r.stderr)
        ro = os.path.join(p.tmp, "ro")
        os.makedirs(ro)
        os.chmod(ro, 0o555)
        if os.geteuid() != 0:
            r = p.run("export", "tcl", "11.8", "-o", ro)
            c.true(r.returncode != 0 and "cannot" in r.stderr, "read-only folder refused: %r" % r.stderr)
        r = p.run("export", "lmod", "10.0", "-o", moddir)
        c.true(r.returncode != 0 and "10.0" in r.stderr, "a spec that matches nothing: %r" % r.stderr)
        c.true(not os.path.exists(moddir), "nothing written for a spec that matches nothing")
        r = p.run("export", "lmod", "11.8", "10.0", "-o", moddir)
        c.true(r.returncode != 0 and not os.path.exists(moddir), "one bad spec among good ones writes nothing")
        r = p.run("export", "yaml", "11.8")
        c.true(r.returncode != 0 and "unknown export format" in r.stderr and "cmake-presets" in r.stderr,
               "unknown format: %r" % r.stderr)
        r = p.run("export", "lmod", "11.8")
        c.true(r.returncode != 0 and "-o" in r.stderr, "lmod without -o: %r" % r.stderr)
        r = p.run("export", "lmod", "11.8", "-o", moddir, "--default", "12.4")
        c.true(r.returncode != 0 and not os.path.exists(moddir), "--default of a pair not exported: %r" % r.stderr)
    finally:
        if not os.environ.get("CUDAENV_TEST_KEEP"):
            os.chmod(os.path.join(p.tmp, "ro"), 0o755) if os.path.exists(os.path.join(p.tmp, "ro")) else None
            p.cleanup()
    return c.done("clients_export")


if __name__ == "__main__":
    sys.exit(main())
