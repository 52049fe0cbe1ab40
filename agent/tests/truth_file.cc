#include "agent/tests/truth_file.h"

#include <fstream>
#include <iterator>

#include <google/protobuf/util/json_util.h>

namespace prof::testing {

TruthFile::TruthFile(const std::string& path) {
  std::ifstream file(path);
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  ok_ = !text.empty() && google::protobuf::util::JsonStringToMessage(text, &root_).ok();
}

const google::protobuf::Value* TruthFile::Find(const google::protobuf::Value& from,
                                               std::initializer_list<std::string> path) const {
  const google::protobuf::Value* value = &from;
  for (const std::string& key : path) {
    if (!value->has_struct_value()) return nullptr;
    const auto& fields = value->struct_value().fields();
    auto it = fields.find(key);
    if (it == fields.end()) return nullptr;
    value = &it->second;
  }
  return value;
}

double TruthFile::Number(std::initializer_list<std::string> path) const {
  const google::protobuf::Value* value = Find(root_, path);
  return value ? value->number_value() : 0;
}

std::map<std::string, uint64_t> TruthFile::Counts(std::initializer_list<std::string> path,
                                                  const std::string& field) const {
  std::map<std::string, uint64_t> counts;
  const google::protobuf::Value* value = Find(root_, path);
  if (!value || !value->has_struct_value()) return counts;
  for (const auto& [name, entry] : value->struct_value().fields()) {
    if (entry.has_number_value()) {
      counts[name] = static_cast<uint64_t>(entry.number_value());
    } else if (entry.has_struct_value()) {
      auto it = entry.struct_value().fields().find(field);
      if (it != entry.struct_value().fields().end()) {
        counts[name] = static_cast<uint64_t>(it->second.number_value());
      }
    }
  }
  return counts;
}

int TruthFile::StepCount() const {
  const google::protobuf::Value* steps = Find(root_, {"steps"});
  return steps && steps->has_list_value() ? steps->list_value().values_size() : 0;
}

double TruthFile::StepNumber(int step, std::initializer_list<std::string> path) const {
  const google::protobuf::Value* steps = Find(root_, {"steps"});
  if (!steps || !steps->has_list_value() || step >= steps->list_value().values_size()) return 0;
  const google::protobuf::Value* value = Find(steps->list_value().values(step), path);
  return value ? value->number_value() : 0;
}

}  // namespace prof::testing
