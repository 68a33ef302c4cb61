// Reads AMDGPU kernels from compiled artifacts, without a compiler: a device
// code object (.hsaco, the ELF clang's offload step writes), an offload bundle
// (__CLANG_OFFLOAD_BUNDLE__), or a host object or executable that carries
// bundles in its .hip_fatbin section. The figures come from the code object's
// NT_AMDGPU_METADATA note, read with LLVM's object and msgpack libraries.
#include <llvm/BinaryFormat/ELF.h>
#include <llvm/MC/MCAsmInfo.h>
#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCDisassembler/MCDisassembler.h>
#include <llvm/MC/MCInst.h>
#include <llvm/MC/MCInstrInfo.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Support/AMDHSAKernelDescriptor.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_set>

#include "allocation.h"
#include "amdgpu_metadata.h"
#include "bundle_codec.h"
#include "mc_target.h"
#include "regscope/backends/amd/collect.h"
#include "regscope/collect/collect.h"
#include "regscope/support/error.h"
#include "regscope/support/llvm_compat.h"
#include "regscope/support/plural.h"

namespace regscope {
namespace {

constexpr std::string_view kBundleMagic = "__CLANG_OFFLOAD_BUNDLE__";
// A host file holds bundles and a bundle device ELFs: two levels. A device
// ELF that claims to be a host file again is not something clang writes.
constexpr int kMaxNesting = 6;

std::uint64_t readU64(std::string_view bytes, std::size_t at) {
  if (at > bytes.size() || bytes.size() - at < 8) throw Error("truncated offload bundle");
  std::uint64_t v;
  std::memcpy(&v, bytes.data() + at, 8);  // little-endian, as the bundler writes it
  return v;
}

// What a walk keeps: the code objects found, the metadata notes already read
// (copies: the caller may drop the pages of a stretch it was told is read),
// and whom to tell that a stretch was read.
struct Walk {
  std::vector<CodeObject> out;
  std::unordered_set<std::string> notes;
  const std::function<void(std::string_view)> &consumed;
};

void fromElf(std::string_view bytes, Walk &walk, int depth);

// magic[24], u64 count, then count x {u64 offset, u64 size, u64 triple length, triple}.
// Every count, offset and length is checked against the input before it is
// used, so each entry advances and the walk ends within the input. Returns
// the bundle's extent: the end of the last byte any entry uses.
std::size_t fromBundle(std::string_view bytes, Walk &walk, int depth) {
  if (depth > kMaxNesting) throw Error("offload bundles nested too deeply");
  const std::uint64_t count = readU64(bytes, kBundleMagic.size());
  std::size_t at = kBundleMagic.size() + 8;
  constexpr std::size_t kEntryHeader = 24;  // the least an entry takes
  if (count > (bytes.size() - at) / kEntryHeader)
    throw Error("truncated offload bundle: it claims " + plural(count, "entry", "entries") + " in " +
                std::to_string(bytes.size()) + " bytes");
  std::size_t extent = at;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t offset = readU64(bytes, at), size = readU64(bytes, at + 8), length = readU64(bytes, at + 16);
    at += kEntryHeader;
    if (length > bytes.size() - at || offset > bytes.size() || size > bytes.size() - offset)
      throw Error("truncated offload bundle: entry " + std::to_string(i) + " lies outside it");
    const std::string_view triple = bytes.substr(at, length);
    at += length;
    extent = std::max<std::size_t>({extent, at, offset + size});
    if (triple.find("amdgcn") == std::string_view::npos || size == 0) continue;
    const std::string_view elf = bytes.substr(offset, size);
    // LLVM's ELF reader wants its input 8-byte aligned; the bundler aligns
    // entries only when asked (-bundle-align, which hipcc passes as 4096), so a
    // bundle made by hand (clang-offload-bundler -type=o) has them anywhere.
    if (reinterpret_cast<std::uintptr_t>(elf.data()) % alignof(std::uint64_t) != 0)
      fromElf(std::string(elf), walk, depth + 1);  // a heap copy is aligned for any scalar
    else
      fromElf(elf, walk, depth + 1);
  }
  return extent;
}

// A compressed bundle (CCOB, bundle_codec.h): decompressed, checked, then read
// as the bundle it holds. Returns its extent in `bytes`.
std::size_t fromCompressedBundle(std::string_view bytes, Walk &walk, int depth, const std::string &where) {
  const DecompressedBundle decompressed = decompressBundle(bytes, where);
  if (decompressed.bundle.substr(0, kBundleMagic.size()) != kBundleMagic)
    throw Error("compressed offload bundle " + where + ": it does not hold an offload bundle");
  fromBundle(decompressed.bundle, walk, depth + 1);
  return decompressed.extent;
}

// Where the next bundle of a .hip_fatbin starts, compressed or not; npos if none.
std::size_t nextBundle(std::string_view fatbin, std::size_t from) {
  std::size_t compressed = fatbin.find(kCompressedBundleMagic, from);
  while (compressed != std::string_view::npos && !startsCompressedBundle(fatbin.substr(compressed)))
    compressed = fatbin.find(kCompressedBundleMagic, compressed + 1);
  return std::min(fatbin.find(kBundleMagic, from), compressed);
}

// The bundles in a host file's .hip_fatbin section, one after the other (a
// linker concatenates those of its objects), compressed or not: each is read
// once, and said so.
void fromFatbin(std::string_view fatbin, Walk &walk, int depth) {
  for (std::size_t at = nextBundle(fatbin, 0); at != std::string_view::npos;) {
    const std::string_view rest = fatbin.substr(at);
    const std::size_t extent =
        rest.substr(0, kBundleMagic.size()) == kBundleMagic
            ? fromBundle(rest, walk, depth + 1)
            : fromCompressedBundle(rest, walk, depth + 1, "at byte " + std::to_string(at) + " of .hip_fatbin");
    if (walk.consumed) walk.consumed(fatbin.substr(0, at + extent));
    at = nextBundle(fatbin, at + extent);  // past this bundle's code objects: no magic inside them counts
  }
}

void fromMetadataNote(llvm::ArrayRef<std::uint8_t> desc, Walk &walk) {
  const std::string_view note(reinterpret_cast<const char *>(desc.data()), desc.size());
  // The same code object linked in from several objects (a kernel template
  // instantiated in many sources) says nothing new.
  if (!walk.notes.emplace(note).second) return;
  llvm::msgpack::Document doc;
  metadataFromMsgpack(note, doc);
  Metadata metadata = readMetadata(doc);
  CodeObject co;
  co.arch = metadata.arch;
  co.facts.source = "code object";
  for (MetadataKernel &k : metadata.kernels) {
    KernelFacts facts;
    facts.name = k.name;
    facts.arch = metadata.arch;
    facts.values = k.values;
    facts.missing = missingFromMetadata(k);
    // .vgpr_count is what the code uses; without AGPRs it is also the arch count.
    if (facts.get(Field::Agprs).value_or(0) == 0 && facts.get(Field::VgprsUsed))
      facts.set(Field::Vgprs, *facts.get(Field::VgprsUsed));
    co.facts.kernels.push_back(std::move(facts));
  }
  walk.out.push_back(std::move(co));
}

// The AMDGPU disassembler for one arch ("gfx90a:xnack-": the CPU before the
// first colon) over the shared MC setup (mc_target.h), or null when LLVM does
// not know the arch.
struct Disassembler : amdgpu_mc::McTarget {
  std::unique_ptr<llvm::MCContext> context;
  std::unique_ptr<llvm::MCDisassembler> disassembler;
};

std::unique_ptr<Disassembler> disassemblerFor(const std::string &arch) {
  auto d = std::make_unique<Disassembler>();
  std::string error;
  if (amdgpu_mc::makeMcTarget(arch, /*with_features=*/false, *d, error) != amdgpu_mc::McStatus::Ready) return nullptr;
  // LLVM 15's AMDGPU disassembler aborts (report_fatal_error) for SI/CI
  // ("hawaii", gfx6/gfx7): it decodes GCN3 encodings and GFX10+ only.
  if (!(d->sti->checkFeatures("+gcn3-encoding") || d->sti->checkFeatures("+gfx10") || d->sti->checkFeatures("+gfx11")))
    return nullptr;
  d->context = amdgpu_mc::makeContext(*d);
  d->disassembler.reset(d->target->createMCDisassembler(*d->sti, *d->context));
  return d->disassembler ? std::move(d) : nullptr;
}

// The v_accvgpr_read/write and v_mfma instructions of each kernel's body, as
// the .s parser counts them (asm_metadata.cpp): with them a code object gives
// what the gfx908 hidden-AGPR-spill finding needs. Each symbol's range is
// checked against its section; bytes that do not decode are stepped over.
// LLVM 15's symbol iterator calls report_fatal_error (an abort) on a symbol
// table or string table that lies outside the file, or whose entries do not
// fit it: check both before walking the symbols.
bool symbolTablesReadable(const llvm::object::ELF64LEObjectFile &elf, std::string_view bytes) {
  using Elf = llvm::object::ELF64LE;
  auto sections = elf.getELFFile().sections();
  if (!sections) {
    llvm::consumeError(sections.takeError());
    return false;
  }
  const auto inFile = [&](const Elf::Shdr &s) {
    return s.sh_offset <= bytes.size() && s.sh_size <= bytes.size() - s.sh_offset;
  };
  for (const Elf::Shdr &section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_SYMTAB && section.sh_type != llvm::ELF::SHT_DYNSYM) continue;
    if (!inFile(section) || section.sh_entsize != sizeof(Elf::Sym) || section.sh_size % sizeof(Elf::Sym) != 0 ||
        section.sh_link >= sections->size() || !inFile((*sections)[section.sh_link]))
      return false;
  }
  return true;
}

