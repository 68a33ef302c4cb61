// Reads AMDGPU kernels from compiled artifacts, without a compiler: a device
// code object (.hsaco, the ELF clang's offload step writes), an offload bundle
// (__CLANG_OFFLOAD_BUNDLE__), or a host object or executable that carries
// bundles in its .hip_fatbin section. The figures come from the code object's
// NT_AMDGPU_METADATA note, read with LLVM's object and msgpack libraries.
#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cstring>

#include "amdgpu_metadata.h"
#include "regscope/collect/collect.h"
#include "regscope/support/error.h"

namespace regscope {
namespace {

constexpr std::string_view kBundleMagic = "__CLANG_OFFLOAD_BUNDLE__";

std::uint64_t readU64(std::string_view bytes, std::size_t at) {
  if (at + 8 > bytes.size()) throw Error("truncated offload bundle");
  std::uint64_t v;
  std::memcpy(&v, bytes.data() + at, 8);  // little-endian, as the bundler writes it
  return v;
}

void fromElf(std::string_view bytes, std::vector<CodeObject> &out);

// magic[24], u64 count, then count x {u64 offset, u64 size, u64 triple length, triple}.
void fromBundle(std::string_view bytes, std::vector<CodeObject> &out) {
  const std::uint64_t count = readU64(bytes, kBundleMagic.size());
  std::size_t at = kBundleMagic.size() + 8;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t offset = readU64(bytes, at), size = readU64(bytes, at + 8), length = readU64(bytes, at + 16);
    at += 24;
    if (at + length > bytes.size() || offset + size > bytes.size()) throw Error("truncated offload bundle");
    const std::string_view triple = bytes.substr(at, length);
    at += length;
    if (triple.find("amdgcn") != std::string_view::npos && size > 0) fromElf(bytes.substr(offset, size), out);
  }
}

void fromElf(std::string_view bytes, std::vector<CodeObject> &out) {
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
      std::string_view fatbin(contents->data(), contents->size());
      for (std::size_t at = fatbin.find(kBundleMagic); at != std::string_view::npos;
           at = fatbin.find(kBundleMagic, at + 1))
        fromBundle(fatbin.substr(at), out);
    }
    return;
  }
  auto sections = file.sections();
  if (!sections) throw Error("unreadable code object: " + llvm::toString(sections.takeError()));
  for (const auto &section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_NOTE) continue;
    llvm::Error err = llvm::Error::success();
    for (const auto &note : file.notes(section, err)) {
      if (note.getName() != "AMDGPU" || note.getType() != llvm::ELF::NT_AMDGPU_METADATA) continue;
      llvm::ArrayRef<std::uint8_t> desc = note.getDesc();
      llvm::msgpack::Document doc;
      if (!doc.readFromBlob(llvm::StringRef(reinterpret_cast<const char *>(desc.data()), desc.size()), false))
        throw Error("malformed AMDGPU metadata note");
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
    if (err) throw Error("unreadable ELF notes: " + llvm::toString(std::move(err)));
  }
}

}  // namespace

std::vector<CodeObject> parseCodeObjects(std::string_view bytes) {
  std::vector<CodeObject> out;
  if (bytes.substr(0, kBundleMagic.size()) == kBundleMagic) fromBundle(bytes, out);
  else if (bytes.substr(0, 4) == "\x7f" "ELF") fromElf(bytes, out);
  else throw Error("not an ELF file or offload bundle");
  return out;
}

}  // namespace regscope
