#include "agent/hooks/loaded_objects.h"

#include <cstddef>
#include <cstring>

namespace prof {
namespace {

void CopyPath(const char* name, char* path, size_t capacity) {
  if (capacity == 0) return;
  path[0] = '\0';
  if (name && std::strlen(name) < capacity) std::strcpy(path, name);
}

struct AdditionsQuery {
  unsigned long long additions = 0;
};

int ReadAdditions(struct dl_phdr_info* info, size_t size, void* data) {
  if (size >= offsetof(struct dl_phdr_info, dlpi_adds) + sizeof(info->dlpi_adds)) {
    static_cast<AdditionsQuery*>(data)->additions = info->dlpi_adds;
  }
  return 1;  // the counter is the same in every entry: the first suffices
}

struct HolderQuery {
  uintptr_t address;
  LoadedObject* object;
  bool found = false;
  bool first = true;
};

// Only reads the entry and copies its name (no loader call: see the header).
int CheckHolder(struct dl_phdr_info* info, size_t, void* data) {
  auto* query = static_cast<HolderQuery*>(data);
  const bool is_main_program = query->first;
  query->first = false;
  uintptr_t start = UINTPTR_MAX, end = 0;
  bool holds = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& header = info->dlpi_phdr[i];
    if (header.p_type != PT_LOAD) continue;
    const uintptr_t segment = info->dlpi_addr + header.p_vaddr;
    if (segment < start) start = segment;
    if (segment + header.p_memsz > end) end = segment + header.p_memsz;
    if (query->address >= segment && query->address < segment + header.p_memsz) holds = true;
  }
  if (!holds) return 0;
  LoadedObject* object = query->object;
  object->start = start;
  object->end = end;
  object->base = info->dlpi_addr;
  object->program_headers = info->dlpi_phdr;
  object->program_header_count = info->dlpi_phnum;
  object->is_main_program = is_main_program;
  CopyPath(info->dlpi_name, object->path, sizeof object->path);
  query->found = true;
  return 1;
}

struct PathQuery {
  int index;
  char* path;
  size_t capacity;
  int seen = 0;
};

int CopyIndexedPath(struct dl_phdr_info* info, size_t, void* data) {
  auto* query = static_cast<PathQuery*>(data);
  if (query->seen++ != query->index) return 0;
  CopyPath(query->seen == 1 ? "" : info->dlpi_name, query->path, query->capacity);
  return 1;
}

}  // namespace

unsigned long long LoadedObjectAdditions() {
  AdditionsQuery query;
  dl_iterate_phdr(ReadAdditions, &query);
  return query.additions;
}

bool FindObjectHolding(uintptr_t address, LoadedObject* object) {
  HolderQuery query{address, object};
  dl_iterate_phdr(CheckHolder, &query);
  return query.found;
}

bool LoadedObjectPath(int index, char* path, size_t capacity) {
  PathQuery query{index, path, capacity};
  return dl_iterate_phdr(CopyIndexedPath, &query) == 1;
}

}  // namespace prof