void countInstructions(const llvm::object::ELF64LEObjectFile &elf, std::string_view bytes, CodeObject &co) {
  if (!symbolTablesReadable(elf, bytes)) return;  // the counts stay unknown, as for a file LLVM cannot disassemble
  std::unique_ptr<Disassembler> d;
  for (const llvm::object::ELFSymbolRef symbol : elf.symbols()) {
    if (symbol.getELFType() != llvm::ELF::STT_FUNC || symbol.getSize() == 0) continue;
    auto name = symbol.getName();
    auto address = symbol.getAddress();
    auto section = symbol.getSection();
    if (!name || !address || !section || *section == elf.section_end()) {
      if (!name) llvm::consumeError(name.takeError());
      if (!address) llvm::consumeError(address.takeError());
      if (!section) llvm::consumeError(section.takeError());
      continue;
    }
    KernelFacts *kernel = nullptr;
    for (KernelFacts &k : co.facts.kernels)
      if (k.name == *name) kernel = &k;
    if (!kernel) continue;
    const llvm::object::ELFSectionRef text(**section);
    const std::uint64_t begin = *address - text.getAddress(), size = symbol.getSize();
    const std::uint64_t offset = text.getOffset();
    if (*address < text.getAddress() || begin > text.getSize() || size > text.getSize() - begin ||
        offset > bytes.size() || text.getSize() > bytes.size() - offset)
      continue;
    if (!d && !(d = disassemblerFor(co.arch))) return;
    const llvm::ArrayRef<std::uint8_t> body(reinterpret_cast<const std::uint8_t *>(bytes.data() + offset + begin),
                                            size);
    std::int64_t agpr_copies = 0, mfma = 0;
    llvm::raw_null_ostream comments;  // this thread's own: llvm::nulls() is shared by every thread
    for (std::uint64_t at = 0; at < body.size();) {
      llvm::MCInst inst;
      std::uint64_t length = 0;
      const auto status = d->disassembler->getInstruction(inst, length, body.slice(at), at, comments);
      if (status != llvm::MCDisassembler::Success || length == 0) {
        at += 4;
        continue;
      }
      const llvm::StringRef opcode = d->mii->getName(inst.getOpcode());
      if (startsWith(opcode, "V_ACCVGPR_READ") || startsWith(opcode, "V_ACCVGPR_WRITE"))
        ++agpr_copies;
      else if (startsWith(opcode, "V_MFMA"))
        ++mfma;
      at += length;
    }
    kernel->set(Field::AgprCopies, agpr_copies);
    kernel->set(Field::MfmaInstructions, mfma);
  }
}

