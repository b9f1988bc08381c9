"""Real CMake (Debian's) finds the pair's toolkit with find_package(CUDAToolkit):
under `cudaenv exec` of each of two synthetic pairs, and through
`cmake --preset` from `cudaenv export cmake-presets` with no cudaenv in the
environment; both with a misleading CUDA_PATH and nvcc first on PATH. The
merge keeps a user's own presets, and a malformed file is refused untouched.
The build and test presets (issue 29.3) run `cmake --build --preset` and
`ctest --preset` under `env -i`, where neither PATH nor LD_LIBRARY_PATH has an
empty entry whether the exporting shell had LD_LIBRARY_PATH unset, empty or
set (issue 29.2); merging keeps the user's text byte for byte (big integers,
1.10, 1e-7, their indentation), and a file with a key twice (which CMake
refuses) or nested 100,000 deep (issue 28.6) is refused untouched.

CMake turns backslashes in paths from the environment into slashes, so the
folders here carry every hostile character of the shell tests but '\\'."""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from support import WEIRD_A, Checks, Pairs, empty_entry, make_toolkit  # noqa: E402
import support  # noqa: E402

PROJECT = """cmake_minimum_required(VERSION 3.18)
project(probe LANGUAGES NONE)
find_package(CUDAToolkit REQUIRED)
file(WRITE "${CMAKE_BINARY_DIR}/found.json" "{\\"version\\": \\"${CUDAToolkit_VERSION}\\"}\\n")
file(WRITE "${CMAKE_BINARY_DIR}/bin_dir.txt" "${CUDAToolkit_BIN_DIR}")
file(WRITE "${CMAKE_BINARY_DIR}/cudart.txt" "${CUDA_CUDART}")
"""


BUILD_PROJECT = """cmake_minimum_required(VERSION 3.18)
project(probe LANGUAGES NONE)
find_package(CUDAToolkit REQUIRED)
file(WRITE "${CMAKE_BINARY_DIR}/configure_env.txt"
     "PATH=$ENV{PATH}\\nLD_LIBRARY_PATH=$ENV{LD_LIBRARY_PATH}\\nCUDNN_PATH=$ENV{CUDNN_PATH}\\n")
add_custom_target(probe ALL COMMAND ${CMAKE_COMMAND} -E environment > build_env.txt)
enable_testing()
add_test(NAME pair_env COMMAND ${CMAKE_COMMAND} -E environment)
"""


def env_of(text):
    out = {}
    for line in text.split("\n"):
        if "=" in line:
            k, v = line.split("=", 1)
            out[k] = v
    return out


def build_and_test_presets(c, p, cmake):
    """Configure, build and test presets under env -i, for a caller's
    LD_LIBRARY_PATH unset, empty and set when exporting."""
    ctest = shutil.which("ctest")
    for label, ld in (("unset", None), ("empty", ""), ("set", "/usr/lib/mine")):
        proj = os.path.join(p.tmp, "project-build-" + label)
        os.makedirs(proj)
        with open(os.path.join(proj, "CMakeLists.txt"), "w") as f:
            f.write(BUILD_PROJECT)
        env = p.env()
        if ld is not None:
            env["LD_LIBRARY_PATH"] = ld
        r = p.run("export", "cmake-presets", "12.4", env=env, cwd=proj)
        c.eq(r.returncode, 0, "%s: export: %s" % (label, r.stderr))
        doc = json.load(open(os.path.join(proj, "CMakeUserPresets.json")))
        name = "cudaenv-12.4.131-cudnn9.1.0"
        for kind in ("configurePresets", "buildPresets", "testPresets"):
            c.eq([x["name"] for x in doc.get(kind, [])], [name], "%s: %s holds the pair's preset" % (label, kind))
        want = p.env_json("12.4", env=env)["set"]
        bare = ["env", "-i"]
        r = subprocess.run(bare + [cmake, "--preset", name], cwd=proj, capture_output=True, text=True)
        c.eq(r.returncode, 0, "%s: env -i cmake --preset: %s" % (label, r.stderr[-3000:]))
        build = os.path.join(proj, "build", name)
        r = subprocess.run(bare + [cmake, "--build", "--preset", name], cwd=proj, capture_output=True, text=True)
        c.eq(r.returncode, 0, "%s: env -i cmake --build --preset: %s" % (label, r.stderr[-3000:]))
        r = subprocess.run(bare + [ctest, "--preset", name, "-V"], cwd=proj, capture_output=True, text=True)
        c.eq(r.returncode, 0, "%s: env -i ctest --preset: %s" % (label, r.stderr[-3000:]))
        seen = {"configure": env_of(open(os.path.join(build, "configure_env.txt")).read()) if os.path.exists(
                    os.path.join(build, "configure_env.txt")) else {},
                "build": env_of(open(os.path.join(build, "build_env.txt")).read()) if os.path.exists(
                    os.path.join(build, "build_env.txt")) else {},
                "test": env_of("\n".join(line.split(": ", 1)[-1] for line in r.stdout.split("\n")))}
        for step, e in seen.items():
            for k in ("PATH", "LD_LIBRARY_PATH"):
                c.eq(e.get(k), want.get(k), "%s, %s: %s as `cudaenv env 12.4` gives it" % (label, step, k))
                c.true(not empty_entry(e.get(k, "")), "%s, %s: no empty entry in %s: %r" % (label, step, k, e.get(k)))
            c.eq(e.get("CUDNN_PATH"), want.get("CUDNN_PATH"), "%s, %s: CUDNN_PATH" % (label, step))


