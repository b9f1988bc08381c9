"""`cudaenv export msbuild` read back by MSBuild itself: `dotnet msbuild
-getProperty:CudaToolkitCustomDir` on an SDK-style project below the folder
the Directory.Build.props was written into (MSBuild imports it by itself),
for toolkits in folders named with MSBuild's and XML's special characters
($, %, ', &, ", [...]) and non-ASCII. The file is merged: the user's own
properties and every byte outside cudaenv's block stay; a file cudaenv cannot
place its block in is left as it was."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from support import Checks, Pairs  # noqa: E402
import support  # noqa: E402

PROJECT = """<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup>
</Project>
"""

USER_PROPS = ("<Project>\r\n  <PropertyGroup>\r\n    <MyOwn>kept &amp; sound</MyOwn>\r\n  </PropertyGroup>\r\n"
              "</Project>\r\n")


def main():
    args = support.paths("cudaenv", "dotnet")
    c = Checks()
    p = Pairs(args.cudaenv, prefix="cudaenv-msbuild-")
    try:
        repo = os.path.join(p.tmp, "repo")
        os.makedirs(os.path.join(repo, "app"))
        with open(os.path.join(repo, "app", "app.csproj"), "w") as f:
            f.write(PROJECT)
        denv = dict(os.environ, DOTNET_CLI_TELEMETRY_OPTOUT="1", DOTNET_NOLOGO="1",
                    DOTNET_SKIP_FIRST_TIME_EXPERIENCE="1", MSBUILDDISABLENODEREUSE="1")

        def msbuild(*props):
            cmd = [args.dotnet, "msbuild", os.path.join(repo, "app", "app.csproj"), "-nologo", "-nodeReuse:false"]
            cmd += ["-getProperty:" + n for n in props]
            r = subprocess.run(cmd, capture_output=True, text=True, env=denv, timeout=300)
            if r.returncode != 0:
                c.true(False, "dotnet msbuild failed: %s %s" % (r.stdout, r.stderr))
                return {}
            return json.loads(r.stdout)["Properties"]

        props = os.path.join(repo, "Directory.Build.props")
        for spec, root in (("11.8", p.cuda118), ("12.4", p.cuda124)):
            r = p.run("export", "msbuild", spec, "-o", repo)
            c.eq(r.returncode, 0, "export msbuild %s: %s" % (spec, r.stderr))
            got = msbuild("CudaToolkitCustomDir", "CudaenvBuildCustomizations")
            c.eq(got.get("CudaToolkitCustomDir"), root + "/", "MSBuild reads the pair's toolkit (%s)" % spec)
            c.eq(got.get("CudaenvBuildCustomizations"),
                 root + "/extras/visual_studio_integration/MSBuildExtensions/", "and its build customization folder")
        text = open(props, encoding="utf-8").read()
        c.eq(text.count("<CudaToolkitCustomDir>"), 1, "one block, rewritten in place")

        # Merged into the user's file (CRLF): their property stays, and their bytes.
        with open(props, "w", newline="") as f:
            f.write(USER_PROPS)
        r = p.run("export", "msbuild", "11.8", "-o", props)
        c.eq(r.returncode, 0, "export into the user's file: %s" % r.stderr)
        got = msbuild("CudaToolkitCustomDir", "MyOwn")
        c.eq(got, {"CudaToolkitCustomDir": p.cuda118 + "/", "MyOwn": "kept & sound"}, "both read back")
        merged = open(props, "rb").read()
        c.true(merged.startswith(USER_PROPS[:-len("</Project>\r\n")].encode()), "the user's bytes before the block stay")
        c.true(merged.endswith(b"<!-- <<< cudaenv export <<< -->\r\n</Project>\r\n"), "the block before </Project>, CRLF")
        c.true(b"\n" not in merged.replace(b"\r\n", b""), "no bare LF added")
        r = p.run("export", "msbuild", "11.8", "-o", props)
        c.eq(open(props, "rb").read(), merged, "the same export again: the same bytes")

        # A file cudaenv cannot place its block in is left alone.
        odd = "<Project Sdk=\"x\"/>\n"
        with open(props, "w") as f:
            f.write(odd)
        r = p.run("export", "msbuild", "12.4", "-o", props)
        c.eq(r.returncode, 1, "no </Project>: refused")
        c.true(r.stderr.startswith("cudaenv: error: ") and "</Project>" in r.stderr, "says why: %s" % r.stderr)
        c.eq(open(props).read(), odd, "left as it was")
        r = p.run("export", "msbuild", "11.8", "12.4", "-o", repo)
        c.eq(r.returncode, 2, "two pairs: a usage error")
    finally:
        p.finish()
    return c.done("msbuild")


if __name__ == "__main__":
    sys.exit(main())
