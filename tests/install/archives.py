"""Synthetic NVIDIA archives and redistrib manifests in the real layouts
(docs/install.md and docs/check.md describe them), small enough for fast tests."""
import hashlib
import io
import json
import os
import random
import tarfile
import zlib
import zipfile

CUDNN8_STEMS = ["cudnn"] + [f"cudnn_{p}_{k}" for p in ("ops", "cnn", "adv") for k in ("infer", "train")]
CUDNN9_STEMS = ["cudnn", "cudnn_graph", "cudnn_ops", "cudnn_cnn", "cudnn_adv", "cudnn_engines_precompiled",
                "cudnn_engines_runtime_compiled", "cudnn_heuristic"]


def blob(seed, size):
    """Incompressible bytes, the same for the same seed."""
    return random.Random(seed).randbytes(size)


def version_header(version):
    major, minor, patch = version.split(".")[:3]
    return (f"#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n#define CUDNN_MAJOR {major}\n"
            f"#define CUDNN_MINOR {minor}\n#define CUDNN_PATCHLEVEL {patch}\n#endif\n").encode()


class Entry:
    def __init__(self, name, data=b"", kind="file", target="", mode=0o644):
        self.name, self.data, self.kind, self.target, self.mode = name, data, kind, target, mode


def write_tar_xz(path, entries, preset=0):
    with tarfile.open(path, "w:xz", preset=preset) as tf:
        for e in entries:
            ti = tarfile.TarInfo(e.name)
            ti.mode = e.mode
            ti.mtime = 1700000000
            if e.kind == "file":
                ti.size = len(e.data)
                tf.addfile(ti, io.BytesIO(e.data))
            elif e.kind == "dir":
                ti.type, ti.mode = tarfile.DIRTYPE, 0o755
                tf.addfile(ti)
            elif e.kind == "symlink":
                ti.type, ti.linkname = tarfile.SYMTYPE, e.target
                tf.addfile(ti)
            elif e.kind == "hardlink":
                ti.type, ti.linkname = tarfile.LNKTYPE, e.target
                tf.addfile(ti)
            elif e.kind == "chardev":
                ti.type, ti.devmajor, ti.devminor = tarfile.CHRTYPE, 1, 3
                tf.addfile(ti)
            elif e.kind == "fifo":
                ti.type = tarfile.FIFOTYPE
                tf.addfile(ti)
    return path


