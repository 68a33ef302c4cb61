// Reads AMDGPU kernels from compiled artifacts, without a compiler: a device
// code object (.hsaco, the ELF clang's offload step writes), an offload bundle
// (__CLANG_OFFLOAD_BUNDLE__), or a host object or executable that carries
// bundles in its .hip_fatbin section. The figures come from the code object's
// NT_AMDGPU_METADATA note, read with LLVM's object and msgpack libraries.
#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <cstring>

#include "amdgpu_metadata.h"
#include "regscope/collect/collect.h"
#include "regscope/support/error.h"

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

void fromElf(std::string_view bytes, std::vector<CodeObject> &out, int depth);

// magic[24], u64 count, then count x {u64 offset, u64 size, u64 triple length, triple}.
// Every count, offset and length is checked against the input before it is
// used, so each entry advances and the walk ends within the input. Returns
// the bundle's extent: the end of the last byte any entry uses.
std::size_t fromBundle(std::string_view bytes, std::vector<CodeObject> &out, int depth) {
  if (depth > kMaxNesting) throw Error("offload bundles nested too deeply");
  const std::uint64_t count = readU64(bytes, kBundleMagic.size());
  std::size_t at = kBundleMagic.size() + 8;
  constexpr std::size_t kEntryHeader = 24;  // the least an entry takes
  if (count > (bytes.size() - at) / kEntryHeader)
    throw Error("truncated offload bundle: it claims " + std::to_string(count) + " entries in " +
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
    if (triple.find("amdgcn") != std::string_view::npos && size > 0) fromElf(bytes.substr(offset, size), out, depth + 1);
  }
  return extent;
}

// The bundles in a host file's .hip_fatbin section, one after the other.
void fromFatbin(std::string_view fatbin, std::vector<CodeObject> &out, int depth) {
  for (std::size_t at = fatbin.find(kBundleMagic); at != std::string_view::npos;) {
    const std::size_t extent = fromBundle(fatbin.substr(at), out, depth + 1);
    at = fatbin.find(kBundleMagic, at + extent);  // past this bundle's code objects: no magic inside them counts
  }
}

void fromMetadataNote(llvm::ArrayRef<std::uint8_t> desc, std::vector<CodeObject> &out) {
  llvm::msgpack::Document doc;
  metadataFromMsgpack(std::string_view(reinterpret_cast<const char *>(desc.data()), desc.size()), doc);
  Metadata metadata = readMetadata(doc);
  CodeObject co;
  co.arch = metadata.arch;
  co.facts.source = "code object";
  for (MetadataKernel &k : metadata.kernels) {
    KernelFacts facts;
    facts.name = k.name;
    facts.arch = metadata.arch;
    facts.values = k.values;
    // .vgpr_count is the allocation; without AGPRs it is also the arch count.
    if (facts.get(Field::Agprs).value_or(0) == 0 && facts.get(Field::VgprsTotal))
      facts.set(Field::Vgprs, *facts.get(Field::VgprsTotal));
    co.facts.kernels.push_back(std::move(facts));
  }
  out.push_back(std::move(co));
}

void fromElf(std::string_view bytes, std::vector<CodeObject> &out, int depth) {
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
      fromFatbin(std::string_view(contents->data(), contents->size()), out, depth);
    }
    return;
  }
  auto sections = file.sections();
  if (!sections) throw Error("unreadable code object: " + llvm::toString(sections.takeError()));
  const std::size_t first = out.size();
  std::string producer;  // .comment's compiler string, as the .s's first .ident names it
  for (const auto &section : *sections) {
    if (section.sh_type == llvm::ELF::SHT_PROGBITS && producer.empty()) {
      auto name = file.getSectionName(section);
      if (!name) llvm::consumeError(name.takeError());
      else if (*name == ".comment" && section.sh_offset <= bytes.size() && section.sh_size <= bytes.size() - section.sh_offset) {
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
        metadata.push_back(note.getDesc());
    if (err) throw Error("unreadable ELF notes: " + llvm::toString(std::move(err)));
    for (llvm::ArrayRef<std::uint8_t> desc : metadata) fromMetadataNote(desc, out);
  }
  for (std::size_t i = first; i < out.size(); ++i) out[i].producer = producer;
}

}  // namespace

std::vector<CodeObject> parseCodeObjects(std::string_view bytes) {
  std::vector<CodeObject> out;
  if (bytes.substr(0, kBundleMagic.size()) == kBundleMagic) fromBundle(bytes, out, 0);
  else if (bytes.substr(0, 4) == "\x7f" "ELF") fromElf(bytes, out, 0);
  else throw Error("not an ELF file or offload bundle");
  return out;
}

}  // namespace regscope
