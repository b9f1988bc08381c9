"""What the tree lints share (lint_docs, lint_layers, lint_platform): the
command line `[--root DIR] [--self-test]` (and `--cudaenv BIN` for a lint
that asks the built binary), one finding a line, exit 1 when any is found."""
import argparse
import os

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def main(doc, check, self_test, name, needs_cudaenv=False):
    """check(root[, cudaenv]) -> findings; self_test([cudaenv]) -> exit status."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    if needs_cudaenv:
        ap.add_argument("--cudaenv", required=True, help="the built cudaenv, asked for its commands and options")
    ap.add_argument("--root", default=ROOT, help="the tree to check (default: this checkout)")
    ap.add_argument("--self-test", action="store_true", help="check the checker on planted trees")
    args = ap.parse_args()
    binary = [args.cudaenv] if needs_cudaenv else []
    if args.self_test:
        return self_test(*binary)
    findings = check(args.root, *binary)
    for f in findings:
        print(f)
    print("%s: %d finding(s)" % (name, len(findings)))
    return 1 if findings else 0
