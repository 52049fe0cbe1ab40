// The step-marker table and the hooks cannot drift apart: every NCCL name that
// PROF_STEP_MARKER accepts is exported by libprof.so (so the rule can fire), and names
// of calls without a counting hook are refused (ApplyStepMarkers then warns).
#include "agent/hooks/nccl_functions.h"

#include <elf.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace prof {
namespace {

std::string LibprofPath() {
  const char* root = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  return std::string(root ? root : ".") + "/" + (workspace ? workspace : "prof") +
         "/agent/libprof.so";
}

// The names libprof.so defines in its dynamic symbol table (read from the file: loading
// it here would register trace.proto a second time).
std::set<std::string> ExportedNames(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(file)),
                                std::istreambuf_iterator<char>());
  std::set<std::string> names;
  if (bytes.size() < sizeof(Elf64_Ehdr)) return names;
  const auto* header = reinterpret_cast<const Elf64_Ehdr*>(bytes.data());
  const auto* sections = reinterpret_cast<const Elf64_Shdr*>(bytes.data() + header->e_shoff);
  for (int i = 0; i < header->e_shnum; ++i) {
    if (sections[i].sh_type != SHT_DYNSYM) continue;
    const char* strings = bytes.data() + sections[sections[i].sh_link].sh_offset;
    const auto* symbols = reinterpret_cast<const Elf64_Sym*>(bytes.data() + sections[i].sh_offset);
    for (size_t s = 0; s < sections[i].sh_size / sizeof(Elf64_Sym); ++s) {
      if (symbols[s].st_shndx != SHN_UNDEF) names.insert(strings + symbols[s].st_name);
    }
  }
  return names;
}

TEST_CASE("every NCCL marker name is a hook libprof.so exports") {
  const std::set<std::string> exported = ExportedNames(LibprofPath());
  REQUIRE(exported.count("ncclAllReduce") == 1);
  std::set<uint16_t> ids;
  for (uint16_t function = 0; function < kNcclFunctionCount; ++function) {
    const std::string name = NcclFunctionName(function);
    INFO(name);
    CHECK(exported.count(name) == 1);
    const uint16_t id = NcclMarkerApiId(name);
    CHECK(id != kApiNone);
    CHECK(id >= kApiCount);  // never a CUDA runtime id
    ids.insert(id);
  }
  CHECK(ids.size() == kNcclFunctionCount);  // one id per function
}

TEST_CASE("the collectives of NCCL 2.28 all count as markers") {
  for (const char* name : {"ncclAllReduce", "ncclBroadcast", "ncclBcast", "ncclReduce",
                           "ncclAllGather", "ncclReduceScatter", "ncclAlltoAll", "ncclGather",
                           "ncclScatter", "ncclSend", "ncclRecv", "ncclGroupEnd"}) {
    INFO(name);
    CHECK(NcclMarkerApiId(name) != kApiNone);
  }
}

TEST_CASE("names of calls the agent does not count are refused") {
  for (const char* name : {"ncclCommRevoke", "ncclCommSplit", "ncclAllToAll", "ncclFoo", ""}) {
    INFO(name);
    CHECK(NcclMarkerApiId(name) == kApiNone);
  }
  CHECK(std::string(NcclFunctionName(kNcclFunctionCount)).empty());
}

}  // namespace
}  // namespace prof
