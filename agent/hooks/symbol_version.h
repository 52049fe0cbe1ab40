// Which symbol version an object's own binding of a name asks for: the version its
// undefined reference needs (from .gnu.version_r, e.g. "libcudart.so.12" for a library
// linked against cudart 12), or the version of its own definition (.gnu.version_d, a
// library that contains and exports a runtime under its own node). The dynamic linker
// uses exactly this version when it binds the object's PLT slot, so the interposer
// resolves with it too (dlvsym) to reach what the caller would reach without the agent.
// Reads the object's dynamic section in memory; no loader call, no lock, no allocation.
#ifndef PROF_AGENT_HOOKS_SYMBOL_VERSION_H_
#define PROF_AGENT_HOOKS_SYMBOL_VERSION_H_

#include <cstddef>

#include "agent/hooks/loaded_objects.h"

namespace prof {

// Copies the version `object` binds `name` with into `version` (NUL-terminated); ""
// when the binding is unversioned, the object has no entry for `name` (it calls through
// a pointer it looked up), or the version does not fit.
void BoundVersion(const LoadedObject& object, const char* name, char* version, size_t capacity);

}  // namespace prof

#endif  // PROF_AGENT_HOOKS_SYMBOL_VERSION_H_
