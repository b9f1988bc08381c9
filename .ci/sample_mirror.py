#!/usr/bin/env python3
"""Writes a small SAMPLE offline mirror in NVIDIA's redist layout, for the demo.

    <dest>/cuda/redist/redistrib_<release>.json   + <component>/linux-x86_64/*.tar.xz
    <dest>/cudnn/redist/redistrib_<release>.json  + cudnn/linux-x86_64/*.tar.xz

Two CUDA releases (11.8.0, 12.6.3) with cuda_cudart and cuda_nvcc, two cuDNN
releases (8.9.7 for CUDA 11 and 12, 9.8.0 for CUDA 12), in the manifest format
NVIDIA publishes (docs/install.md). Nothing is downloaded and nothing in it is
NVIDIA's: the "libraries" are text files that say they are samples, and nvcc is
a shell script that answers --version the way NVIDIA's does and compiles
nothing. It shows what `cudaenv install` does on a machine without CUDA.

usage: sample_mirror.py <dest>
"""
import hashlib
import io
import json
import os
import shutil
import sys
import tarfile

NOTE = b"SAMPLE written by cudaenv's .ci/sample_mirror.py for the demo: not an NVIDIA library.\n"

CUDA = {  # release: (cudart version, nvcc version, nvcc build line, CUDART_VERSION)
    "11.8.0": ("11.8.89", "11.8.89", "cuda_11.8.r11.8/compiler.31833905_0", 11080),
    "12.6.3": ("12.6.77", "12.6.85", "cuda_12.6.r12.6/compiler.35059454_0", 12060),
}
CUDNN = {  # release label: (full version, CUDA majors)
    "8.9.7": ("8.9.7.29", (11, 12)),
    "9.8.0": ("9.8.0.87", (12,)),
}
CUDNN_STEMS = {
    "8": ["cudnn", "cudnn_ops_infer", "cudnn_ops_train", "cudnn_cnn_infer", "cudnn_cnn_train", "cudnn_adv_infer",
          "cudnn_adv_train"],
    "9": ["cudnn", "cudnn_graph", "cudnn_ops", "cudnn_cnn", "cudnn_adv", "cudnn_engines_precompiled",
          "cudnn_engines_runtime_compiled", "cudnn_heuristic"],
}


def nvcc_script(release, nvcc_version, build):
    mm = ".".join(release.split(".")[:2])
    return f"""#!/bin/sh
# SAMPLE nvcc from cudaenv's demo mirror (.ci/sample_mirror.py): it answers
# --version as NVIDIA's nvcc {nvcc_version} does and compiles nothing.
case "$1" in
--version|-V)
    echo "nvcc: NVIDIA (R) Cuda compiler driver"
    echo "Copyright (c) 2005-2024 NVIDIA Corporation"
    echo "Cuda compilation tools, release {mm}, V{nvcc_version}"
    echo "Build {build}"
    echo "(cudaenv demo: a sample stand-in, not NVIDIA's compiler)"
    ;;
*)
    echo "nvcc: this is cudaenv's sample toolkit {release}; it compiles nothing" >&2
    exit 1
    ;;
esac
""".encode()


def tar_xz(path, top, files):
    """files: [(relative name, bytes or None for a folder, mode, link target)]"""
    with tarfile.open(path, "w:xz") as tf:
        for name, data, mode, link in files:
            info = tarfile.TarInfo(f"{top}/{name}" if name else top)
            info.mtime = 1700000000
            if link:
                info.type, info.linkname = tarfile.SYMTYPE, link
                tf.addfile(info)
            elif data is None:
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tf.addfile(info)
            else:
                info.size, info.mode = len(data), mode
                tf.addfile(info, io.BytesIO(data))


def artifact(dest, product, rel):
    path = os.path.join(dest, product, "redist", rel)
    data = open(path, "rb").read()
    return {"relative_path": rel, "sha256": hashlib.sha256(data).hexdigest(), "md5": hashlib.md5(data).hexdigest(),
            "size": str(len(data))}


