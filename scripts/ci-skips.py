#!/usr/bin/env python3
"""Every skipped test of a ctest run, with its reason; fails on a skip CI must not have.

    python3 scripts/ci-skips.py build/ctest-junit.xml

Reads ctest's JUnit file (`ctest --output-junit FILE`), in which a skipped test is `status="notrun"`
with its output. A skip's reason is what the test printed: a scenario's `SKIPPED <id>: <why>` lines
(tests/scenarios/lib.sh), a `SKIP: <why>` line (a script that exits 77), or the message of a
GTEST_SKIP. Prints one line per skipped test and reason, then exits 1 when any reason is not one CI
is allowed to have (docs/testing.md, "Skips"):

  allowed   what the README's test set-up does not install, or this machine cannot have:
            NVIDIA's toolkit (nvcc, nvdisasm), a GPU, root, a toolkit other than the recorded one
  refused   everything else, in particular a tool that scripts/install-deps.sh or
            scripts/install-test-tools.sh installs (hipcc, clang-19, cmake, git, pre-commit, ocloc,
            chromium, python3, procps, util-linux's script, ccache, the SARIF Multitool, the fuzz build,
            munge and Slurm's slurmctld, slurmd and client commands)
"""
import re
import sys
import xml.etree.ElementTree as ET

# Reasons CI may skip for: the set-up does not install them, or the runner cannot have them.
ALLOWED = [
    (re.compile(r"\bnvcc\b.*\bnot installed|not installed.*\bnvcc\b"), "no NVIDIA toolkit (not in the set-up)"),
    (re.compile(r"\bnvdisasm\b"), "nvdisasm is CUDA's full toolkit (not in the set-up)"),
    (re.compile(r"recorded nvdisasm output is for"), "another nvcc than the recorded one"),
    (re.compile(r"\bno GPU\b"), "no GPU on a CI runner"),
    (re.compile(r"\bnot root\b"), "not root"),
]
# Tools the README's test set-up installs: a skip naming one is a broken set-up.
INSTALLED = re.compile(
    r"\b(hipcc|clang\+\+-1[59]|clang-1[59]|cmake|git|pre-commit|ocloc|chromium|python3|pgrep|procps|"
    r"script|ccache|SARIF Multitool|Sarif\.Multitool|fuzz build|make|g\+\+|"
    r"munged|mungekey|slurmctld|slurmd|sbatch|squeue|sinfo|scancel)\b")


def reasons(output):
    """The skip reasons a test printed."""
    found = []
    lines = output.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^SKIPPED (.*)$", line)  # a scenario's summary line
        if m:
            found.append(m.group(1))
            continue
        m = re.match(r"^SKIP: (.*)$", line)  # need(), or a script's own exit 77
        if m:
            found.append(m.group(1))
            continue
        if re.search(r": Skipped$", line):  # GTEST_SKIP: the message follows, up to [  SKIPPED ]
            message = []
            for follow in lines[i + 1:]:
                if follow.startswith("[  SKIPPED ]") or follow.startswith("["):
                    break
                message.append(follow.strip())
            text = " ".join(m for m in message if m)
            found.append(text[len("SKIP: "):] if text.startswith("SKIP: ") else text or "(GTEST_SKIP without a message)")
    unique = list(dict.fromkeys(found))  # a GTEST_SKIP message may itself start with "SKIP:"
    return unique or ["(no reason printed)"]


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    root = ET.parse(sys.argv[1]).getroot()
    skipped = [tc for tc in root.iter("testcase") if tc.get("status") == "notrun"]
    refused = []
    print(f"ci-skips: {len(skipped)} skipped test(s)")
    for tc in skipped:
        out = tc.findtext("system-out") or ""
        for why in reasons(out):
            allowed = next((label for rx, label in ALLOWED if rx.search(why)), None)
            verdict = f"allowed: {allowed}" if allowed else "REFUSED"
            print(f"  {tc.get('name')}: {why}  [{verdict}]")
            if not allowed:
                refused.append((tc.get("name"), why))
    if refused:
        print(f"ci-skips: {len(refused)} skip(s) CI must not have:")
        for name, why in refused:
            tool = INSTALLED.search(why)
            cause = (f"'{tool.group(1)}' is installed by the README's test set-up "
                     "(scripts/install-deps.sh, scripts/install-test-tools.sh)" if tool
                     else "not a reason CI may skip for (docs/testing.md, Skips)")
            print(f"  FAIL {name}: {why}: {cause}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
