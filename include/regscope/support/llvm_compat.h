// The LLVM API differences between the two LLVMs regscope can link (CMake's
// REGSCOPE_LLVM: 15, or 19) that more than one file meets, each written once.
// A difference only one file meets stays in that file, under
// `#if LLVM_VERSION_MAJOR`, with a comment saying what changed.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Config/llvm-config.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace regscope {

// StringRef's prefix and suffix tests: LLVM 15 spells them startswith/endswith,
// LLVM 19 only starts_with/ends_with. These work with both, with no version test.
inline bool startsWith(llvm::StringRef s, llvm::StringRef prefix) { return s.take_front(prefix.size()) == prefix; }
inline bool endsWith(llvm::StringRef s, llvm::StringRef suffix) { return s.take_back(suffix.size()) == suffix; }

// An ELF note's descriptor (`note` from ELFFile::notes(section)). LLVM 17 made
// the caller give the alignment the note's name is padded to: the section's, at
// least 4, as LLVM's note iterator takes it. LLVM 15 always pads to 4, which is
// what AMDGPU's and Intel's 4-aligned notes use.
template <typename Note, typename SectionHeader>
llvm::ArrayRef<std::uint8_t> noteDesc(const Note &note, const SectionHeader &section) {
#if LLVM_VERSION_MAJOR >= 17
  return note.getDesc(std::max<std::size_t>(section.sh_addralign, 4));
#else
  (void)section;
  return note.getDesc();
#endif
}

}  // namespace regscope
