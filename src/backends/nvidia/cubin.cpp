// Reads NVIDIA cubins, fatbins and host objects that carry them, with LLVM's
// ELF reader (llvm::object::ELFFile). Where each figure is, checked on the
// fixtures against cuobjdump -res-usage and cuFuncGetAttribute
// (fixtures/triton/, docs/cubin.md):
//   registers      EIATTR_REGCOUNT (0x2f) in .nv.info, [symbol index, value];
//                  the .text.<k> section's sh_info high byte holds it only in
//                  some cubins (CUDA 13 sm_80: yes; sm_90, Triton's CUDA 12: 0)
//   stack          EIATTR_MIN_STACK_SIZE (0x12), else EIATTR_FRAME_SIZE (0x11)
//   static shared  the .nv.shared.<k> section's size, less the 1 KiB the
//                  driver reserves per block where the cubin lays it out in
//                  front (sm_90: a .nv.shared.reserved.* section is present)
//   constant bank 0 the .nv.constant0.<k> section's size
//   barriers       EIATTR_NUM_BARRIERS (0x4c); v1 (CUDA 12) cubins keep the
//                  count in the .text.<k> section's flags, bits 20-26
//   launch bounds  EIATTR_MAX_THREADS (0x05), EIATTR_REQNTID (0x10): x, y, z
//   arch           e_flags: the low byte (ELF ABI v1, CUDA <= 12) or bits
//                  8-15 (ABI v2, CUDA 13)
// .nv.info records are {u8 format, u8 attribute, u16 value-or-size}: format
// 4 (EIFMT_SVAL) is followed by `size` bytes, formats 1-3 carry their value
// in the u16. Spill bytes are not in a cubin (cuobjdump prints none either):
// they stay unknown, as does __launch_bounds__'s min blocks (only its effect,
// EIATTR_MAXREG_COUNT, is recorded).
#include "regscope/backends/nvidia/cubin.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Object/ELF.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <unordered_set>

#include "fatbin_codec.h"
#include "regscope/support/error.h"
#include "regscope/target/cuda.h"

namespace regscope {
namespace {

using Elf = llvm::object::ELF64LE;
using ElfFile = llvm::object::ELFFile<Elf>;

constexpr std::uint32_t kFatbinMagic = 0xBA55ED50;
constexpr std::uint32_t kShtCudaInfo = 0x70000000;    // SHT_LOPROC: .nv.info sections
constexpr std::uint8_t kStoCudaEntry = 0x10;          // st_other of an entry function (a kernel)
constexpr std::uint8_t kAbiV1 = 7, kAbiV2 = 8;        // ELFABIVERSION_CUDA_V1 / _V2
constexpr std::uint32_t kEfCudaAccelerators = 0x800;  // v1: "sm_90a"
// v2 (CUDA 13) keeps the e_flags of sm_90 for sm_90a: the suffix is this
// .nv.compat record (value 1), the only byte in which nvcc 13's sm_90 and
// sm_90a cubins of one source differ (likewise 100/100a, 120/120a, 121a).
constexpr std::uint8_t kCompatArchSpecific = 0x09;

// EIATTR codes (nvlink 13's table; the ones regscope reads).
constexpr std::uint8_t kMaxThreads = 0x05, kReqNtid = 0x10, kFrameSize = 0x11, kMinStackSize = 0x12, kRegCount = 0x2f,
                       kNumBarriers = 0x4c;
constexpr std::uint8_t kFmtSval = 4;

template <typename T>
T readLe(std::string_view bytes, std::size_t at) {
  T v;
  std::memcpy(&v, bytes.data() + at, sizeof(T));
  return v;
}

std::string hex(std::uint64_t v) {
  static const char *digits = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), digits[v & 15]);
    v >>= 4;
  } while (v);
  return "0x" + s;
}

