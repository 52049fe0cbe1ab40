#include "agent/hooks/symbol_version.h"

#include <elf.h>

#include <cstdint>
#include <cstring>

namespace prof {
namespace {

struct DynamicTables {
  const ElfW(Sym) * symbols = nullptr;
  const char* strings = nullptr;
  const ElfW(Half) * versions = nullptr;  // .gnu.version: one entry per symbol
  const char* needed = nullptr;           // .gnu.version_r
  const char* defined = nullptr;          // .gnu.version_d
  const uint32_t* sysv_hash = nullptr;
  const uint32_t* gnu_hash = nullptr;
};

// glibc rewrites some d_ptr entries in place to run-time addresses (DT_SYMTAB, DT_STRTAB,
// DT_VERSYM, the hash tables) and leaves others (DT_VERNEED, DT_VERDEF) as offsets from
// the load base; an offset is always below the base of a relocated object.
const char* AtAddress(const LoadedObject& object, ElfW(Addr) value) {
  const uintptr_t address = value < object.base ? object.base + value : value;
  return reinterpret_cast<const char*>(address);
}

bool ReadDynamic(const LoadedObject& object, DynamicTables* tables) {
  const ElfW(Dyn)* dynamic = nullptr;
  for (int i = 0; i < object.program_header_count; ++i) {
    const ElfW(Phdr)& header = object.program_headers[i];
    if (header.p_type == PT_DYNAMIC) {
      dynamic = reinterpret_cast<const ElfW(Dyn)*>(object.base + header.p_vaddr);
    }
  }
  if (!dynamic) return false;
  for (; dynamic->d_tag != DT_NULL; ++dynamic) {
    const char* at = AtAddress(object, dynamic->d_un.d_ptr);
    switch (dynamic->d_tag) {
      case DT_SYMTAB: tables->symbols = reinterpret_cast<const ElfW(Sym)*>(at); break;
      case DT_STRTAB: tables->strings = at; break;
      case DT_VERSYM: tables->versions = reinterpret_cast<const ElfW(Half)*>(at); break;
      case DT_VERNEED: tables->needed = at; break;
      case DT_VERDEF: tables->defined = at; break;
      case DT_HASH: tables->sysv_hash = reinterpret_cast<const uint32_t*>(at); break;
      case DT_GNU_HASH: tables->gnu_hash = reinterpret_cast<const uint32_t*>(at); break;
      default: break;
    }
  }
  return tables->symbols && tables->strings && tables->versions;
}

struct GnuHashTable {
  uint32_t bucket_count;
  uint32_t first_hashed;  // symbols below this index (the undefined ones) are not hashed
  const uint32_t* buckets;
  const uint32_t* chains;
};

GnuHashTable ReadGnuHash(const uint32_t* table) {
  const uint32_t bloom_words = table[2];
  const auto* buckets = reinterpret_cast<const uint32_t*>(
      reinterpret_cast<const ElfW(Addr)*>(table + 4) + bloom_words);
  return GnuHashTable{table[0], table[1], buckets, buckets + table[0]};
}

uint32_t GnuHash(const char* name) {
  uint32_t hash = 5381;
  for (; *name; ++name) hash = hash * 33 + static_cast<unsigned char>(*name);
  return hash;
}

bool NameIs(const DynamicTables& tables, uint32_t index, const char* name) {
  return std::strcmp(tables.strings + tables.symbols[index].st_name, name) == 0;
}

// The .dynsym index of `name` (0: none). Undefined references sit before the hashed
// symbols (scanned); definitions are found through the hash table.
uint32_t SymbolIndex(const DynamicTables& tables, const char* name) {
  if (!tables.gnu_hash) {
    const uint32_t count = tables.sysv_hash ? tables.sysv_hash[1] : 0;
    for (uint32_t i = 1; i < count; ++i) {
      if (NameIs(tables, i, name)) return i;
    }
    return 0;
  }
  const GnuHashTable table = ReadGnuHash(tables.gnu_hash);
  for (uint32_t i = 1; i < table.first_hashed; ++i) {
    if (NameIs(tables, i, name)) return i;
  }
  if (table.bucket_count == 0) return 0;
  const uint32_t hash = GnuHash(name);
  const uint32_t bucket = table.buckets[hash % table.bucket_count];
  if (bucket < table.first_hashed) return 0;
  for (uint32_t i = bucket;; ++i) {
    const uint32_t chain = table.chains[i - table.first_hashed];
    if ((chain | 1) == (hash | 1) && NameIs(tables, i, name)) return i;
    if (chain & 1) return 0;
  }
}

// The version-table index of `name`'s entry, or 0 (unversioned / no entry).
ElfW(Half) VersionIndex(const DynamicTables& tables, const char* name) {
  const uint32_t index = SymbolIndex(tables, name);
  return index ? tables.versions[index] & 0x7fff : 0;  // bit 15 (hidden): not about the name
}

const char* NeededVersionName(const DynamicTables& tables, ElfW(Half) index) {
  for (const char* entry = tables.needed; entry;) {
    const auto* needed = reinterpret_cast<const ElfW(Verneed)*>(entry);
    const char* aux_entry = entry + needed->vn_aux;
    for (int i = 0; i < needed->vn_cnt; ++i) {
      const auto* aux = reinterpret_cast<const ElfW(Vernaux)*>(aux_entry);
      if (aux->vna_other == index) return tables.strings + aux->vna_name;
      aux_entry += aux->vna_next;
    }
    entry = needed->vn_next ? entry + needed->vn_next : nullptr;
  }
  return nullptr;
}

const char* DefinedVersionName(const DynamicTables& tables, ElfW(Half) index) {
  for (const char* entry = tables.defined; entry;) {
    const auto* defined = reinterpret_cast<const ElfW(Verdef)*>(entry);
    if (defined->vd_ndx == index && !(defined->vd_flags & VER_FLG_BASE)) {
      const auto* aux = reinterpret_cast<const ElfW(Verdaux)*>(entry + defined->vd_aux);
      return tables.strings + aux->vda_name;
    }
    entry = defined->vd_next ? entry + defined->vd_next : nullptr;
  }
  return nullptr;
}

}  // namespace

void BoundVersion(const LoadedObject& object, const char* name, char* version, size_t capacity) {
  if (capacity) version[0] = '\0';
  DynamicTables tables;
  if (!ReadDynamic(object, &tables)) return;
  const ElfW(Half) index = VersionIndex(tables, name);
  if (index < 2) return;  // 0: local, 1: global (unversioned)
  const char* found = NeededVersionName(tables, index);
  if (!found) found = DefinedVersionName(tables, index);
  if (found && std::strlen(found) < capacity) std::strcpy(version, found);
}

}  // namespace prof
