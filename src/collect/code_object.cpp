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
#include <functional>
#include <unordered_set>

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
    if (triple.find("amdgcn") != std::string_view::npos && size > 0) fromElf(bytes.substr(offset, size), walk, depth + 1);
  }
  return extent;
}

// The bundles in a host file's .hip_fatbin section, one after the other (a
// linker concatenates those of its objects): each is read once, and said so.
void fromFatbin(std::string_view fatbin, Walk &walk, int depth) {
  for (std::size_t at = fatbin.find(kBundleMagic); at != std::string_view::npos;) {
    const std::size_t extent = fromBundle(fatbin.substr(at), walk, depth + 1);
    if (walk.consumed) walk.consumed(fatbin.substr(0, at + extent));
    at = fatbin.find(kBundleMagic, at + extent);  // past this bundle's code objects: no magic inside them counts
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
    // .vgpr_count is the allocation; without AGPRs it is also the arch count.
    if (facts.get(Field::Agprs).value_or(0) == 0 && facts.get(Field::VgprsTotal))
      facts.set(Field::Vgprs, *facts.get(Field::VgprsTotal));
    co.facts.kernels.push_back(std::move(facts));
  }
  walk.out.push_back(std::move(co));
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
  for (const auto &section : *sections) {
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
    for (llvm::ArrayRef<std::uint8_t> desc : metadata) fromMetadataNote(desc, walk);
  }
}

}  // namespace

std::vector<CodeObject> parseCodeObjects(std::string_view bytes,
                                         const std::function<void(std::string_view)> &consumed) {
  Walk walk{{}, {}, consumed};
  if (bytes.substr(0, kBundleMagic.size()) == kBundleMagic) fromBundle(bytes, walk, 0);
  else if (bytes.substr(0, 4) == "\x7f" "ELF") fromElf(bytes, walk, 0);
  else throw Error("not an ELF file or offload bundle");
  return std::move(walk.out);
}

}  // namespace regscope