// A kernel descriptor (`NAME.kd`, 64 bytes in .rodata; AMDGPUUsage "Kernel
// Descriptor"): what the GPU reads at launch. Its figures, as the fields the
// metadata also gives, so that the two can be compared.
struct Descriptor {
  FieldValues values;
  std::optional<std::int64_t> sgprs;  // gfx9: the SGPRs it allocates, in granules of 16, extras included
};
Descriptor descriptorFigures(llvm::ArrayRef<std::uint8_t> kd, const AmdArch *arch) {
  namespace hsa = llvm::amdhsa;
  auto u32 = [&](std::size_t at) {
    std::uint32_t v;
    std::memcpy(&v, kd.data() + at, 4);  // little-endian, as the ELF is
    return v;
  };
  std::uint16_t properties;
  std::memcpy(&properties, kd.data() + hsa::KERNEL_CODE_PROPERTIES_OFFSET, 2);
  const std::uint32_t rsrc1 = u32(hsa::COMPUTE_PGM_RSRC1_OFFSET), rsrc3 = u32(hsa::COMPUTE_PGM_RSRC3_OFFSET);
  Descriptor d;
  FieldValues &v = d.values;
  auto set = [&](Field f, std::int64_t value) { v[static_cast<std::size_t>(f)] = value; };
  set(Field::LdsBytes, u32(hsa::GROUP_SEGMENT_FIXED_SIZE_OFFSET));
  set(Field::ScratchBytes, u32(hsa::PRIVATE_SEGMENT_FIXED_SIZE_OFFSET));
  if (!arch) return d;  // the granules and the reserved bits depend on the target
  // ENABLE_WAVEFRONT_SIZE32 is GFX10+; the bit is reserved before.
  const bool wave32 = arch->generation == AmdGeneration::Gfx10Plus &&
                      AMDHSA_BITS_GET(properties, hsa::KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32);
  set(Field::WaveSize, wave32 ? 32 : 64);
  set(Field::VgprsTotal, (AMDHSA_BITS_GET(rsrc1, hsa::COMPUTE_PGM_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT) + 1) *
                             vgprEncodingGranule(*arch, wave32 ? 32 : 64));
  if (arch->agprs == AgprMode::Unified)
    set(Field::AccumOffset, (AMDHSA_BITS_GET(rsrc3, hsa::COMPUTE_PGM_RSRC3_GFX90A_ACCUM_OFFSET) + 1) * 4);
  // GFX9: 2 * (granules of 16 - 1); reserved (0) on gfx10+, whose hardware ignores it.
  if (arch->generation == AmdGeneration::Gfx9)
    d.sgprs =
        (AMDHSA_BITS_GET(rsrc1, hsa::COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT) / 2 + 1) * kGfx9SgprGranule;
  return d;
}

