#include "agent/hooks/symbol_resolver.h"

#include <dlfcn.h>
#include <link.h>

#include <cstring>

namespace prof {
namespace {

// An address inside libprof.so, to recognize (and skip) our own object.
void* OwnObjectBase() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&ResolveNextSymbol), &info)) return info.dli_fbase;
  return nullptr;
}

struct Search {
  const char* name;
  void* own_base;
  void* found;
};

int VisitObject(struct dl_phdr_info* object, size_t, void* data) {
  auto* search = static_cast<Search*>(data);
  if (!object->dlpi_name || object->dlpi_name[0] == '\0') return 0;  // the main program
  void* handle = dlopen(object->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
  if (!handle) return 0;
  void* symbol = dlsym(handle, search->name);
  dlclose(handle);  // balances the RTLD_NOLOAD reference; the object stays loaded
  if (!symbol) return 0;
  Dl_info info;
  if (dladdr(symbol, &info) && info.dli_fbase == search->own_base) return 0;
  search->found = symbol;
  return 1;
}

}  // namespace

void* ResolveNextSymbol(const char* name) {
  if (void* symbol = dlsym(RTLD_NEXT, name)) return symbol;
  Search search{name, OwnObjectBase(), nullptr};
  dl_iterate_phdr(VisitObject, &search);
  return search.found;
}

}  // namespace prof