def keeps_the_users_text(c, p):
    proj = os.path.join(p.tmp, "project-text")
    os.makedirs(proj)
    presets = os.path.join(proj, "CMakeUserPresets.json")
    mine = """{
    "version": 3,
    "configurePresets": [
        {
            "name": "mine",
            "cacheVariables": {"BIG": 12345678901234567890123, "ONE_TEN": 1.10, "TINY": 1e-7}
        }
    ],
    "vendor": {"example.com/x": {"n": -0.0}}
}
"""
    with open(presets, "w") as f:
        f.write(mine)
    r = p.run("export", "cmake-presets", "11.8", cwd=proj)
    c.eq(r.returncode, 0, "export into a file with big numbers: %s" % r.stderr)
    text = open(presets).read()
    for piece in ('        {\n            "name": "mine",\n            "cacheVariables": {"BIG": 12345678901234567890123, '
                  '"ONE_TEN": 1.10, "TINY": 1e-7}\n        }', '"vendor": {"example.com/x": {"n": -0.0}}'):
        c.true(piece in text, "the user's text is kept byte for byte: %r in\n%s" % (piece, text))
    c.eq([x["name"] for x in json.loads(text)["configurePresets"]], ["mine", "cudaenv-11.8.89-cudnn8.9.7"],
         "the pair's preset after the user's")
    # A key twice: CMake refuses the file, and cudaenv keeps both lists.
    dup = '{"version": 3, "configurePresets": [{"name": "a"}], "configurePresets": [{"name": "b"}]}\n'
    with open(presets, "w") as f:
        f.write(dup)
    r = p.run("export", "cmake-presets", "11.8", cwd=proj)
    c.true(r.returncode != 0 and "twice" in r.stderr, "a duplicate key refused: %r" % r.stderr)
    c.eq(open(presets).read(), dup, "the file with a duplicate key is untouched")
    # Nested 100,000 deep: a clear error, not a crash.
    deep = '{"version": 3, "x": ' + "[" * 100000 + "]" * 100000 + "}"
    with open(presets, "w") as f:
        f.write(deep)
    r = p.run("export", "cmake-presets", "11.8", cwd=proj)
    c.eq(r.returncode, 1, "deeply nested presets: exit 1, no crash (%r)" % r.stderr[-300:])
    c.true("levels deep" in r.stderr, "the reason is given: %r" % r.stderr[-300:])
    c.eq(open(presets).read(), deep, "the deep file is untouched")