bool isElf(std::string_view bytes) {
  return bytes.size() >= 64 && bytes.substr(0, 4) ==
                                   "\x7f"
                                   "ELF";
}
bool isFatbin(std::string_view bytes) { return bytes.size() >= 16 && readLe<std::uint32_t>(bytes, 0) == kFatbinMagic; }

std::optional<ElfFile> openElf(std::string_view bytes) {
  // Only little-endian ELF64 (what ptxas and host compilers on x86-64 and aarch64 write).
  if (!isElf(bytes) || bytes[4] != llvm::ELF::ELFCLASS64 || bytes[5] != llvm::ELF::ELFDATA2LSB) return std::nullopt;
  auto file = ElfFile::create(llvm::StringRef(bytes.data(), bytes.size()));
  if (!file) {
    llvm::consumeError(file.takeError());
    return std::nullopt;
  }
  return std::move(*file);
}

// A section's bytes, checked against the file (LLVM 15 checks some reads, not all).
std::string_view contents(std::string_view bytes, const Elf::Shdr &s, const std::string &what) {
  if (s.sh_type == llvm::ELF::SHT_NOBITS) return {};
  if (s.sh_offset > bytes.size() || s.sh_size > bytes.size() - s.sh_offset)
    throw Error(what + " lies outside the file (truncated?)");
  return bytes.substr(s.sh_offset, s.sh_size);
}

// Section names, or an empty list when the table cannot be read.
std::vector<std::pair<const Elf::Shdr *, std::string>> namedSections(const ElfFile &file) {
  std::vector<std::pair<const Elf::Shdr *, std::string>> out;
  auto sections = file.sections();
  if (!sections) {
    llvm::consumeError(sections.takeError());
    return out;
  }
  for (const Elf::Shdr &s : *sections) {
    auto name = file.getSectionName(s);
    if (!name) {
      llvm::consumeError(name.takeError());
      out.emplace_back(&s, "");
      continue;
    }
    out.emplace_back(&s, name->str());
  }
  return out;
}

bool isNvFatbinSection(const std::string &name) { return name == ".nv_fatbin" || name == "__nv_relfatbin"; }

// ---- one cubin --------------------------------------------------------------

struct Attribute {
  std::uint8_t format, code;
  std::uint16_t value;       // formats 1-3: the value; format 4: the payload's size
  std::string_view payload;  // format 4 only
};

std::vector<Attribute> attributes(std::string_view section, const std::string &name) {
  std::vector<Attribute> out;
  for (std::size_t at = 0; at < section.size();) {
    if (section.size() - at < 4) throw Error(name + ": a record is cut off at byte " + std::to_string(at));
    Attribute a{static_cast<std::uint8_t>(section[at]),
                static_cast<std::uint8_t>(section[at + 1]),
                readLe<std::uint16_t>(section, at + 2),
                {}};
    at += 4;
    if (a.format == kFmtSval) {
      if (a.value > section.size() - at)
        throw Error(name + ": attribute " + hex(a.code) + " claims " + std::to_string(a.value) +
                    " bytes past the end of the section");
      a.payload = section.substr(at, a.value);
      at += a.value;
    } else if (a.format < 1 || a.format > 3) {
      throw Error(name + ": unknown record format " + std::to_string(a.format) + " (attribute " + hex(a.code) + ")");
    }
    out.push_back(a);
  }
  return out;
}

// x * y * z of a 12-byte {x, y, z} payload; nullopt for another shape.
std::optional<std::int64_t> threads(const Attribute &a) {
  if (a.format != kFmtSval || a.payload.size() != 12) return std::nullopt;
  std::int64_t n = 1;
  for (std::size_t i = 0; i < 3; ++i) n *= readLe<std::uint32_t>(a.payload, i * 4);
  return n;
}