def write_zip(path, entries, compression=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", compression) as zf:
        for e in entries:
            if e.kind == "dir":
                zf.writestr(e.name.rstrip("/") + "/", b"")
            else:
                zf.writestr(e.name, e.data)
    return path


def cudnn_linux_entries(version, cuda, header_version=None, skip=(), lib_size=4096):
    top = f"cudnn-linux-x86_64-{version}_cuda{cuda}-archive"
    major = version.split(".")[0]
    short = ".".join(version.split(".")[:3])
    stems = CUDNN8_STEMS if major == "8" else CUDNN9_STEMS
    es = [Entry(top, kind="dir"), Entry(f"{top}/include", kind="dir"), Entry(f"{top}/lib", kind="dir"),
          Entry(f"{top}/include/cudnn_version.h", version_header(header_version or version)),
          Entry(f"{top}/include/cudnn.h", b"#include \"cudnn_version.h\"\n"),
          Entry(f"{top}/LICENSE", b"cuDNN license\n")]
    for i, s in enumerate(stems):
        if s in skip:
            continue
        real = f"lib{s}.so.{short}"
        es.append(Entry(f"{top}/lib/{real}", blob(zlib.crc32((version + s).encode()), lib_size), mode=0o755))
        es.append(Entry(f"{top}/lib/lib{s}.so.{major}", kind="symlink", target=real))
        es.append(Entry(f"{top}/lib/lib{s}.so", kind="symlink", target=f"lib{s}.so.{major}"))
    return top, es


def cudnn_linux(folder, version="8.9.7.29", cuda=11, **kw):
    top, es = cudnn_linux_entries(version, cuda, **kw)
    return write_tar_xz(os.path.join(folder, top + ".tar.xz"), es)


def cudnn_windows(folder, version="8.9.7.29", cuda=11):
    top = f"cudnn-windows-x86_64-{version}_cuda{cuda}-archive"
    major = version.split(".")[0]
    stems = CUDNN8_STEMS if major == "8" else CUDNN9_STEMS
    es = [Entry(f"{top}/include/cudnn_version.h", version_header(version)), Entry(f"{top}/LICENSE", b"license\n")]
    for s in stems:
        es.append(Entry(f"{top}/bin/{s}64_{major}.dll", blob(len(s), 2048)))
        es.append(Entry(f"{top}/lib/x64/{s}.lib", blob(len(s) + 1, 512)))
    return write_zip(os.path.join(folder, top + ".zip"), es)


def cuda_component_entries(component, version, platform="linux-x86_64"):
    top = f"{component}-{platform}-{version}-archive"
    mm = version.split(".")
    es = [Entry(top, kind="dir"), Entry(f"{top}/LICENSE", f"{component} license\n".encode())]
    if component == "cuda_cudart":
        es += [Entry(f"{top}/include/cuda_runtime_api.h",
                     f"#define CUDART_VERSION {int(mm[0]) * 1000 + int(mm[1]) * 10}\n".encode()),
               Entry(f"{top}/lib/libcudart.so.{version}", blob(1, 8192), mode=0o755),
               Entry(f"{top}/lib/libcudart.so.{mm[0]}.0" if mm[0] == "11" else f"{top}/lib/libcudart.so.{mm[0]}",
                     kind="symlink", target=f"libcudart.so.{version}"),
               Entry(f"{top}/lib/libcudart_static.a", blob(2, 4096))]
    elif component == "cuda_nvcc":
        es += [Entry(f"{top}/bin/nvcc", b"#!/bin/sh\necho nvcc\n", mode=0o755),
               Entry(f"{top}/bin/ptxas", blob(3, 4096), mode=0o755),
               Entry(f"{top}/include/crt/host_config.h", b"/* host_config */\n"),
               Entry(f"{top}/nvvm/bin/cicc", blob(4, 4096), mode=0o755)]
    else:
        es += [Entry(f"{top}/include/{component}.h", f"/* {component} */\n".encode()),
               Entry(f"{top}/lib/{component}.so.{version}", blob(len(component), 4096), mode=0o755)]
    return top, es


def cuda_component(folder, component, version, platform="linux-x86_64"):
    top, es = cuda_component_entries(component, version, platform)
    return write_tar_xz(os.path.join(folder, top + ".tar.xz"), es)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def md5(path):
    with open(path, "rb") as f:
        return hashlib.md5(f.read()).hexdigest()


def artifact(mirror, product, rel):
    path = os.path.join(mirror, product, "redist", rel)
    return {"relative_path": rel, "sha256": sha256(path), "md5": md5(path),
            "size": str(os.path.getsize(path))}


def build_mirror(mirror, cuda_release="11.8.0", components=None, cudnn_version="8.9.7.29", cudnn_label="8.9.7"):
    """A mirror folder in NVIDIA's layout with manifests in the real format."""
    components = components or {"cuda_cudart": "11.8.89", "cuda_nvcc": "11.8.89", "libcublas": "11.11.3.6",
                                "cuda_documentation": "11.8.86"}
    cuda_redist = os.path.join(mirror, "cuda", "redist")
    man = {"release_date": "2022-10-03", "release_label": cuda_release, "release_product": "cuda"}
    for comp, ver in components.items():
        d = os.path.join(cuda_redist, comp, "linux-x86_64")
        os.makedirs(d, exist_ok=True)
        f = cuda_component(d, comp, ver)
        man[comp] = {"name": comp.replace("_", " "), "license": "CUDA Toolkit", "license_path": f"{comp}/LICENSE.txt",
                     "version": ver,
                     "linux-x86_64": artifact(mirror, "cuda", f"{comp}/linux-x86_64/{os.path.basename(f)}")}
    with open(os.path.join(cuda_redist, f"redistrib_{cuda_release}.json"), "w") as f:
        json.dump(man, f, indent=4)

    cudnn_redist = os.path.join(mirror, "cudnn", "redist")
    entry = {"name": "NVIDIA CUDA Deep Neural Network library", "license": "cudnn",
             "license_path": "cudnn/LICENSE.txt", "version": cudnn_version}
    plat = {}
    for cuda in (11, 12):
        d = os.path.join(cudnn_redist, "cudnn", "linux-x86_64")
        os.makedirs(d, exist_ok=True)
        f = cudnn_linux(d, cudnn_version, cuda)
        plat[f"cuda{cuda}"] = artifact(mirror, "cudnn", f"cudnn/linux-x86_64/{os.path.basename(f)}")
    entry["linux-x86_64"] = plat
    entry["cuda_variant"] = ["11", "12"]  # after the platform keys, as in 9.8.0
    d = os.path.join(cudnn_redist, "cudnn", "windows-x86_64")
    os.makedirs(d, exist_ok=True)
    f = cudnn_windows(d, cudnn_version, 11)
    entry["windows-x86_64"] = {"cuda11": artifact(mirror, "cudnn", f"cudnn/windows-x86_64/{os.path.basename(f)}")}
    with open(os.path.join(cudnn_redist, f"redistrib_{cudnn_label}.json"), "w") as f:
        json.dump({"release_date": "2024-03-15", "release_label": cudnn_label, "release_product": "cudnn",
                   "cudnn": entry}, f, indent=4)
    return mirror