// Reads each kernel's descriptor and merges it with the metadata: a figure the
// two give differently is unknown (the warning names both), and the allocation
// is checked against what the metadata says the code uses. A kernel whose
// descriptor is not in the symbol table keeps the metadata's figures, and no
// allocation: the model then counts what the code uses.
void readDescriptors(const llvm::object::ELF64LEObjectFile &elf, std::string_view bytes, CodeObject &co) {
  const AmdArch *arch = findAmdArch(co.arch);
  std::map<std::string, Descriptor> descriptors;
  if (symbolTablesReadable(elf, bytes))
    for (const llvm::object::ELFSymbolRef symbol : elf.symbols()) {
      auto name = symbol.getName();
      auto address = symbol.getAddress();
      auto section = symbol.getSection();
      const bool ok = name && address && section && *section != elf.section_end();
      if (!name) llvm::consumeError(name.takeError());
      if (!address) llvm::consumeError(address.takeError());
      if (!section) llvm::consumeError(section.takeError());
      if (!ok || symbol.getELFType() != llvm::ELF::STT_OBJECT || !endsWith(*name, ".kd")) continue;
      const llvm::object::ELFSectionRef data(**section);
      constexpr std::uint64_t kSize = sizeof(llvm::amdhsa::kernel_descriptor_t);
      const std::uint64_t begin = *address - data.getAddress(), offset = data.getOffset();
      if (*address < data.getAddress() || begin > data.getSize() || kSize > data.getSize() - begin ||
          data.getType() == llvm::ELF::SHT_NOBITS || offset > bytes.size() || data.getSize() > bytes.size() - offset)
        continue;  // a descriptor outside its section: not read, so the metadata alone speaks
      const auto *kd = reinterpret_cast<const std::uint8_t *>(bytes.data() + offset + begin);
      descriptors[name->drop_back(3).str()] = descriptorFigures({kd, kSize}, arch);
    }
  for (KernelFacts &facts : co.facts.kernels) {
    std::optional<std::int64_t> sgprs;
    if (auto d = descriptors.find(facts.name); d != descriptors.end()) {
      const FieldValues metadata = facts.values;
      facts.values = {};
      mergeReadings(facts, {{&d->second.values, "the kernel descriptor"}, {&metadata, "the metadata"}});
      sgprs = d->second.sgprs;
    }
    checkAllocation(facts, arch, sgprs);
  }
}