std::string archName(const Elf::Ehdr &header) {
  const std::uint8_t abi = header.e_ident[llvm::ELF::EI_ABIVERSION];
  const std::uint32_t flags = header.e_flags;
  if (abi == kAbiV1) {
    std::string arch = "sm_" + std::to_string(flags & 0xff);
    if (flags & kEfCudaAccelerators) arch += "a";
    return arch;
  }
  if (abi == kAbiV2) return "sm_" + std::to_string((flags >> 8) & 0xff);
  throw Error("unknown CUDA ELF ABI version " + std::to_string(abi) + " (e_flags " + hex(flags) +
              "): regscope reads versions 7 (CUDA 12 and older) and 8 (CUDA 13)");
}

// "Cuda compilation tools, release 13.0, V13.0.88" in the .note.nv.tkinfo note.
std::string toolkit(std::string_view note) {
  constexpr std::string_view kLead = "Cuda compilation tools";
  const std::size_t at = note.find(kLead);
  if (at == std::string_view::npos) return "";
  const std::size_t end = note.find('\0', at);
  return std::string(note.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
}

Cubin readCubin(std::string_view bytes) {
  std::optional<ElfFile> elf = openElf(bytes);
  if (!elf) throw Error("not a readable cubin (an ELF64 little-endian file)");
  const Elf::Ehdr &header = elf->getHeader();
  if (header.e_machine != llvm::ELF::EM_CUDA)
    throw Error("not a cubin: e_machine is " + std::to_string(header.e_machine));
  Cubin cubin;
  cubin.image = bytes;
  cubin.arch = archName(header);
  cubin.relocatable = header.e_type == llvm::ELF::ET_REL;
  cubin.abi_version = header.e_ident[llvm::ELF::EI_ABIVERSION];
  cubin.facts.source = "cubin";
  const bool v1 = header.e_ident[llvm::ELF::EI_ABIVERSION] == kAbiV1;

  auto sections = elf->sections();
  if (!sections) throw Error("unreadable section table: " + llvm::toString(sections.takeError()));
  std::map<std::string, const Elf::Shdr *> byName;
  const Elf::Shdr *symtab = nullptr;
  bool reserved_shared = false;  // sm_90: the driver's 1 KiB lies in each kernel's .nv.shared section
  for (const auto &[s, name] : namedSections(*elf)) {
    // Two sections of one kernel's name (.text.K, .nv.shared.K, .nv.info.K,
    // .nv.constant0.K) cannot be told apart: which holds whose figures is
    // unknown, so refuse rather than give one kernel the other's (or 0).
    const bool per_kernel = name.rfind(".text.", 0) == 0 || name.rfind(".nv.shared.", 0) == 0 ||
                            name.rfind(".nv.info.", 0) == 0 || name.rfind(".nv.constant0.", 0) == 0;
    if (!byName.emplace(name, s).second && per_kernel)
      throw Error("two sections named " + name + ": their kernels' figures cannot be told apart");
    if (s->sh_type == llvm::ELF::SHT_SYMTAB) symtab = s;
    if (name.rfind(".nv.shared.reserved.", 0) == 0) reserved_shared = true;
    if (name == ".note.nv.tkinfo") cubin.producer = toolkit(contents(bytes, *s, name));
    if (name == ".nv.compat" && !v1 && cubin.arch.back() != 'a')
      for (const Attribute &a : attributes(contents(bytes, *s, name), name))
        if (a.code == kCompatArchSpecific && a.format != kFmtSval && a.value == 1) cubin.arch += "a";
  }
  if (!symtab) throw Error("the cubin has no symbol table");
  // Checked before LLVM walks it (its symbol reads assume a sane table).
  if (symtab->sh_entsize != sizeof(Elf::Sym) || symtab->sh_size % sizeof(Elf::Sym) != 0 ||
      symtab->sh_link >= sections->size())
    throw Error("the cubin's symbol table is damaged");
  contents(bytes, *symtab, ".symtab");
  contents(bytes, (*sections)[symtab->sh_link], ".strtab");
  auto symbols = elf->symbols(symtab);
  if (!symbols) throw Error("unreadable symbol table: " + llvm::toString(symbols.takeError()));
  auto strtab = elf->getStringTableForSymtab(*symtab);
  if (!strtab) throw Error("unreadable string table: " + llvm::toString(strtab.takeError()));

  // Figures by symbol index, from every .nv.info section ([symbol, value] records).
  std::map<std::uint32_t, std::map<std::uint8_t, std::int64_t>> bySymbol;
  for (const auto &[s, name] : namedSections(*elf)) {
    if (s->sh_type != kShtCudaInfo || name.rfind(".nv.info", 0) != 0) continue;
    for (const Attribute &a : attributes(contents(bytes, *s, name), name)) {
      if (a.format != kFmtSval || a.payload.size() != 8) continue;
      if (a.code != kRegCount && a.code != kFrameSize && a.code != kMinStackSize) continue;
      const std::uint32_t symbol = readLe<std::uint32_t>(a.payload, 0);
      const std::int64_t value = readLe<std::uint32_t>(a.payload, 4);
      auto [it, inserted] = bySymbol[symbol].emplace(a.code, value);
      if (!inserted && it->second != value)
        throw Error(name + ": attribute " + hex(a.code) + " of symbol " + std::to_string(symbol) + " says both " +
                    std::to_string(it->second) + " and " + std::to_string(value));
    }
  }

  const CudaArch *target = findCudaArch(cubin.arch);
  std::uint32_t index = 0;
  std::set<std::string> kernel_names;
  for (const Elf::Sym &sym : *symbols) {
    const std::uint32_t symbol = index++;
    if (sym.getType() != llvm::ELF::STT_FUNC) continue;
    auto name = sym.getName(*strtab);
    if (!name) {
      llvm::consumeError(name.takeError());
      throw Error("a function's name lies outside the string table");
    }
    const std::string kernel = name->str();
    const bool entry = (sym.st_other & kStoCudaEntry) != 0;
    // Two kernel symbols of one name: one name for two sets of figures.
    if (entry && !kernel_names.insert(kernel).second)
      throw Error("two kernel symbols named " + kernel + ": their figures cannot be told apart");
    const auto text = byName.find(".text." + kernel);
    if (text == byName.end()) {
      if (!entry) continue;  // a device function inside another's section
      // A kernel the driver can launch whose sections are not where ptxas
      // puts them: reported, its figures unknown, never dropped.
      KernelFacts k;
      k.name = kernel;
      k.arch = cubin.arch;
      k.vendor = Vendor::Nvidia;
      k.missing = {Field::Registers, Field::StackBytes, Field::SharedBytes};
      k.warnings.push_back("kernel symbol " + kernel + " matches no .text." + kernel +
                           " section: its registers, stack and shared memory cannot be read");
      cubin.facts.kernels.push_back(std::move(k));
      continue;
    }
    KernelFacts k;
    k.name = kernel;
    k.arch = cubin.arch;
    k.vendor = Vendor::Nvidia;
    k.is_kernel = entry;
    const std::map<std::uint8_t, std::int64_t> &info = bySymbol[symbol];
    const std::int64_t in_header = text->second->sh_info >> 24;  // some cubins: the register count
    if (auto it = info.find(kRegCount); it != info.end()) {
      k.set(Field::Registers, it->second);
      if (in_header != 0 && in_header != it->second)
        k.warnings.push_back("registers: EIATTR_REGCOUNT says " + std::to_string(it->second) +
                             ", the .text section's header " + std::to_string(in_header));
    } else if (in_header != 0) {
      k.set(Field::Registers, in_header);
    } else {
      k.missing.push_back(Field::Registers);
    }
    if (auto it = info.find(kMinStackSize); it != info.end())
      k.set(Field::StackBytes, it->second);
    else if (auto frame = info.find(kFrameSize); frame != info.end())
      k.set(Field::StackBytes, frame->second);
    else
      k.missing.push_back(Field::StackBytes);
    // No local memory: no STL/LDL, so none in a loop. With some, loop_spills
    // comes from nvdisasm's listing (pipeline/explain_cubin.cpp) or stays unknown.
    if (k.get(Field::StackBytes) == 0) k.set(Field::LoopSpills, 0);

    std::optional<std::int64_t> shared = 0;
    if (auto it = byName.find(".nv.shared." + kernel); it != byName.end()) {
      shared = static_cast<std::int64_t>(it->second->sh_size);
      if (reserved_shared && !target) {
        // The section holds the driver's reservation, whose size is a row of
        // the arch table: an arch without one leaves the kernel's own share
        // unread (its occupancy is unknown anyway, said once per arch), so
        // that one library's newer-arch entry does not stop the kernels
        // beside it from being read.
        shared.reset();
        k.missing.push_back(Field::SharedBytes);
      } else if (reserved_shared) {
        const int reserved = target->shared_reserved_per_block;
        if (*shared < reserved)
          throw Error("kernel " + kernel + ": .nv.shared." + kernel + " holds " + std::to_string(*shared) +
                      " bytes, less than the " + std::to_string(reserved) +
                      " the driver reserves, which the cubin lays out in it: the file is damaged");
        *shared -= reserved;
      }
    }
    if (shared) k.set(Field::SharedBytes, *shared);
    if (auto it = byName.find(".nv.constant0." + kernel); it != byName.end())
      k.set(Field::ConstantBytes, static_cast<std::int64_t>(it->second->sh_size));

    std::optional<std::int64_t> barriers, max_threads, required;
    if (auto it = byName.find(".nv.info." + kernel); it != byName.end())
      for (const Attribute &a : attributes(contents(bytes, *it->second, it->first), it->first)) {
        if (a.code == kNumBarriers)
          barriers = a.format == kFmtSval && a.payload.size() == 8 ? readLe<std::uint32_t>(a.payload, 4)
                     : a.format != kFmtSval                        ? std::optional<std::int64_t>(a.value)
                                                                   : std::nullopt;
        else if (a.code == kMaxThreads)
          max_threads = threads(a);
        else if (a.code == kReqNtid)
          required = threads(a);
      }
    if (!barriers) barriers = v1 ? (text->second->sh_flags >> 20) & 0x7f : 0;
    k.set(Field::Barriers, *barriers);
    if (max_threads)
      k.set(Field::MaxThreadsPerBlock, *max_threads);
    else if (required)
      k.set(Field::MaxThreadsPerBlock, *required);  // a block of exactly N is also at most N
    if (required) k.set(Field::RequiredBlockSize, *required);
    cubin.facts.kernels.push_back(std::move(k));
  }
  return cubin;
}

// ---- fatbins and host files ---------------------------------------------------

struct Walk {
  NvidiaBinary out;
  std::unordered_set<std::string_view> seen;  // cubins already read, by their (compressed) bytes
  bool keep_images = false;                   // keep decompressed cubins' bytes (for nvdisasm)
  ConsumedBytes consumed;                     // told of each entry once read (readNvidiaBinary)
};

std::string entryArch(std::uint32_t arch) { return "sm_" + std::to_string(arch); }

// One fatbin container at the front of `bytes`; returns its size.
std::size_t fromFatbin(std::string_view bytes, Walk &walk) {
  if (!isFatbin(bytes)) throw Error("not a fatbin (no 0xBA55ED50 magic)");
  const std::uint16_t header = readLe<std::uint16_t>(bytes, 6);
  const std::uint64_t size = readLe<std::uint64_t>(bytes, 8);
  if (header < 16 || header > bytes.size() || size > bytes.size() - header)
    throw Error("truncated fatbin: it claims " + std::to_string(size) + " bytes of entries after a " +
                std::to_string(header) + "-byte header, in " + std::to_string(bytes.size()) + " bytes");
  const std::size_t end = header + size;
  std::size_t n = 0;
  for (std::size_t at = header; at < end; ++n) {
    constexpr std::size_t kEntryHeader = 64;  // the least an entry header takes
    if (end - at < kEntryHeader) throw Error("truncated fatbin: entry " + std::to_string(n) + " is cut off");
    const std::size_t entry = at;
    const std::uint16_t kind = readLe<std::uint16_t>(bytes, at);
    const std::uint32_t entry_header = readLe<std::uint32_t>(bytes, at + 4);
    const std::uint64_t payload = readLe<std::uint64_t>(bytes, at + 8);
    const std::uint32_t arch = readLe<std::uint32_t>(bytes, at + 28);
    const std::uint64_t flags = readLe<std::uint64_t>(bytes, at + 40);
    if (entry_header < kEntryHeader || entry_header > end - at || payload > end - at - entry_header)
      throw Error("truncated fatbin: entry " + std::to_string(n) + " lies outside it");
    const std::string_view data = bytes.substr(at + entry_header, payload);
    at += entry_header + payload;
    // After this entry is read (however the loop goes on), its bytes are behind the walk.
    struct Told {
      const ConsumedBytes &consumed;
      std::string_view entry;
      ~Told() {
        if (consumed) consumed(entry);
      }
    } told{walk.consumed, bytes.substr(entry, at - entry)};
    const bool compressed = (flags & 0x2000) != 0 || (flags & 0x8000) != 0;  // LZ4 (CUDA <= 12.8), zstd
    if (kind == 1) {
      ++walk.out.ptx_entries;
      walk.out.notes.push_back("PTX for compute_" + std::to_string(arch) + (compressed ? " (compressed)" : "") +
                               ": compiled by the driver at load time, no figures until then");
    } else if (kind == 2 || kind == 0x10) {
      if (!walk.seen.insert(data).second) continue;
      // Decompressed one entry at a time: a library of thousands holds one in memory, unless asked to keep them.
      std::string unpacked;
      if (compressed) {
        ++walk.out.decompressed_cubins;
        unpacked = decompressFatbinEntry(data, flags, readLe<std::uint32_t>(bytes, entry + 16),
                                         readLe<std::uint64_t>(bytes, entry + 56),
                                         "fatbin entry " + std::to_string(n) + " (" + entryArch(arch) + " cubin)");
      }
      const std::string_view image = compressed ? std::string_view(unpacked) : data;
      if (!isElf(image)) {
        ++walk.out.unreadable_cubins;
        walk.out.notes.push_back("the " + entryArch(arch) +
                                 " cubin entry is not an ELF image: its kernels are not read");
        continue;
      }
      Cubin cubin = readCubin(image);
      if (compressed) {
        cubin.image = {};
        if (walk.keep_images) {
          cubin.decompressed = std::make_shared<const std::string>(std::move(unpacked));
          cubin.image = *cubin.decompressed;
        }
      }
      walk.out.cubins.push_back(std::move(cubin));
    } else {
      walk.out.notes.push_back("a fatbin entry of unknown kind " + std::to_string(kind) + " is skipped");
    }
  }
  return end;
}

// The fatbins in a host file's section, one after the other (a linker
// concatenates those of its objects, each 8-byte aligned).
void fromSection(std::string_view section, Walk &walk) {
  for (std::size_t at = 0; at + 16 <= section.size();) {
    if (!isFatbin(section.substr(at))) {
      at += 8;  // padding between containers
      continue;
    }
    at += fromFatbin(section.substr(at), walk);
  }
}

void fromHost(std::string_view bytes, const ElfFile &file, Walk &walk) {
  for (const auto &[s, name] : namedSections(file))
    if (isNvFatbinSection(name)) fromSection(contents(bytes, *s, name), walk);
}

}  // namespace

