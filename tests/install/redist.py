"""A generated mirror in the exact shape of NVIDIA's redist server, for the
lock, sync, mirror and action tests and the benchmarks.

The manifests are NVIDIA's real ones (data/redistrib_*.json: CUDA 12.6.3 and
13.0.2, cuDNN 9.8.0 and 9.13.0) with the same key order, names, versions,
licenses, `cuda_variant` lists, `md5` fields and sizes as strings, and every
platform each component really has (cuda_culibos is Linux only in 13.0.2,
12.6.3 has linux-aarch64, 13.0.2 does not; cuDNN 9.8.0 has no cuda11 build
for linux-aarch64 and a "source" platform for its samples). Only the CUDA
components of cudaenv's default set are kept (17 in 12.6.3, 21 in 13.0.2);
each of their archives, and every cuDNN archive, is generated here: small
files in NVIDIA's layouts (.tar.xz on Linux, .zip on Windows, one top folder)
whose relative_path, sha256, md5 and size replace the real ones. Archives of
the kept entries that are not generated (cudnn_samples) keep NVIDIA's values.

    build(dest, scale=0)  -> dest; scale > 0 makes every archive's payload
                             `scale` times the real archive's size (benchmarks)
"""
import hashlib
import io
import json
import os
import random
import tarfile
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
CUDA_RELEASES = ("12.6.3", "13.0.2")
CUDNN_RELEASES = ("9.8.0", "9.13.0")
# cudaenv's default component set (src/install/manifest.cpp, default_cuda_components).
DEFAULT = ["cuda_cudart", "cuda_nvcc", "cuda_crt", "libnvvm", "libnvptxcompiler", "cuda_cccl", "cuda_culibos",
           "cuda_nvrtc", "cuda_cupti", "cuda_nvtx", "cuda_profiler_api", "cuda_cuobjdump", "cuda_nvdisasm",
           "cuda_nvprune", "cuda_cuxxfilt", "libcublas", "libcufft", "libcurand", "libcusolver", "libcusparse",
           "libnvjitlink", "visual_studio_integration"]
CUDNN9 = ["cudnn", "cudnn_graph", "cudnn_ops", "cudnn_cnn", "cudnn_adv", "cudnn_engines_precompiled",
          "cudnn_engines_runtime_compiled", "cudnn_heuristic"]


def payload(seed, size):
    """`size` bytes that xz packs about as well as NVIDIA's libraries (half
    random, half symbol-table-like text)."""
    if size <= 0:
        return b""
    rnd = random.Random(seed)
    words = [bytes(rnd.choice(b"abcdefghijklmnopqrstuvwxyz_0123456789") for _ in range(rnd.randint(3, 12)))
             for _ in range(512)]
    out = bytearray()
    while len(out) < size:
        if len(out) // 65536 % 2 == 0:
            out += rnd.randbytes(65536)
        else:
            chunk = bytearray()
            while len(chunk) < 65536:
                chunk += rnd.choice(words) + b"\0"
            out += chunk[:65536]
    return bytes(out[:size])


