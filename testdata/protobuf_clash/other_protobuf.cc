// A stand-in for a host program's own protobuf runtime (a framework's bundled copy, as
// TensorFlow and Paddle builds export): it defines a google::protobuf symbol that Debian's
// libprotobuf.so.32 also defines, with an answer of its own, and calls it through the
// dynamic linker like any exported function of a shared library. If an earlier object in
// the process's global scope defines the same symbol (a preloaded agent that brings its
// own libprotobuf), that definition wins and other_runtime_version() says so.
#include <string>

namespace google {
namespace protobuf {
namespace internal {

// Debian's: std::string VersionString(int) -> "3.21.12".
__attribute__((visibility("default"), noinline)) std::string VersionString(int version) {
  return "other-runtime " + std::to_string(version);
}

}  // namespace internal
}  // namespace protobuf
}  // namespace google

extern "C" __attribute__((visibility("default"))) const char* other_runtime_version() {
  static std::string answer;
  answer = google::protobuf::internal::VersionString(4000000);
  return answer.c_str();
}
