#!/usr/bin/env python3
"""Writes the mc_expr fuzz target's seeds from an LLVM 20 .s: one file per
distinct expression (comment values and .amdhsa_* directives that are not
plain numbers), each followed by every ".set NAME, EXPR" of the file as
"NAME, EXPR" lines, the format fuzz_mc_expr.cpp reads.
Usage: mc_expr_from_asm.py fixtures/llvm20/k.s tests/fuzz/seeds/mc_expr"""
import os
import re
import sys

source, out = sys.argv[1], sys.argv[2]
text = open(source).read()
sets = re.findall(r"^\s*\.set\s+([^,\s]+),\s*(.+?)\s*$", text, re.M)
expressions = re.findall(
    r"^\s*(?:; (?:NumVgprs|TotalNumVgprs|Occupancy|NumSgprs|ScratchSize): |\.amdhsa_\w+ )(.*[a-z(].*)$", text, re.M)
symbols = "".join("%s, %s\n" % pair for pair in sets)
stem = os.path.basename(os.path.dirname(source)) + "-" + os.path.basename(source)
seen = []
for expression in expressions:
    expression = expression.strip()
    if expression not in seen:
        seen.append(expression)
for i, expression in enumerate(seen):
    with open(os.path.join(out, "%s-%02d" % (stem, i)), "w") as f:
        f.write(expression + "\n" + symbols)