def cuda_release(dest, release):
    cudart, nvcc, build, cudart_int = CUDA[release]
    major = release.split(".")[0]
    soname = "11.0" if major == "11" else major
    parts = {
        "cuda_cudart": (cudart, "CUDA Runtime (cudart)", [
            ("", None, 0, None), ("include", None, 0, None), ("lib", None, 0, None),
            ("include/cuda_runtime_api.h", f"/* {NOTE.decode().strip()} */\n#define CUDART_VERSION {cudart_int}\n".encode(),
             0o644, None),
            (f"lib/libcudart.so.{cudart}", NOTE, 0o755, None),
            (f"lib/libcudart.so.{soname}", None, 0, f"libcudart.so.{cudart}"),
            ("lib/libcudart.so", None, 0, f"libcudart.so.{soname}"),
            ("LICENSE", NOTE, 0o644, None)]),
        "cuda_nvcc": (nvcc, "CUDA NVCC", [
            ("", None, 0, None), ("bin", None, 0, None),
            ("bin/nvcc", nvcc_script(release, nvcc, build), 0o755, None),
            ("LICENSE", NOTE, 0o644, None)]),
    }
    manifest = {"release_date": "sample", "release_label": release, "release_product": "cuda"}
    for comp, (version, name, files) in parts.items():
        folder = os.path.join(dest, "cuda", "redist", comp, "linux-x86_64")
        os.makedirs(folder, exist_ok=True)
        top = f"{comp}-linux-x86_64-{version}-archive"
        tar_xz(os.path.join(folder, top + ".tar.xz"), top, files)
        manifest[comp] = {"name": name + " (cudaenv sample)", "license": "sample", "version": version,
                          "linux-x86_64": artifact(dest, "cuda", f"{comp}/linux-x86_64/{top}.tar.xz")}
    with open(os.path.join(dest, "cuda", "redist", f"redistrib_{release}.json"), "w") as f:
        json.dump(manifest, f, indent=4)


def cudnn_release(dest, label):
    version, cudas = CUDNN[label]
    major, minor, patch = version.split(".")[:3]
    header = (f"/* {NOTE.decode().strip()} */\n#define CUDNN_MAJOR {major}\n#define CUDNN_MINOR {minor}\n"
              f"#define CUDNN_PATCHLEVEL {patch}\n").encode()
    entry = {"name": "NVIDIA CUDA Deep Neural Network library (cudaenv sample)", "license": "sample",
             "version": version}
    variants = {}
    folder = os.path.join(dest, "cudnn", "redist", "cudnn", "linux-x86_64")
    os.makedirs(folder, exist_ok=True)
    for cuda in cudas:
        top = f"cudnn-linux-x86_64-{version}_cuda{cuda}-archive"
        files = [("", None, 0, None), ("include", None, 0, None), ("lib", None, 0, None),
                 ("include/cudnn_version.h", header, 0o644, None), ("LICENSE", NOTE, 0o644, None)]
        for stem in CUDNN_STEMS[major]:
            real = f"lib{stem}.so.{major}.{minor}.{patch}"
            files += [(f"lib/{real}", NOTE, 0o755, None), (f"lib/lib{stem}.so.{major}", None, 0, real),
                      (f"lib/lib{stem}.so", None, 0, f"lib{stem}.so.{major}")]
        tar_xz(os.path.join(folder, top + ".tar.xz"), top, files)
        variants[f"cuda{cuda}"] = artifact(dest, "cudnn", f"cudnn/linux-x86_64/{top}.tar.xz")
    entry["linux-x86_64"] = variants
    entry["cuda_variant"] = [str(c) for c in cudas]
    with open(os.path.join(dest, "cudnn", "redist", f"redistrib_{label}.json"), "w") as f:
        json.dump({"release_date": "sample", "release_label": label, "release_product": "cudnn", "cudnn": entry}, f,
                  indent=4)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    dest = sys.argv[1]
    shutil.rmtree(dest, ignore_errors=True)
    for r in CUDA:
        cuda_release(dest, r)
    for r in CUDNN:
        cudnn_release(dest, r)
    with open(os.path.join(dest, "README.txt"), "w") as f:
        f.write(NOTE.decode() + "A mirror in NVIDIA's redist layout with two CUDA and two cuDNN releases.\n")


if __name__ == "__main__":
    main()
