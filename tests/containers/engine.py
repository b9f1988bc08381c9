"""Podman for the container tests, set up so that it runs on this machine and
changes nothing outside the test's own folder. Stdlib only.

- The test re-runs itself in a private mount namespace (unshare), where a
  tmpfs covers /run and an overlay covers /etc: Podman 4.3 (Debian 12) reads
  CDI specs only from /etc/cdi and /var/run/cdi (no cdi_spec_dirs, no
  --cdi-spec-dir before Podman 5.5), and those writes stay in the namespace.
- CONTAINERS_CONF names a containers.conf of the test's own: runc as the
  runtime (crun refuses this machine's hybrid cgroups), cgroupfs (no
  systemd), events in a file (no journald), and default_ulimits empty: as
  root Podman raises nofile to 1048576 by default, which this machine's hard
  limit forbids (runc: "error setting rlimit type 7: operation not
  permitted").
- Images, containers and Podman's state live below the test's folder
  (--root, --runroot, tmp_dir, HOME); the root file systems come from
  rootfs.sh, kept in the CI cache folder.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "cudaenv-ci", "containers")
SKIP = 77
IN_NS = "CUDAENV_TEST_CONTAINER_NS"


def skip(why):
    print("SKIP:", why)
    sys.exit(SKIP)


def enter_namespace():
    """Runs this script again in a private mount namespace with /run and /etc
    of its own (see above); returns in the re-run process."""
    if os.environ.get(IN_NS):
        return
    if os.geteuid() != 0:
        skip("the container tests run Podman as root (in a mount namespace of their own)")
    for tool in ("podman", "runc", "unshare"):
        if not shutil.which(tool):
            skip("%s is not installed (bash .ci/deps.sh installs it)" % tool)
    os.environ[IN_NS] = "1"
    os.execvp("unshare", ["unshare", "--mount", "--propagation", "private", sys.executable] + sys.argv)


def private_system_folders(work):
    """In the namespace: an empty /run (so /var/run/cdi is ours), and /etc
    and /var/lib as overlays whose changes land in `work` (Podman as root
    keeps a blob cache in /var/lib/containers whatever --root says)."""
    subprocess.run(["mount", "-t", "tmpfs", "tmpfs", "/run"], check=True)
    for n, folder in enumerate(("/etc", "/var/lib")):
        upper, lower_work = os.path.join(work, "upper-%d" % n), os.path.join(work, "work-%d" % n)
        os.makedirs(upper)
        os.makedirs(lower_work)
        subprocess.run(["mount", "-t", "overlay", "overlay", "-o",
                        "lowerdir=%s,upperdir=%s,workdir=%s" % (folder, upper, lower_work), folder], check=True)
    os.makedirs("/run/cdi")


CONF = """[containers]
default_ulimits = []

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "{work}/events.log"
tmp_dir = "{work}/libpod-tmp"
"""


class Podman:
    """One Podman with its own storage below `work`."""

    def __init__(self, work):
        self.work = work
        os.makedirs(work, exist_ok=True)
        conf = os.path.join(work, "containers.conf")
        with open(conf, "w") as f:
            f.write(CONF.format(work=work))
        # HOME: Podman keeps a folder of its own below ~/.config even as root.
        self.env = dict(os.environ, CONTAINERS_CONF=conf, HOME=work)
        self.base = ["podman", "--root", os.path.join(work, "storage"), "--runroot", os.path.join(work, "runroot"),
                     "--storage-driver", "overlay"]

    def __call__(self, *args, check=True, input=None, timeout=300):
        r = subprocess.run(self.base + list(args), env=self.env, capture_output=True, input=input, timeout=timeout)
        if check and r.returncode != 0:
            raise AssertionError("podman %s failed (%d):\n%s%s" % (" ".join(args), r.returncode,
                                                                   r.stdout.decode(errors="replace"),
                                                                   r.stderr.decode(errors="replace")))
        return r

    def run(self, image, *argv, devices=(), volumes=(), env=(), check=True, user=None):
        args = ["run", "--rm", "--network", "none"]
        for d in devices:
            args += ["--device", d]
        for v in volumes:
            args += ["--volume", v]
        for e in env:
            args += ["--env", e]
        if user:
            args += ["--user", user]
        return self(*args, image, *argv, check=check)

    def import_rootfs(self, kind, tag):
        """localhost/<tag> from rootfs.sh's tarball of `kind` (busybox, minbase)."""
        tar = os.path.join(CACHE, "%s-%s.tar" % (kind, codename()))
        r = subprocess.run(["bash", os.path.join(HERE, "rootfs.sh"), kind, tar], capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError("rootfs.sh %s: %s" % (kind, r.stderr))
        self("import", "--change", "CMD /bin/sh", tar, "localhost/" + tag)
        return "localhost/" + tag


def codename():
    """This machine's Debian release (the minbase root file system is of it)."""
    with open("/etc/os-release") as f:
        for line in f:
            if line.startswith("VERSION_CODENAME="):
                return line.split("=", 1)[1].strip().strip('"')
    return "unknown"


def environ_of(podman, image, devices=(), volumes=(), env=()):
    """The environment a container's process starts with, exactly (NUL-separated)."""
    r = podman.run(image, "/bin/cat", "/proc/self/environ", devices=devices, volumes=volumes, env=env)
    out = {}
    for item in r.stdout.split(b"\0"):
        if item:
            name, value = item.decode().split("=", 1)
            out[name] = value
    return out


def cdi_validator(work):
    """The CDI reference library's view of a spec folder: a small Go program
    (cdi_validate.go) built against Debian's packaged library, offline, in
    GOPATH mode; kept in the CI cache by the hash of its source."""
    src = os.path.join(HERE, "cdi_validate.go")
    with open(src, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    exe = os.path.join(CACHE, "cdi-validate-%s" % digest)
    if os.path.exists(exe):
        return exe
    gocode = "/usr/share/gocode"
    if not shutil.which("go") or not os.path.isdir(os.path.join(
            gocode, "src/github.com/container-orchestrated-devices/container-device-interface")):
        raise AssertionError("the CDI validator needs golang-go and "
                             "golang-github-container-orchestrated-devices-container-device-interface-dev "
                             "(bash .ci/deps.sh installs them)")
    os.makedirs(CACHE, exist_ok=True)
    env = dict(os.environ, GO111MODULE="off", GOPATH=gocode, GOFLAGS="", GOPROXY="off",
               GOCACHE=os.path.join(CACHE, "go-build"))
    r = subprocess.run(["go", "build", "-o", exe + ".part", src], env=env, capture_output=True, text=True, cwd=work)
    if r.returncode != 0:
        raise AssertionError("building the CDI validator failed:\n" + r.stderr)
    os.rename(exe + ".part", exe)
    return exe


def validate_cdi(validator, folder, *devices):
    """(errors, the devices the library lists, the env and mounts it injects for `devices`)."""
    r = subprocess.run([validator, folder, *devices], capture_output=True, text=True)
    out = json.loads(r.stdout) if r.stdout.strip() else {}
    return r.returncode, r.stderr, out


def new_work(prefix):
    return tempfile.mkdtemp(prefix=prefix)
