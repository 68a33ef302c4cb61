#!/bin/bash
# Plain clang compiles device code at -O0 when no -O is given. A user expects the
# figures of an optimised build; an explicit -O0 is honoured and said in a note. The CMake case: a HIP
# project with an include/ folder configured without a build type, analysed through its compile database.
. "$(dirname "$0")/lib.sh"; need "$LLVM19" cmake /usr/bin/clang++-15; scratch
lbm_src > lbm.hip      # the seed's LBM kernel
figs() { jget "$1" "' '.join('%s:%s/%s/%s/%s' % (k['arch'], k['vgprs'], k['vgpr_spills'], k['sgpr_spills'], k['scratch_bytes']) for k in d['kernels'])"; }
rs o3 analyze lbm.hip --compiler "$LLVM19" --format json -- -O3
rs def analyze lbm.hip --compiler "$LLVM19" --format json
if [ "$(rc o3)" != 0 ]; then fail optlevel-01 "control run with -O3 failed: $(seen o3)"
elif [ "$(rc def)" != 0 ]; then fail optlevel-01 "no -O: $(seen def)"
else
  a=$(figs o3.out); b=$(figs def.out)
  [ "$a" = "$b" ] && pass optlevel-01 "clang 19 without -O gives the -O3 figures ($b arch:vgprs/vspill/sspill/scratch)" \
                  || fail optlevel-01 "clang 19 without -O: $b; with -O3: $a (arch:vgprs/vgpr-spills/sgpr-spills/scratch)"
fi
# An explicit -O0 is the user's choice: figures of -O0, and a note that says so.
rs o0 analyze lbm.hip --compiler "$LLVM19" -- -O0
if [ "$(rc o0)" = 0 ] && grep -qiE -- '-O0|unoptimi[sz]ed|not optimi[sz]ed' o0.out o0.err; then
  pass optlevel-02 "explicit -O0 is noted"
else fail optlevel-02 "explicit -O0: no note that the compile was unoptimised ($(seen o0))"; fi

# A CMake HIP project (include/matmul.hpp, src/matmul.hip) configured with and without a build type.
# The toolchain file is what CMake 3.25's HIP support needs on Debian 12's ROCm 5.2 (clang 15): ROCm's
# CMake files live in the multiarch directory, reached through a rocm-root/lib/cmake link.
mkdir -p mm/include mm/src rocm-root/lib && ln -s /usr/lib/x86_64-linux-gnu/cmake rocm-root/lib/cmake
matmul_header > mm/include/matmul.hpp; matmul_src > mm/src/matmul.hip
cat > mm/CMakeLists.txt <<'C'
cmake_minimum_required(VERSION 3.21)
project(matmul LANGUAGES HIP)
set(CMAKE_HIP_STANDARD 17)
add_library(matmul OBJECT src/matmul.hip)
target_include_directories(matmul PRIVATE include)
C
cat > debian-hip.cmake <<C
set(CMAKE_HIP_COMPILER /usr/bin/clang++-15)
set(CMAKE_HIP_COMPILER_ROCM_ROOT $PWD/rocm-root)
set(CMAKE_HIP_FLAGS_INIT "--rocm-path=/usr --rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode")
set(CMAKE_HIP_ARCHITECTURES gfx90a)
list(APPEND CMAKE_PREFIX_PATH /usr/lib/x86_64-linux-gnu/cmake)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON CACHE BOOL "")
execute_process(COMMAND /usr/bin/clang++-15 -print-resource-dir OUTPUT_VARIABLE _rd OUTPUT_STRIP_TRAILING_WHITESPACE)
set(HIP_CLANG_INCLUDE_PATH \${_rd}/include CACHE PATH "")
C
cmake -S mm -B build-none -DCMAKE_TOOLCHAIN_FILE=$PWD/debian-hip.cmake > cfg1.log 2>&1 &&
cmake -S mm -B build-rel -DCMAKE_BUILD_TYPE=Release -DCMAKE_TOOLCHAIN_FILE=$PWD/debian-hip.cmake > cfg2.log 2>&1
if [ ! -f build-none/compile_commands.json ] || [ ! -f build-rel/compile_commands.json ]; then
  fail optlevel-03-ctl "could not configure the CMake project: $(tail -2 cfg1.log cfg2.log | tr '\n' ' ')"
elif grep -q -- '-O[0-9s]' build-none/compile_commands.json; then
  fail optlevel-03-ctl "the database without a build type has an -O flag: the scenario does not test what it should"
else
  rs none analyze -p build-none --format json
  rs rel analyze -p build-rel --format json
  if [ "$(rc rel)" != 0 ]; then fail optlevel-03 "Release build: $(seen rel)"
  elif [ "$(rc none)" != 0 ]; then fail optlevel-03 "no build type: $(seen none)"
  else a=$(figs rel.out); b=$(figs none.out)
    [ "$a" = "$b" ] && pass optlevel-03 "CMake without build type gives the Release figures ($b)" \
                    || fail optlevel-03 "CMake build without build type: $b; Release: $a (arch:vgprs/vgpr-spills/sgpr-spills/scratch)"
  fi
fi

# collect reads the build's own compile: without a build type, clang compiles device code at -O0.
# collect says so, analyze -p says it added -O3; each in the text and in JSON's optimisation.
if [ -f build-none/compile_commands.json ]; then
  cmake -S mm -B build-wrap -DCMAKE_TOOLCHAIN_FILE=$PWD/debian-hip.cmake "-DCMAKE_HIP_COMPILER_LAUNCHER=$R;wrap;--" \
    > cfg3.log 2>&1 && cmake --build build-wrap > build3.log 2>&1
  rs col collect build-wrap --format json
  rs colt collect build-wrap
  rs ap analyze -p build-wrap --format json
  if [ "$(rc col)" != 0 ] || [ "$(rc ap)" != 0 ]; then
    fail optlevel-04 "collect / analyze -p of the wrapped build: $(seen col) / $(seen ap)"
  else
    c=$(jget col.out "'%s/%s' % (d['kernels'][0]['optimisation']['level'], d['kernels'][0]['optimisation']['source'])")
    a=$(jget ap.out "'%s/%s' % (d['kernels'][0]['optimisation']['level'], d['kernels'][0]['optimisation']['source'])")
    if [ "$c" = "-O0/compiler_default" ] && [ "$a" = "-O3/regscope" ] && grep -q 'figures at -O0' colt.out; then
      pass optlevel-04 "collect says the build's -O0 ($c), analyze -p its own -O3 ($a)"
    else fail optlevel-04 "collect: $c, analyze -p: $a (expected -O0/compiler_default and -O3/regscope); text: $(grep -i 'figures at' colt.out)"; fi
  fi
fi
