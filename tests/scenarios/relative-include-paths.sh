#!/bin/bash
# Path-bearing compiler flags must mean what they mean from the user's cwd
# (and, in .regscope.json, from the config file's directory). The project: a two-file stream benchmark
# laid out like BabelStream's HIP model, src/hip/HIPStream.cpp including "Stream.h" from src/.
. "$(dirname "$0")/lib.sh"; need hipcc; scratch
stream_project proj; cd proj
ok() { # ID WHAT ARGS...: analyze must succeed and report the project's kernels
  local id=$1 what=$2; shift 2
  rs r "$@"
  if [ "$(rc r)" = 0 ] && grep -q 'copy_kernel' r.out; then pass "$id" "$what"; else fail "$id" "$what: $(seen r)"; fi
}
ok_gate() { # gate passes (a generous rule, so the gate has one)
  local id=$1 what=$2; shift 2
  rs r "$@" --max-spills 100000
  if [ "$(rc r)" = 0 ]; then pass "$id" "$what"; else fail "$id" "$what: $(seen r)"; fi
}
F=src/hip/HIPStream.cpp
# control: an absolute include path; if this fails, the other lines mean nothing.
ok incpath-ctl 'control: -I with an absolute path' analyze $F -- "${STREAM_FLAGS[@]}" -I "$PWD/src"
ok incpath-01 '-I src (separate)'              analyze $F -- "${STREAM_FLAGS[@]}" -I src
ok incpath-02 '-Isrc'                          analyze $F -- "${STREAM_FLAGS[@]}" -Isrc
ok incpath-03 '-I./src'                        analyze $F -- "${STREAM_FLAGS[@]}" -I./src
ok incpath-04 '-iquote src'                    analyze $F -- "${STREAM_FLAGS[@]}" -iquote src
ok incpath-05 '-isystem src'                   analyze $F -- "${STREAM_FLAGS[@]}" -isystem src
ok incpath-06 '--include-directory=src'        analyze $F -- "${STREAM_FLAGS[@]}" --include-directory=src
# -include / -imacros name a file: a header of the user's that the kernel needs (defines a macro).
mkdir -p include && printf '#pragma once\n#define RS_FROM_FORCED_INCLUDE 1\n' > include/forced.h
printf '#include <hip/hip_runtime.h>\n#ifndef RS_FROM_FORCED_INCLUDE\n#error forced header not seen\n#endif\n__global__ void copy_kernel(float *a) { a[threadIdx.x] += 1.0f; }\n' > src/k.hip
ok incpath-07 '-include include/forced.h'      analyze src/k.hip -- -include include/forced.h
ok incpath-08 '-imacros include/forced.h'      analyze src/k.hip -- -imacros include/forced.h
# a response file, itself named relative to the cwd, holding a relative -I
printf -- '-I src %s\n' "${STREAM_FLAGS[*]}" > flags.rsp
ok incpath-09 '@flags.rsp (with -I src inside)' analyze $F -- @flags.rsp
# from a sub-directory: the flag is relative to that sub-directory
( cd src/hip && ok incpath-10 '-I .. from src/hip' analyze HIPStream.cpp -- "${STREAM_FLAGS[@]}" -I .. )
# docs/gate.md's .regscope.json example: compiler_flags relative to the config file's directory,
# used by analyze and by gate, from the root and from a sub-directory.
python3 -c "import json,sys; print(json.dumps({'version': 1, 'compiler_flags': sys.argv[1:] + ['-I', 'src']}))" "${STREAM_FLAGS[@]}" > .regscope.json
ok_gate incpath-11 '.regscope.json -I src, gate from the root'   gate $F
( cd src/hip && ok_gate incpath-12 '.regscope.json -I src, gate from src/hip' gate HIPStream.cpp )
ok incpath-13 '.regscope.json -I src, analyze from the root' analyze $F
