"""subprocess.run for a program under cmake/wine-run.sh, once more when Wine
started nothing. Once in many runs a program that meets the shared wineserver
as it goes idle exits 1 with no output at all, which neither cudaenv (its
errors are a line) nor Wine's reg does. A real failure repeats, so it stays one."""
import subprocess


def run(argv, **kwargs):
    p = subprocess.run(argv, capture_output=True, **kwargs)
    if p.returncode == 1 and not p.stdout and not p.stderr:
        p = subprocess.run(argv, capture_output=True, **kwargs)
    return p


def run_text(argv, env, timeout, cwd=None):
    """(exit status, stdout, stderr) of `argv` as run() runs it, the output
    decoded and Windows' line ends read as "\n"."""
    p = run(argv, env=env, timeout=timeout, cwd=cwd)
    text = lambda b: b.decode("utf-8", "replace").replace("\r\n", "\n")  # noqa: E731
    return p.returncode, text(p.stdout), text(p.stderr)