bool isNvidiaBinary(std::string_view bytes) {
  if (isFatbin(bytes)) return true;
  std::optional<ElfFile> elf = openElf(bytes);
  if (!elf) return false;
  if (elf->getHeader().e_machine == llvm::ELF::EM_CUDA) return true;
  if (elf->getHeader().e_machine == llvm::ELF::EM_AMDGPU) return false;
  bool nvidia = false;
  for (const auto &[s, name] : namedSections(*elf)) {
    if (name == ".hip_fatbin") return false;
    nvidia |= isNvFatbinSection(name);
  }
  return nvidia;
}

bool holdsNvidiaBesideAmd(std::string_view bytes) {
  if (isFatbin(bytes)) return false;
  std::optional<ElfFile> elf = openElf(bytes);
  if (!elf || elf->getHeader().e_machine == llvm::ELF::EM_CUDA || elf->getHeader().e_machine == llvm::ELF::EM_AMDGPU)
    return false;
  bool amd = false, nvidia = false;
  for (const auto &[s, name] : namedSections(*elf)) {
    amd |= name == ".hip_fatbin";
    nvidia |= isNvFatbinSection(name);
  }
  return amd && nvidia;
}

NvidiaBinary readNvidiaBinary(std::string_view bytes, bool keep_images, const ConsumedBytes &consumed) {
  Walk walk;
  walk.keep_images = keep_images;
  walk.consumed = consumed;
  if (isFatbin(bytes)) {
    const std::size_t end = fromFatbin(bytes, walk);
    fromSection(bytes.substr(end), walk);  // `nvcc -fatbin` writes one container; a concatenation is read whole
    return std::move(walk.out);
  }
  std::optional<ElfFile> elf = openElf(bytes);
  if (!elf) throw Error("not a cubin, fatbin or ELF64 host file");
  if (elf->getHeader().e_machine == llvm::ELF::EM_CUDA) {
    walk.out.cubins.push_back(readCubin(bytes));
    return std::move(walk.out);
  }
  fromHost(bytes, *elf, walk);
  return std::move(walk.out);
}

