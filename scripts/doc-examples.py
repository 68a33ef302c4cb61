#!/usr/bin/env python3
"""Run the examples in README.md and docs/*.md and compare what they print (doc tests, issue 32).

An example is a fenced block opened with ```console. In it, a line that begins with "$ " is a
command; the lines under it, up to the next "$ " line or the block's end, are what it prints
(stdout and stderr together, as a terminal shows them). A command that exits non-zero ends its
output with a line "[exit N]", so the exit code is checked too. Commands run with bash, one scratch
directory per block (a copy of kernels/ and fixtures/, so the paths are the repository-relative ones
and files an example writes go nowhere else), `regscope` first on PATH, and a fixed environment:
COLUMNS=100, NO_COLOR=1, TERM=dumb, a private XDG_CACHE_HOME, CI/PRE_COMMIT/GITHUB_ACTIONS unset.

The comparison is exact, with one normalisation: the scratch directory's absolute path is written
`<repo>` (it differs on each run); nothing else is rewritten, so a changed figure fails.

  doc-examples.py --binary build/regscope [--root DIR] [--update] [FILE.md ...]

--update rewrites each block's output lines from the current binary (scripts/update-doc-examples.sh).
Exit: 0 all equal, 1 an example differs (a diff is printed), 2 usage error, 77 skipped (no hipcc or
ocloc: examples compile with them, and the README's set-up installs both).
"""
import argparse
import difflib
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE_OPEN = re.compile(r"^```console\s*$")
FENCE_CLOSE = re.compile(r"^```\s*$")
COMMAND_TIMEOUT_S = 300


def find_blocks(lines):
    """Yields (first_line, last_line) of each console block's body (0-based, last exclusive)."""
    i = 0
    while i < len(lines):
        if FENCE_OPEN.match(lines[i]):
            j = i + 1
            while j < len(lines) and not FENCE_CLOSE.match(lines[j]):
                j += 1
            yield i + 1, j
            i = j + 1
        else:
            i += 1


def split_commands(body):
    """[(command, [expected output lines])] of one block's body."""
    steps = []
    for line in body:
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
        else:
            raise ValueError("a console block must begin with a '$ ' command line")
    return steps


def make_scratch(root, tmp):
    scratch = tempfile.mkdtemp(prefix="example-", dir=tmp)
    for part in ("kernels", "fixtures"):
        shutil.copytree(os.path.join(root, part), os.path.join(scratch, part), symlinks=True)
    return scratch


def run(command, scratch, env):
    proc = subprocess.run(["bash", "-c", command], cwd=scratch, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=COMMAND_TIMEOUT_S)
    text = proc.stdout.decode("utf-8", "replace").replace(scratch, "<repo>")
    out = text.split("\n")
    if out and out[-1] == "":
        out.pop()
    if proc.returncode != 0:
        out.append(f"[exit {proc.returncode}]")
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--root", default=os.getcwd())
    parser.add_argument("--update", action="store_true")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        print(f"doc-examples: no regscope binary at {binary}", file=sys.stderr)
        return 2
    files = args.files or [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    for compiler in ("hipcc", "ocloc"):
        if shutil.which(compiler) is None:
            # "SKIP: " is the form scripts/ci-skips.py reads; both are in the set-up, so CI refuses this skip.
            print(f"SKIP: {compiler} is not on PATH (examples compile with it; scripts/install-deps.sh installs it)")
            return 77

    failures = 0
    examples = 0
    with tempfile.TemporaryDirectory(prefix="regscope-doc-examples-") as tmp:
        bindir = os.path.join(tmp, "bin")
        os.mkdir(bindir)
        os.symlink(binary, os.path.join(bindir, "regscope"))
        env = {k: v for k, v in os.environ.items() if k not in ("CI", "PRE_COMMIT", "GITHUB_ACTIONS")}
        env.update(PATH=bindir + os.pathsep + os.environ.get("PATH", ""), COLUMNS="100", NO_COLOR="1",
                   TERM="dumb", XDG_CACHE_HOME=os.path.join(tmp, "cache"), TMPDIR=tmp, LC_ALL="C.UTF-8")
        for path in files:
            with open(path, encoding="utf-8") as f:
                lines = f.read().split("\n")
            rel = os.path.relpath(path, root)
            new_lines = list(lines)
            offset = 0
            for first, last in find_blocks(lines):
                try:
                    steps = split_commands(lines[first:last])
                except ValueError as e:
                    print(f"{rel}:{first}: {e}")
                    failures += 1
                    continue
                scratch = make_scratch(root, tmp)
                env["REGSCOPE_KERNELS_DIR"] = os.path.join(scratch, "kernels")
                body = []
                for command, expected in steps:
                    examples += 1
                    actual = run(command, scratch, env)
                    body.append("$ " + command)
                    body.extend(actual)
                    if actual != expected:
                        if not args.update:
                            failures += 1
                            print(f"{rel}:{first + 1}: '$ {command}' printed something else:")
                            sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(
                                expected, actual, "documented", "printed", lineterm="", n=2))
                shutil.rmtree(scratch)
                new_lines[first + offset:last + offset] = body
                offset += len(body) - (last - first)
            if args.update and new_lines != lines:
                with open(path, "w", encoding="utf-8") as f:
                    f.write("\n".join(new_lines))
                print(f"doc-examples: rewrote {rel}")
    if args.update:
        print(f"doc-examples: {examples} examples run, outputs written")
        return 0
    print(f"doc-examples: {examples} examples run, {failures} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
