# How regscope links LLVM and Clang (15, or 19 with -DREGSCOPE_LLVM=19).
#
# Static (REGSCOPE_STATIC_LLVM=ON, the default where Debian's llvm-15-dev and
# libclang-15-dev archives exist): only the archives of the components regscope
# calls, so the linker takes only the object files it needs. `regscope
# --version` then starts in a few milliseconds instead of the ~75 ms that the
# dynamic loader spends relocating libLLVM-15.so and libclang-cpp.so and running
# the static constructors of every LLVM component (docs/benchmarks.md).
#
# Shared (OFF): libLLVM-15.so and libclang-cpp.so, as before.
#
# The two are never mixed in one link: each would register LLVM's command-line
# options and targets a second time ("Option 'x' registered more than once").
# That is why the static link cannot use Clang's exported targets as they are:
# Debian's ClangTargets.cmake names the shared `LLVM` in each static clang
# library's INTERFACE_LINK_LIBRARIES. The archives are taken by path instead.

# The Clang libraries behind what regscope includes: clangTooling's
# CompilationDatabase (its FixedCompilationDatabase runs the driver and a
# diagnostics printer, hence Frontend and what it needs), clangDriver's option
# table, clangLex's raw lexer. They refer to each other in cycles, so they are
# linked as one group.
set(REGSCOPE_CLANG_COMPONENTS
  clangTooling clangToolingCore clangFrontend clangDriver clangParse clangSerialization clangSema clangEdit
  clangAnalysis clangASTMatchers clangAST clangAPINotes clangRewrite clangFormat clangToolingInclusions clangLex
  clangBasic clangSupport)
# The LLVM components regscope calls (Object, BinaryFormat's msgpack, Remarks,
# Option, Demangle, Support, and for the isa stage MC, MCA, the AMDGPU target's
# MC layer and DWARF) and those the Clang libraries above need. LLVM's
# exported static targets bring their own dependencies.
set(REGSCOPE_LLVM_COMPONENTS
  support demangle object binaryformat remarks option core mc mcparser bitreader bitstreamreader profiledata
  frontendopenmp windowsdriver textapi
  # the isa stage (explain, --lines): the AMDGPU assembler and MCA, DWARF line tables
  mca debuginfodwarf amdgpuasmparser amdgpudesc amdgpuinfo amdgpuutils amdgputargetmca
  # the collect stage: v_accvgpr and v_mfma counts of a code object's kernels (regscope wrap, parse)
  amdgpudisassembler)

set(_regscope_static_default OFF)
if(EXISTS "${LLVM_LIBRARY_DIR}/libLLVMSupport.a" AND EXISTS "${LLVM_LIBRARY_DIR}/libclangTooling.a")
  set(_regscope_static_default ON)
endif()
option(REGSCOPE_STATIC_LLVM
       "Link LLVM/Clang's static archives (only the components used) instead of libLLVM-N.so and libclang-cpp.so"
       ${_regscope_static_default})

function(regscope_link_llvm target)
  if(NOT REGSCOPE_STATIC_LLVM)
    target_link_libraries(${target} INTERFACE clang-cpp LLVM)
    message(STATUS "regscope: LLVM/Clang linked shared (libLLVM-${LLVM_VERSION_MAJOR}.so, libclang-cpp.so)")
    return()
  endif()
  set(_archives "")
  foreach(_lib IN LISTS REGSCOPE_CLANG_COMPONENTS)
    set(_path "${LLVM_LIBRARY_DIR}/lib${_lib}.a")
    if(NOT EXISTS "${_path}")
      message(FATAL_ERROR "REGSCOPE_STATIC_LLVM: ${_path} is missing (Debian: libclang-${LLVM_VERSION_MAJOR}-dev); "
                          "configure with -DREGSCOPE_STATIC_LLVM=OFF to link the shared libraries")
    endif()
    list(APPEND _archives "${_path}")
  endforeach()
  llvm_map_components_to_libnames(_llvm_libs ${REGSCOPE_LLVM_COMPONENTS})
  foreach(_lib IN LISTS _llvm_libs)
    if(NOT TARGET ${_lib})
      message(FATAL_ERROR "REGSCOPE_STATIC_LLVM: LLVM's CMake package has no static ${_lib}")
    endif()
  endforeach()
  target_link_libraries(${target} INTERFACE -Wl,--start-group ${_archives} -Wl,--end-group ${_llvm_libs})
  # LLVMSupport names libz3.so, which only its Z3 solver (never linked here)
  # uses: without --as-needed every start would load it.
  target_link_options(${target} INTERFACE -Wl,--as-needed)
  message(STATUS "regscope: LLVM/Clang linked static (${LLVM_LIBRARY_DIR}, only the components used)")
endfunction()
