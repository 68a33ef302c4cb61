#!/bin/bash
# Every failing input is reported (stderr), and failed inputs appear in JSON (errors),
# SARIF (toolExecutionNotifications), JUnit (an errored test case) and markdown.
. "$(dirname "$0")/lib.sh"; need hipcc; scratch
printf '#include <hip/hip_runtime.h>\n__global__ void ka(int *p) { p[0] = undefined_a; }\n' > broken.hip
printf '#include <hip/hip_runtime.h>\n__global__ void kb(int *p) { p[0] = undefined_b; }\n' > broken2.hip
lbm_src > lbm.hip
rs a analyze broken.hip broken2.hip
if [ "$(rc a)" = 2 ] && grep -q 'broken\.hip' a.err && grep -q 'broken2\.hip' a.err; then pass failed-01 "both failing inputs reported on stderr"
else fail failed-01 "analyze broken.hip broken2.hip: exit $(rc a), stderr names: $(grep -o 'broken2\?\.hip' a.err | sort -u | tr '\n' ' ')"; fi
both() { grep -q 'broken\.hip' "$1" && grep -q 'broken2\.hip' "$1"; }
rs j analyze broken.hip broken2.hip lbm.hip --format json -o r.json
if [ -f r.json ] && python3 -c "
import json,sys; d=json.load(open('r.json')); e=d.get('errors')
sys.exit(0 if isinstance(e, list) and len(e) >= 2 and 'broken.hip' in json.dumps(e) and 'broken2.hip' in json.dumps(e) and d['kernels'] else 1)"
then pass failed-02 "JSON has an errors array naming both inputs (and the good file's kernels)"
else fail failed-02 "JSON: errors = $(jget r.json "d.get('errors')" 2>/dev/null | cut -c1-100) (exit $(rc j))"; fi
rs s analyze broken.hip broken2.hip lbm.hip --format sarif -o r.sarif
if [ -f r.sarif ] && python3 -c "
import json,sys; d=json.load(open('r.sarif'))
n=[x for inv in d['runs'][0].get('invocations', []) for x in inv.get('toolExecutionNotifications', [])]
sys.exit(0 if len(n) >= 2 and 'broken.hip' in json.dumps(n) and 'broken2.hip' in json.dumps(n) else 1)"
then pass failed-03 "SARIF toolExecutionNotifications name both inputs"
else fail failed-03 "SARIF: no toolExecutionNotifications for the failed inputs (exit $(rc s))"; fi
rs u analyze broken.hip broken2.hip lbm.hip --format junit -o r.xml
if [ -f r.xml ] && python3 -c "
import sys, xml.etree.ElementTree as ET
t=ET.parse('r.xml'); errs=[tc for tc in t.iter('testcase') if tc.find('error') is not None]
s=' '.join(ET.tostring(tc, encoding='unicode') for tc in errs)
sys.exit(0 if len(errs) >= 2 and 'broken.hip' in s and 'broken2.hip' in s else 1)"
then pass failed-04 "JUnit has an errored test case per failed input"
else fail failed-04 "JUnit: no errored test cases for the failed inputs (exit $(rc u))"; fi
rs m analyze broken.hip broken2.hip lbm.hip --format markdown -o r.md
if [ -f r.md ] && both r.md; then pass failed-05 "markdown names both failed inputs"
else fail failed-05 "markdown does not name the failed inputs (exit $(rc m))"; fi
rs k analyze broken.hip broken2.hip --format json -o only.json
if [ -f only.json ] && python3 -c "
import json,sys; d=json.load(open('only.json')); sys.exit(0 if len(d.get('errors', [])) >= 2 else 1)"
then pass failed-06 "all inputs failing: the JSON report is still written, with both errors"
else fail failed-06 "all inputs failing: $( [ -f only.json ] && echo 'JSON without both errors' || echo 'no JSON report written') (exit $(rc k))"; fi
