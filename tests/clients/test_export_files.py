"""What `cudaenv export -o`, `kernel add` and `trace --json=FILE` leave at the
path they write (issue 28.2, 28.3, 28.11): links written through, modes and
hard links kept, devices and FIFOs written directly, files that cannot be
read refused untouched, $GITHUB_ENV appended with O_APPEND while other
writers append, parallel read-modify-writes keeping every change, a dotenv
block found by its end marker, and no temporary file left in the project by
an export killed with SIGKILL. Real consumers read the results back."""
import json
import os
import random
import signal
import stat
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from support import Checks, Pairs  # noqa: E402
import support  # noqa: E402
from test_export import parse_github_env  # noqa: E402

BEGIN = "# >>> cudaenv export: written by `cudaenv export dotenv`; re-running it rewrites this block >>>"


def temps(folder):
    return [n for n in os.listdir(folder) if "tmp" in n]


def links_and_modes(c, p):
    proj = os.path.join(p.tmp, "proj-links")
    dot = os.path.join(p.tmp, "dotfiles")
    os.makedirs(proj)
    os.makedirs(dot)
    # A .env that is a link into a dotfiles repository: the target is updated, the link stays.
    target = os.path.join(dot, "env")
    with open(target, "w") as f:
        f.write("MINE=1\n")
    os.symlink(target, os.path.join(proj, ".env"))
    r = p.run("export", "dotenv", "11.8", "-o", ".env", cwd=proj)
    c.eq(r.returncode, 0, "dotenv through a link: %s" % r.stderr)
    c.true(os.path.islink(os.path.join(proj, ".env")), "the link is still a link")
    c.true(BEGIN in open(target).read() and open(target).read().startswith("MINE=1\n"),
           "the link's target got the block and kept the user's line")
    # A link to nothing: refused, nothing created.
    os.symlink(os.path.join(dot, "nowhere"), os.path.join(proj, "dangling.env"))
    r = p.run("export", "dotenv", "11.8", "-o", "dangling.env", cwd=proj)
    c.true(r.returncode != 0 and "does not exist" in r.stderr, "a link to nothing refused: %r" % r.stderr)
    c.true(not os.path.exists(os.path.join(dot, "nowhere")), "nothing created at the link's end")
    # A 0600 .env keeps 0600; a hard link keeps both names on one file.
    secret = os.path.join(proj, "secret.env")
    with open(secret, "w") as f:
        f.write("TOKEN=abc\n")
    os.chmod(secret, 0o600)
    os.link(secret, os.path.join(proj, "secret-link.env"))
    r = p.run("export", "dotenv", "11.8", "-o", "secret.env", cwd=proj)
    c.eq(r.returncode, 0, "dotenv into a 0600 file: %s" % r.stderr)
    c.eq(stat.S_IMODE(os.stat(secret).st_mode), 0o600, "the file's mode is kept")
    c.eq(os.stat(secret).st_nlink, 2, "the hard link is kept")
    c.eq(open(os.path.join(proj, "secret-link.env")).read(), open(secret).read(), "both names see the new text")
    # A preset file that is a link (a shared CMakeUserPresets.json).
    shared = os.path.join(dot, "presets.json")
    with open(shared, "w") as f:
        f.write('{"version": 3, "configurePresets": []}\n')
    os.symlink(shared, os.path.join(proj, "CMakeUserPresets.json"))
    r = p.run("export", "cmake-presets", "12.4", cwd=proj)
    c.eq(r.returncode, 0, "presets through a link: %s" % r.stderr)
    c.true(os.path.islink(os.path.join(proj, "CMakeUserPresets.json")), "the presets link stays a link")
    c.true("cudaenv-12.4.131-cudnn9.1.0" in open(shared).read(), "the shared presets file got the preset")
    # Devices are written, never replaced (as root this replaced /dev/null before).
    for spec_fmt in (("dotenv", "11.8"), ("github-env", "11.8")):
        r = p.run("export", spec_fmt[0], spec_fmt[1], "-o", "/dev/null", cwd=proj)
        c.eq(r.returncode, 0, "%s -o /dev/null: %s" % (spec_fmt[0], r.stderr))
    c.true(stat.S_ISCHR(os.stat("/dev/null").st_mode), "/dev/null is still a device")
    # /dev/stdout, a pipe here: github-env appends into it; dotenv, which rewrites its block
    # inside a file, refuses a FIFO it cannot read first.
    r = p.run("export", "github-env", "11.8", "-o", "/dev/stdout", cwd=proj)
    c.true(r.returncode == 0 and "CUDA_PATH" in parse_github_env(r.stdout),
           "github-env -o /dev/stdout (a pipe) writes to stdout: %r" % r.stderr)
    r = p.run("export", "dotenv", "11.8", "-o", "/dev/stdout", cwd=proj)
    c.true(r.returncode != 0 and "FIFO" in r.stderr, "dotenv -o a pipe refused: %r" % r.stderr)
    c.eq(temps(proj) + temps(dot), [], "no temporary file left")


