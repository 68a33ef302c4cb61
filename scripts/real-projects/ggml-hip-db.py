#!/usr/bin/env python3
# ggml's HIP backend as CMake's HIP language would compile it (-DGGML_HIP=ON, defaults), written by hand
# because CMake cannot configure it here (find_package(hip) needs ROCm >= 6.1, hipblas, rocblas), for
# docs/real-projects.md. Usage: ggml-hip-db.py GGML_ROOT [ARCH]: writes GGML_ROOT/build/compile_commands.json
import glob, json, os, sys
root = os.path.abspath(sys.argv[1]); arch = sys.argv[2] if len(sys.argv) > 2 else 'gfx90a'
src = root + '/src'; build = root + '/build/src/ggml-hip'
ti = src + '/ggml-cuda/template-instances/'
files = sorted(glob.glob(src + '/ggml-cuda/*.cu'))
for pat in ['fattn-tile*.cu', 'fattn-mma*.cu', 'mmq*.cu', 'mmf*.cu']:
    files += sorted(glob.glob(ti + pat))
files += [ti + f for f in ['fattn-vec-instance-f16-f16.cu', 'fattn-vec-instance-q4_0-q4_0.cu',
                           'fattn-vec-instance-q8_0-q8_0.cu', 'fattn-vec-instance-bf16-bf16.cu']]
defs = ['-DGGML_BACKEND_BUILD', '-DGGML_BACKEND_SHARED', '-DGGML_SCHED_MAX_COPIES=4', '-DGGML_SHARED',
        '-DGGML_USE_HIP', '-DGGML_HIP_GRAPHS', '-DGGML_HIP_NO_VMM', '-D_GNU_SOURCE', '-D_XOPEN_SOURCE=600',
        '-D__HIP_PLATFORM_AMD__=1', '-D__HIP_ROCclr__=1', '-Dggml_hip_EXPORTS']
incs = ['-I' + src + '/ggml-hip/..', '-I' + src + '/../include']
entries = []
for f in files:
    obj = 'CMakeFiles/ggml-hip.dir/' + os.path.relpath(f, src + '/ggml-hip') .replace('../', '__/') + '.o'
    entries.append({'directory': build, 'file': f,
                    'arguments': ['/usr/bin/clang++-15'] + defs + incs + ['-O3', '-DNDEBUG', '-std=gnu++17',
                                  '--offload-arch=' + arch, '-fPIC', '-x', 'hip', '-o', obj, '-c', f]})
os.makedirs(build, exist_ok=True)
json.dump(entries, open(root + '/build/compile_commands.json', 'w'), indent=1)
print(len(entries), 'entries')