def main():
    args = support.paths("cudaenv")
    c = Checks()
    p = Pairs(args.cudaenv, base_a=WEIRD_A, base_b='张三 [x] "q" !^& $HOME', prefix="cudaenv-cmake-")
    try:
        wrong = os.path.join(p.tmp, "system cuda")
        make_toolkit(wrong, "10.2.89")
        proj = os.path.join(p.tmp, "project 工程")
        os.makedirs(proj)
        with open(os.path.join(proj, "CMakeLists.txt"), "w") as f:
            f.write(PROJECT)
        cmake = shutil.which("cmake")
        misleading = {"CUDA_PATH": wrong, "PATH": os.path.join(wrong, "bin") + ":/usr/local/bin:/usr/bin:/bin"}
        pairs = {"11.8": (p.cuda118, "11.8.89"), "12.4": (p.cuda124, "12.4.131")}

        def found(build):
            try:
                v = json.load(open(os.path.join(build, "found.json")))["version"]
                return v, open(os.path.join(build, "bin_dir.txt")).read(), open(os.path.join(build, "cudart.txt")).read()
            except OSError:
                return None, None, None

        # 1. cudaenv exec SPEC -- cmake
        for spec, (root, version) in pairs.items():
            build = os.path.join(p.tmp, "build-exec-" + spec)
            r = p.run("exec", spec, "--", cmake, "-S", proj, "-B", build, env=p.env(**misleading))
            c.eq(r.returncode, 0, "cmake under cudaenv exec %s: %s" % (spec, r.stderr[-3000:]))
            v, bindir, cudart = found(build)
            c.eq(v, version, "exec %s: CUDAToolkit_VERSION" % spec)
            c.eq(bindir, os.path.join(root, "bin"), "exec %s: CUDAToolkit_BIN_DIR" % spec)
            c.eq(cudart, os.path.join(root, "lib64", "libcudart.so"), "exec %s: CUDA_CUDART" % spec)

        # 2. cmake --preset from an exported CMakeUserPresets.json, no cudaenv around
        presets = os.path.join(proj, "CMakeUserPresets.json")
        mine = {"version": 3, "configurePresets": [{"name": "mine", "binaryDir": "${sourceDir}/build/mine",
                                                      "cacheVariables": {"X": "1"}}],
                "vendor": {"example.com/tool": {"keep": True}}}
        with open(presets, "w") as f:
            json.dump(mine, f, indent=4)
        r = p.run("export", "cmake-presets", "11.8", "12.4", cwd=proj)
        c.eq(r.returncode, 0, "export cmake-presets: %s" % r.stderr)
        first = open(presets, "rb").read()
        doc = json.loads(first)
        names = [x["name"] for x in doc["configurePresets"]]
        c.eq(names, ["mine", "cudaenv-11.8.89-cudnn8.9.7", "cudaenv-12.4.131-cudnn9.1.0"], "presets merged, mine kept first")
        c.eq(doc["configurePresets"][0], mine["configurePresets"][0], "the user's preset is untouched")
        c.eq(doc.get("vendor"), mine["vendor"], "the user's vendor map is untouched")
        r = p.run("export", "cmake-presets", "12.4", "11.8", cwd=proj)
        c.eq(open(presets, "rb").read(), first, "re-export leaves the file byte for byte")
        clean = {"HOME": p.home, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", **misleading}
        for spec, (root, version) in pairs.items():
            name = [n for n in names if n.startswith("cudaenv-" + version)][0]
            r = subprocess.run([cmake, "--preset", name], cwd=proj, env=clean, capture_output=True, text=True)
            c.eq(r.returncode, 0, "cmake --preset %s: %s" % (name, r.stderr[-3000:]))
            build = os.path.join(proj, "build", name)
            v, bindir, cudart = found(build)
            c.eq(v, version, "preset %s: CUDAToolkit_VERSION" % name)
            c.eq(bindir, os.path.join(root, "bin"), "preset %s: CUDAToolkit_BIN_DIR" % name)
            cache = open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8").read()
            c.true("CUDAToolkit_ROOT:UNINITIALIZED=" + root in cache or "CUDAToolkit_ROOT:PATH=" + root in cache
                   or "CUDAToolkit_ROOT:STRING=" + root in cache, "preset %s: CUDAToolkit_ROOT in the cache" % name)
            c.true(os.path.join(root, "bin", "nvcc") in cache, "preset %s: CMAKE_CUDA_COMPILER in the cache" % name)

        # 3. A malformed file: a clear error, the file untouched.
        broken = b'{ "version": 3, "configurePresets": [ {"name": "x",, } ] '
        with open(presets, "wb") as f:
            f.write(broken)
        r = p.run("export", "cmake-presets", "11.8", cwd=proj)
        c.true(r.returncode != 0 and "not valid JSON" in r.stderr and r.stderr.startswith("cudaenv: error:"),
               "malformed presets refused: %r" % r.stderr)
        c.eq(open(presets, "rb").read(), broken, "malformed file untouched")
        # A preset of the user's under cudaenv's name is never replaced.
        clash = {"version": 3, "configurePresets": [{"name": "cudaenv-11.8.89-cudnn8.9.7"}]}
        with open(presets, "w") as f:
            json.dump(clash, f)
        before = open(presets, "rb").read()
        r = p.run("export", "cmake-presets", "11.8", cwd=proj)
        c.true(r.returncode != 0 and "did not write" in r.stderr, "a user's preset of that name refused: %r" % r.stderr)
        c.eq(open(presets, "rb").read(), before, "clashing file untouched")
        build_and_test_presets(c, p, cmake)
        keeps_the_users_text(c, p)
    finally:
        p.finish()
    return c.done("clients_cmake")


if __name__ == "__main__":
    sys.exit(main())