def unreadable_and_fifos(c, p):
    proj = os.path.join(p.tmp, "proj-odd")
    os.makedirs(proj)
    # Over the 16 MiB read cap: refused, not replaced by the block alone.
    big = os.path.join(proj, "big.env")
    with open(big, "w") as f:
        f.write(("X=" + "y" * 98 + "\n") * 175000)
    size = os.path.getsize(big)
    r = p.run("export", "dotenv", "11.8", "-o", big)
    c.true(r.returncode != 0 and "nothing was written" in r.stderr, "over the cap refused: %r" % r.stderr)
    c.eq(os.path.getsize(big), size, "the big file is untouched")
    # A FIFO: a read-modify-write format refuses it; github-env appends into it.
    fifo = os.path.join(proj, "pipe")
    os.mkfifo(fifo)
    r = p.run("export", "dotenv", "11.8", "-o", fifo)
    c.true(r.returncode != 0 and "FIFO" in r.stderr, "dotenv into a FIFO refused: %r" % r.stderr)
    got = {}

    def reader():
        with open(fifo) as f:
            got["text"] = f.read()
    t = threading.Thread(target=reader)
    t.start()
    r = p.run("export", "github-env", "11.8", "-o", fifo)
    t.join(timeout=30)
    c.eq(r.returncode, 0, "github-env into a FIFO: %s" % r.stderr)
    c.true("CUDA_PATH" in parse_github_env(got.get("text", "")), "the FIFO's reader got the variables")
    c.true(stat.S_ISFIFO(os.stat(fifo).st_mode), "the FIFO is still a FIFO")
    if os.geteuid() != 0:
        locked = os.path.join(proj, "locked.env")
        with open(locked, "w") as f:
            f.write("MINE=1\n")
        os.chmod(locked, 0o200)
        r = p.run("export", "dotenv", "11.8", "-o", locked)
        c.true(r.returncode != 0 and "cannot read" in r.stderr, "an unreadable file refused: %r" % r.stderr)
        os.chmod(locked, 0o600)
        c.eq(open(locked).read(), "MINE=1\n", "the unreadable file is untouched")
    # A begin marker of the user's own (no end marker): their lines survive every export.
    de = os.path.join(proj, "stray.env")
    with open(de, "w") as f:
        f.write(BEGIN + "\nMINE=1\nALSO=2\n")
    for _ in range(2):
        r = p.run("export", "dotenv", "11.8", "-o", de)
        c.eq(r.returncode, 0, "dotenv beside a stray begin marker: %s" % r.stderr)
    text = open(de).read()
    c.true(text.startswith(BEGIN + "\nMINE=1\nALSO=2\n"), "the user's lines after a stray marker are kept:\n" + text)
    c.eq(text.count("# <<< cudaenv export <<<"), 1, "one cudaenv block")


