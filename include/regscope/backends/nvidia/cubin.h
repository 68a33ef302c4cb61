// NVIDIA device code read without a compiler: a cubin (the ELF ptxas writes,
// e_machine EM_CUDA), a fatbin (0xBA55ED50: cubins and PTX for several archs),
// or a host object or executable that carries fatbins in its .nv_fatbin or
// __nv_relfatbin section. Per kernel: registers, stack, static shared memory,
// constant bank 0, barriers and the launch bounds the .nv.info attributes
// record, and the arch from the ELF header (docs/cubin.md says where each
// figure is and how it was checked against cuobjdump and the CUDA driver).
//
// Lives in the collect stage's library until the backends split lands.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "regscope/collect/kernel_record.h"

namespace regscope {

// One device image (cubin) found in a binary.
struct Cubin {
  std::string arch;          // "sm_90"; "sm_90a" where the header says so (CUDA 12's v1 flags; CUDA 13's v2 do not)
  std::string producer;      // "Cuda compilation tools, release 13.0, V13.0.88" (.note.nv.tkinfo); may be empty
  bool relocatable = false;  // ET_REL: -rdc device code, figures from before the device link
  int abi_version = 0;       // EI_ABIVERSION: 7 (CUDA 12 and older), 8 (CUDA 13)
  FactSet facts;             // source "cubin"; one KernelFacts per entry function, is_kernel false for others
  // The cubin's bytes (for nvdisasm): inside the input given to readNvidiaBinary, or in `decompressed`
  // when its fatbin entry was compressed and the images were asked for; empty when they were not.
  std::string_view image;
  std::shared_ptr<const std::string> decompressed;
};

// What a binary held: the cubins read, and what was seen but not read (PTX
// entries, entries that are no cubin), said in words for the user.
struct NvidiaBinary {
  std::vector<Cubin> cubins;
  std::vector<std::string> notes;
  std::size_t decompressed_cubins = 0;  // cubin entries that were compressed (zstd or LZ4), decompressed and read
  std::size_t unreadable_cubins = 0;    // cubin entries that are no ELF image: unknown, not guessed
  std::size_t ptx_entries = 0;
};

// Whether `bytes` is NVIDIA device code or a host ELF that carries some (and
// no AMD .hip_fatbin): a cheap look at the header and the section names. A
// file this says no to is read as before (AMD code objects and the rest).
bool isNvidiaBinary(std::string_view bytes);

// Whether `bytes` is a host ELF holding an NVIDIA fatbin section beside an AMD
// .hip_fatbin: both vendors' device code, each read by its own reader.
bool holdsNvidiaBesideAmd(std::string_view bytes);

// Reads every cubin in `bytes` (a cubin, a fatbin, or a host ELF). A cubin
// repeated byte for byte (the same device code linked in from several
// objects) is read once. Throws regscope::Error for damage: a truncated
// fatbin, an .nv.info record that runs past its section, an ELF LLVM cannot read.
// A compressed cubin is decompressed while it is read; its bytes are kept
// (Cubin::decompressed) only with `keep_images`. `consumed`, when given, is
// told of each fatbin entry once it is read (a part of `bytes`): a caller
// that mapped a library says how far the walk is, and drops the pages behind it.
using ConsumedBytes = std::function<void(std::string_view)>;
NvidiaBinary readNvidiaBinary(std::string_view bytes, bool keep_images = false, const ConsumedBytes &consumed = {});

// `regscope parse`'s view of the same: one FactSet per cubin, the notes as
// warnings of the first. `producer` gets the first cubin's toolkit. Throws
// regscope::Error when no kernel could be read (saying why: only PTX, only
// compressed cubins, no device code).
std::vector<FactSet> nvidiaBinaryFacts(std::string_view bytes, std::string &producer,
                                       const ConsumedBytes &consumed = {});

}  // namespace regscope