def files_for(component, version, platform, cuda_major, size):
    """(relative name, bytes, mode) of one component's archive below its top folder."""
    windows = platform.startswith("windows")
    data = payload(zlib.crc32(f"{component} {version} {platform}".encode()), size)
    lic = [("LICENSE", f"{component} license (generated for cudaenv's tests)\n".encode(), 0o644)]
    mm = version.split(".")
    if component == "cuda_cudart":
        header = f"#define CUDART_VERSION {cuda_major * 1000 + int(mm[1]) * 10}\n".encode()
        if windows:
            dll = f"bin/x64/cudart64_{cuda_major}.dll" if cuda_major >= 13 else f"bin/cudart64_{cuda_major}.dll"
            return lic + [("include/cuda_runtime_api.h", header, 0o644), (dll, data, 0o755),
                          ("lib/x64/cudart.lib", b"lib", 0o644)]
        return lic + [("include/cuda_runtime_api.h", header, 0o644), (f"lib/libcudart.so.{version}", data, 0o755),
                      (f"lib/libcudart.so.{cuda_major}", f"libcudart.so.{version}", "link")]
    if component == "cuda_nvcc":
        nvcc = (f"#!/bin/sh\necho 'Cuda compilation tools, release {mm[0]}.{mm[1]}, V{version}'\n").encode()
        return lic + [("bin/nvcc.exe" if windows else "bin/nvcc", nvcc if not windows else data, 0o755),
                      ("bin/ptxas.exe" if windows else "bin/ptxas", data[: len(data) // 2], 0o755),
                      ("include/crt/host_config.h", b"/* host_config */\n", 0o644)]
    if component == "visual_studio_integration":
        # MSBuild's CUDA build customization (Windows only); `cudaenv install`
        # puts the folder at extras\visual_studio_integration, as NVIDIA's installer does.
        ext = f"visual_studio_integration/MSBuildExtensions/CUDA {mm[0]}.{mm[1]}"
        return lic + [(ext + ".props", b"<Project />\n", 0o644), (ext + ".targets", b"<Project />\n", 0o644),
                      (ext + ".xml", b"<ProjectSchemaDefinitions />\n", 0o644)]
    lib = f"bin/{component}64_{mm[0]}.dll" if windows else f"lib/{component}.so.{version}"
    return lic + [(f"include/{component}.h", f"/* {component} {version} */\n".encode(), 0o644), (lib, data, 0o755)]


def cudnn_files(version, platform, size):
    windows = platform.startswith("windows")
    major, minor, patch = version.split(".")[:3]
    header = (f"#define CUDNN_MAJOR {major}\n#define CUDNN_MINOR {minor}\n#define CUDNN_PATCHLEVEL {patch}\n").encode()
    out = [("LICENSE", b"cuDNN license (generated for cudaenv's tests)\n", 0o644),
           ("include/cudnn_version.h", header, 0o644)]
    share = max(size // len(CUDNN9), 0)
    for i, s in enumerate(CUDNN9):
        data = payload(zlib.crc32(f"{version} {platform} {s}".encode()), share)
        if windows:
            out += [(f"bin/{s}64_{major}.dll", data, 0o755), (f"lib/x64/{s}.lib", b"lib", 0o644)]
        else:
            real = f"lib{s}.so.{major}.{minor}.{patch}"
            out += [(f"lib/{real}", data, 0o755), (f"lib/lib{s}.so.{major}", real, "link"),
                    (f"lib/lib{s}.so", f"lib{s}.so.{major}", "link")]
    return out


def write_archive(path, top, files, preset):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if path.endswith(".zip"):
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
            for name, data, mode in files:
                if mode != "link":
                    zf.writestr(f"{top}/{name}", data)
        return
    with tarfile.open(path, "w:xz", preset=preset) as tf:
        ti = tarfile.TarInfo(top)
        ti.type, ti.mode, ti.mtime = tarfile.DIRTYPE, 0o755, 1700000000
        tf.addfile(ti)
        for name, data, mode in files:
            ti = tarfile.TarInfo(f"{top}/{name}")
            ti.mtime = 1700000000
            if mode == "link":
                ti.type, ti.linkname = tarfile.SYMTYPE, data
                tf.addfile(ti)
            else:
                ti.size, ti.mode = len(data), mode
                tf.addfile(ti, io.BytesIO(data))


def artifact_of(path, rel):
    data = open(path, "rb").read()
    return {"relative_path": rel, "sha256": hashlib.sha256(data).hexdigest(), "md5": hashlib.md5(data).hexdigest(),
            "size": str(len(data))}


def top_of(rel):
    name = rel.rsplit("/", 1)[1]
    return name[: -len(".tar.xz")] if name.endswith(".tar.xz") else name[: -len(".zip")]


def build(dest, scale=0.0, cuda=CUDA_RELEASES, cudnn=CUDNN_RELEASES, preset=0):
    for release in cuda:
        real = json.load(open(os.path.join(DATA, f"redistrib_{release}.json")))
        out = {}
        for key, value in real.items():
            if not isinstance(value, dict):
                out[key] = value
                continue
            if key not in DEFAULT:
                continue
            comp = {}
            for field, entry in value.items():
                if not isinstance(entry, dict):
                    comp[field] = entry
                    continue
                rel = entry["relative_path"]
                path = os.path.join(dest, "cuda", "redist", rel)
                size = int(int(entry["size"]) * scale) if scale else 2048
                files = files_for(key, value["version"], field, int(release.split(".")[0]), size)
                write_archive(path, top_of(rel), files, preset)
                comp[field] = artifact_of(path, rel)
            out[key] = comp
        with open(os.path.join(dest, "cuda", "redist", f"redistrib_{release}.json"), "w") as f:
            json.dump(out, f, indent=4)
    for release in cudnn:
        real = json.load(open(os.path.join(DATA, f"redistrib_{release}.json")))
        version = real["cudnn"]["version"]
        for field, entry in real["cudnn"].items():
            if not isinstance(entry, dict):
                continue
            for variant, art in entry.items():
                rel = art["relative_path"]
                path = os.path.join(dest, "cudnn", "redist", rel)
                size = int(int(art["size"]) * scale) if scale else 4096
                write_archive(path, top_of(rel), cudnn_files(version, field, size), preset)
                entry[variant] = artifact_of(path, rel)
        with open(os.path.join(dest, "cudnn", "redist", f"redistrib_{release}.json"), "w") as f:
            json.dump(real, f, indent=4)
    return dest


if __name__ == "__main__":
    import sys
    build(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 0.0)
