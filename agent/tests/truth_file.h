// Test support: reads a workload's ground-truth JSON (testdata/workloads/README.md) with
// protobuf's JSON parser into a google.protobuf.Struct, and looks numbers up by path.
#ifndef PROF_AGENT_TESTS_TRUTH_FILE_H_
#define PROF_AGENT_TESTS_TRUTH_FILE_H_

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>

#include <google/protobuf/struct.pb.h>

namespace prof::testing {

class TruthFile {
 public:
  // An empty truth (every lookup 0) when the file cannot be read; ok() says which.
  explicit TruthFile(const std::string& path);
  bool ok() const { return ok_; }

  // The number at `path` under the root ("totals", "kernels", "count"); 0 when absent.
  double Number(std::initializer_list<std::string> path) const;
  // The counts of an object of objects, e.g. {"totals","kernels","by_name"} -> "count".
  std::map<std::string, uint64_t> Counts(std::initializer_list<std::string> path,
                                         const std::string& field) const;
  // The per-step value `field` under steps[step] at `path`.
  double StepNumber(int step, std::initializer_list<std::string> path) const;
  int StepCount() const;

 private:
  const google::protobuf::Value* Find(const google::protobuf::Value& from,
                                      std::initializer_list<std::string> path) const;
  google::protobuf::Value root_;
  bool ok_ = false;
};

}  // namespace prof::testing

#endif  // PROF_AGENT_TESTS_TRUTH_FILE_H_
