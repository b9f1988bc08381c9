"""Fixture code shared by the Python suites (tests/integration/fixture.py, the
store suites' storetest.py, tests/shims): small files and fake cuDNN folders.
Stdlib only. A suite finds it with sys.path.insert(0, <tests>/lib)."""
import os


def write(path, text, mode=None):
    """Writes `text` to `path` as UTF-8 with "\\n" line ends, creating its folders."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    if mode is not None:
        os.chmod(path, mode)


def make_cudnn(root, version):
    """A cuDNN folder: include/cudnn_version.h, lib/libcudnn.so.X.Y.Z and its soname link."""
    maj, mi, pa = version.split(".")[:3]
    write(os.path.join(root, "include", "cudnn_version.h"),
          "#define CUDNN_MAJOR %s\n#define CUDNN_MINOR %s\n#define CUDNN_PATCHLEVEL %s\n" % (maj, mi, pa))
    lib = os.path.join(root, "lib")
    write(os.path.join(lib, "libcudnn.so.%s.%s.%s" % (maj, mi, pa)), "fake\n")
    os.symlink("libcudnn.so.%s.%s.%s" % (maj, mi, pa), os.path.join(lib, "libcudnn.so.%s" % maj))
    return root
