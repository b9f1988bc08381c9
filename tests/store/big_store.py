#!/usr/bin/env python3
"""A store of N toolkits and N cuDNN builds, as `install` leaves them
(toolkits/<version>, cudnn/<version>_cuda<major>), spread over five CUDA
majors (9 to 13): every toolkit has N/5 cuDNNs that fit it, so every
combination is N * N/5 pairs (800,000 for N = 2,000; issue 40 R10).
The CUDA 12 folders hold what detection reads (env, use, inspect pick from
them); the others are empty folders, which `list` never opens (making 12,000
files cost the test more than everything it runs). Used by
tests/store/test_list.py and bench/list_scale.sh.

    python3 big_store.py STORE N"""
import json
import os
import sys


def write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


def toolkit_version(i):
    """The i-th toolkit's version: <9..13>.<0..9>.<i // 50>, each once."""
    return "%d.%d.%d" % (9 + i % 5, (i // 5) % 10, i // 50)


def cudnn_build(i):
    """The i-th cuDNN: (version, CUDA major), each pair once."""
    return "9.%d.%d" % ((i // 5) % 100, i // 500), 9 + i % 5


def build(root, n):
    for i in range(n):
        v = toolkit_version(i)
        tk = os.path.join(root, "toolkits", v)
        os.makedirs(tk)
        if not v.startswith("12."):
            continue
        write(os.path.join(tk, "bin", "nvcc"), "#!/bin/sh\necho 'Cuda compilation tools, release %s'\n" % v, 0o755)
        write(os.path.join(tk, "lib64", "libcudart.so.%s" % v), "fake\n")
        write(os.path.join(tk, "version.json"), json.dumps({"cuda": {"name": "CUDA SDK", "version": v}}))
    for i in range(n):
        v, major = cudnn_build(i)
        d = os.path.join(root, "cudnn", "%s_cuda%d" % (v, major))
        os.makedirs(d)
        if major != 12:
            continue
        maj, mi, pa = v.split(".")
        write(os.path.join(d, "include", "cudnn_version.h"),
              "#define CUDNN_MAJOR %s\n#define CUDNN_MINOR %s\n#define CUDNN_PATCHLEVEL %s\n" % (maj, mi, pa))
        write(os.path.join(d, "lib", "libcudnn.so.%s" % v), "fake\n")


if __name__ == "__main__":
    build(sys.argv[1], int(sys.argv[2]))
