// The interned definitions of one trace file (strings, kernel configurations, NCCL
// communicators, call stacks) as ChunkDecoder meets them. A reference to an id whose
// definition was in a lost chunk resolves to a placeholder and is counted. Ids come from
// the file and are untrusted: memory is O(definitions and distinct references), whatever
// the ids' values.
//
// Not thread-safe; one per file being read.
#ifndef PROF_PROTO_FILE_DICTIONARY_H_
#define PROF_PROTO_FILE_DICTIONARY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "proto/events.h"
#include "proto/trace.pb.h"

namespace prof {

class FileDictionary {
 public:
  // Records the definitions carried by `chunk`.
  void AddDefinitions(const trace::Chunk& chunk);

  // "" for id 0; "<unknown string N>" (counted) for an id never defined.
  absl::string_view String(StringId id);
  // nullptr (counted) for an unknown id.
  const KernelConfigValue* KernelConfig(KernelConfigId id);
  const CommunicatorValue* Communicator(CommunicatorId id);
  const std::vector<uint64_t>* CallStack(CallStackId id);
  // Symbolized frame names of a stack (empty when the agent recorded addresses only).
  std::vector<std::string> CallStackNames(CallStackId id);

  size_t string_count() const { return strings_defined_; }
  // References to ids whose definition never arrived (a lost chunk).
  uint64_t unknown_references() const { return unknown_references_; }
  // String definitions no reference can name (id 0, or past StringId's range): dropped.
  uint64_t dropped_definitions() const { return dropped_definitions_; }

 private:
  void DefineString(uint64_t id, const std::string& value);

  // strings_[id - 1] while id - 1 stays under a slack plus twice the definitions seen, so
  // an id from the file can never size an allocation; larger ids go to sparse_strings_.
  std::vector<std::string> strings_;
  std::vector<bool> string_defined_;
  absl::flat_hash_map<StringId, std::string> sparse_strings_;
  uint64_t strings_defined_ = 0;
  absl::flat_hash_map<KernelConfigId, KernelConfigValue> kernel_configs_;
  absl::flat_hash_map<CommunicatorId, CommunicatorValue> communicators_;
  absl::flat_hash_map<CallStackId, std::vector<uint64_t>> call_stacks_;
  absl::flat_hash_map<CallStackId, std::vector<StringId>> call_stack_names_;
  absl::flat_hash_map<StringId, std::string> placeholders_;
  uint64_t unknown_references_ = 0;
  uint64_t dropped_definitions_ = 0;
};

}  // namespace prof

#endif  // PROF_PROTO_FILE_DICTIONARY_H_