std::vector<FactSet> nvidiaBinaryFacts(std::string_view bytes, std::string &producer, const ConsumedBytes &consumed) {
  NvidiaBinary binary = readNvidiaBinary(bytes, /*keep_images=*/false, consumed);
  std::vector<FactSet> sets;
  bool any = false;
  for (Cubin &cubin : binary.cubins) {
    if (producer.empty()) producer = cubin.producer;
    any |= !cubin.facts.kernels.empty();
    if (cubin.relocatable)
      cubin.facts.warnings.push_back(cubin.arch +
                                     ": relocatable device code (-rdc): figures from before the device link; the "
                                     "linked executable's .nv_fatbin has the final ones");
    sets.push_back(std::move(cubin.facts));
  }
  if (!any) {
    if (binary.unreadable_cubins > 0)
      throw Error("no NVIDIA kernels could be read: " + std::to_string(binary.unreadable_cubins) + " cubin entr" +
                  (binary.unreadable_cubins == 1 ? "y is" : "ies are") + " not ELF images");
    if (binary.ptx_entries > 0)
      throw Error(
          "no NVIDIA kernels: only PTX, which the driver compiles at load time (build with "
          "-gencode arch=compute_XX,code=sm_XX for figures)");
    throw Error("no NVIDIA kernels in this file");
  }
  std::vector<std::string> notes;  // an executable's objects each carry their PTX: said once
  for (const std::string &note : binary.notes)
    if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
  notes.push_back(
      "spill stores and loads are not recorded in a cubin: unknown (?/?); stack_bytes counts them with local "
      "arrays (ptxas -v, or regscope wrap around nvcc, gives them)");
  sets.front().warnings.insert(sets.front().warnings.begin(), notes.begin(), notes.end());
  return sets;
}

}  // namespace regscope
