#!/usr/bin/env python3
"""Every relative link in README.md and docs/*.md names a file that exists, and every #anchor a
heading of that file (GitHub's anchors: lower case, punctuation but '-' and '_' dropped, spaces to
'-'). Moving README's sections into docs/ (issue 32) must not leave a link dangling.

  check-doc-links.py [--root DIR]      exit 0: all resolve; 1: the dangling ones are listed
"""
import argparse
import glob
import os
import re
import sys

LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~)")


def anchors(path):
    found, seen, in_code = set(), {}, False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if FENCE.match(line):
                in_code = not in_code
            if in_code or not line.startswith("#"):
                continue
            title = line.lstrip("#").strip()
            slug = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=os.getcwd())
    root = os.path.abspath(parser.parse_args().root)
    pages = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    bad = 0
    for page in pages:
        in_code = False
        with open(page, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if FENCE.match(line):
                    in_code = not in_code
                if in_code:
                    continue
                for target in LINK.findall(line):
                    if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
                        continue
                    path, _, anchor = target.partition("#")
                    file = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
                    where = f"{os.path.relpath(page, root)}:{number}"
                    if not os.path.exists(file):
                        print(f"{where}: {target}: no such file")
                        bad += 1
                    elif anchor and file.endswith(".md") and anchor not in anchors(file):
                        print(f"{where}: {target}: no heading with that anchor in {os.path.relpath(file, root)}")
                        bad += 1
    print(f"check-doc-links: {len(pages)} pages, {bad} dangling links")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