def races(c, p):
    proj = os.path.join(p.tmp, "proj-race")
    os.makedirs(proj)
    # 10 exports racing 10 `echo X=1 >>` into one $GITHUB_ENV: every line kept.
    gh = os.path.join(proj, "github_env")
    open(gh, "w").close()
    procs = []
    for i in range(10):
        procs.append(subprocess.Popen([p.cudaenv, "export", "github-env", "11.8", "-o", gh], env=p.env(),
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        procs.append(subprocess.Popen(["sh", "-c", "echo X%d=1 >> \"$1\"" % i, "sh", gh]))
    for q in procs:
        q.wait()
    text = open(gh).read()
    c.eq(sum(1 for i in range(10) if ("X%d=1\n" % i) in text), 10, "every echo's line kept")
    c.eq(text.count("CUDA_PATH<<"), 10, "every export's block kept")
    # Parallel `export cmake-presets` into one file: every preset kept.
    specs = ["11.8+8.9.7", "11.8+none", "12.4+9.1.0", "12.4+none"]
    for round_ in range(3):
        presets = os.path.join(proj, "CMakeUserPresets.json")
        if os.path.exists(presets):
            os.unlink(presets)
        procs = [subprocess.Popen([p.cudaenv, "export", "cmake-presets", s], env=p.env(), cwd=proj,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for s in specs]
        errs = [q.communicate()[1] for q in procs]
        c.true(all(q.returncode == 0 for q in procs), "parallel presets exports: %r" % errs)
        doc = json.load(open(presets))
        names = sorted(x["name"] for x in doc["configurePresets"])
        c.eq(len(names), 4, "round %d: all four configure presets kept: %r" % (round_, names))
        c.eq(len(doc["buildPresets"]), 4, "round %d: all four build presets kept" % round_)


def killed(c, p):
    """kill -9 at random moments of `export` leaves no temporary file in the
    project once the next export has run (none at all where O_TMPFILE works)."""
    proj = os.path.join(p.tmp, "proj-kill")
    os.makedirs(proj)
    with open(os.path.join(proj, ".env"), "w") as f:
        f.write("MINE=1\n" * 20000)
    left_after_kill = 0
    rng = random.Random(7)
    for _ in range(40):
        for fmt, out in (("dotenv", ".env"), ("cmake-presets", "CMakeUserPresets.json")):
            q = subprocess.Popen([p.cudaenv, "export", fmt, "12.4", "-o", out], env=p.env(), cwd=proj,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0.0, 0.02))
            q.send_signal(signal.SIGKILL)
            q.wait()
            left_after_kill += len(temps(proj))
    r = p.run("export", "dotenv", "12.4", "-o", ".env", cwd=proj)
    c.eq(r.returncode, 0, "an export after the kills: %s" % r.stderr)
    c.eq(temps(proj), [], "no temporary file left in the project")
    c.true(open(os.path.join(proj, ".env")).read().startswith("MINE=1\n" * 20000), "the user's lines survived")
    print("temporary files seen right after the 80 kills (cleaned by the next export): %d" % left_after_kill)


def success_lines(c, p):
    proj = os.path.join(p.tmp, "proj-say")
    os.makedirs(proj)
    for fmt, out, word in (("lmod", "mods-lua", "modulefile"), ("tcl", "mods-tcl", "modulefile"),
                           ("dotenv", ".env", "dotenv block"), ("github-env", "gh", "variables"),
                           ("cmake-presets", "CMakeUserPresets.json", "preset")):
        r = p.run("export", fmt, "12.4", "-o", out, cwd=proj)
        lines = r.stderr.strip().split("\n")
        c.true(r.returncode == 0 and len(lines) == 1 and lines[0].startswith("cudaenv: wrote ") and word in lines[0]
               and out in lines[0], "%s -o says what it wrote on one line: %r" % (fmt, r.stderr))
    r = p.run("export", "dotenv", "12.4", cwd=proj)
    c.eq(r.stderr, "", "dotenv to stdout says nothing on stderr")


def main():
    args = support.paths("cudaenv")
    c = Checks()
    # Plain folder names here: what is tested is the files, not quoting.
    p = Pairs(args.cudaenv, base_a="a", base_b="b", prefix="cudaenv-export-files-")
    try:
        links_and_modes(c, p)
        unreadable_and_fifos(c, p)
        races(c, p)
        killed(c, p)
        success_lines(c, p)
    finally:
        p.finish()
    return c.done("clients_export_files")


if __name__ == "__main__":
    sys.exit(main())