void fromElf(std::string_view bytes, Walk &walk, int depth) {
  if (depth > kMaxNesting) throw Error("offload bundles nested too deeply");
  llvm::MemoryBufferRef buffer(llvm::StringRef(bytes.data(), bytes.size()), "code object");
  auto object = llvm::object::ObjectFile::createELFObjectFile(buffer);
  if (!object) throw Error("not a readable ELF file: " + llvm::toString(object.takeError()));
  auto *elf = llvm::dyn_cast<llvm::object::ELF64LEObjectFile>(object->get());
  if (!elf) return;
  const auto &file = elf->getELFFile();
  if (file.getHeader().e_machine != llvm::ELF::EM_AMDGPU) {  // a host file: look for device code inside
    for (const llvm::object::SectionRef &section : elf->sections()) {
      auto name = section.getName();
      if (!name || *name != ".hip_fatbin") {
        if (!name) llvm::consumeError(name.takeError());
        continue;
      }
      auto contents = section.getContents();
      if (!contents) throw Error("unreadable .hip_fatbin: " + llvm::toString(contents.takeError()));
      fromFatbin(std::string_view(contents->data(), contents->size()), walk, depth);
    }
    return;
  }
  auto sections = file.sections();
  if (!sections) throw Error("unreadable code object: " + llvm::toString(sections.takeError()));
  std::vector<CodeObject> &out = walk.out;
  const std::size_t first = out.size();
  std::string producer;  // .comment's compiler string, as the .s's first .ident names it
  for (const auto &section : *sections) {
    if (section.sh_type == llvm::ELF::SHT_PROGBITS && producer.empty()) {
      auto name = file.getSectionName(section);
      if (!name)
        llvm::consumeError(name.takeError());
      else if (*name == ".comment" && section.sh_offset <= bytes.size() &&
               section.sh_size <= bytes.size() - section.sh_offset) {
        // NUL-separated strings: the linker's ("Linker: Debian LLD 14.0.6") may come first.
        std::string_view comment = bytes.substr(section.sh_offset, section.sh_size);
        while (!comment.empty() && producer.empty()) {
          const std::string_view entry = comment.substr(0, comment.find('\0'));
          if (entry.find("clang version") != std::string_view::npos) producer = std::string(entry);
          comment.remove_prefix(std::min(comment.size(), entry.size() + 1));
        }
      }
    }
    if (section.sh_type != llvm::ELF::SHT_NOTE) continue;
    // LLVM 15's note iterator adds offset and size unchecked: check them here.
    const std::uint64_t offset = section.sh_offset, size = section.sh_size;
    if (offset > bytes.size() || size > bytes.size() - offset)
      throw Error("unreadable code object: a note section lies outside the file");
    std::vector<llvm::ArrayRef<std::uint8_t>> metadata;  // read after the walk: an llvm::Error must be checked
    llvm::Error err = llvm::Error::success();
    for (const auto &note : file.notes(section, err))
      if (note.getName() == "AMDGPU" && note.getType() == llvm::ELF::NT_AMDGPU_METADATA)
        metadata.push_back(noteDesc(note, section));
    if (err) throw Error("unreadable ELF notes: " + llvm::toString(std::move(err)));
    for (llvm::ArrayRef<std::uint8_t> desc : metadata) fromMetadataNote(desc, walk);
  }
  for (std::size_t i = first; i < out.size(); ++i) {
    out[i].producer = producer;
    readDescriptors(*elf, bytes, out[i]);
    countInstructions(*elf, bytes, out[i]);
  }
}

}  // namespace

bool startsOffloadBundle(std::string_view head) {
  return head.substr(0, kBundleMagic.size()) == kBundleMagic || startsCompressedBundle(head);
}

std::vector<CodeObject> parseCodeObjects(std::string_view bytes,
                                         const std::function<void(std::string_view)> &consumed) {
  Walk walk{{}, {}, consumed};
  if (bytes.substr(0, kBundleMagic.size()) == kBundleMagic)
    fromBundle(bytes, walk, 0);
  else if (startsCompressedBundle(bytes))
    fromCompressedBundle(bytes, walk, 0, "at byte 0");
  else if (bytes.substr(0, 4) ==
           "\x7f"
           "ELF")
    fromElf(bytes, walk, 0);
  else
    throw Error("not an ELF file or offload bundle (compressed or not)");
  return std::move(walk.out);
}

}  // namespace regscope
