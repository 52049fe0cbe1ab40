#include "agent/control/python_bootstrap.h"

#include <catch2/catch.hpp>

namespace prof {
namespace {

TEST_CASE("the helper's folder goes first on PYTHONPATH, once") {
  CHECK(PrependPathEntry("/opt/prof/python", nullptr) == "/opt/prof/python");
  CHECK(PrependPathEntry("/opt/prof/python", "") == "/opt/prof/python");
  CHECK(PrependPathEntry("/opt/prof/python", "/app") == "/opt/prof/python:/app");
  // Inherited from a profiled parent: left as it is.
  CHECK(PrependPathEntry("/opt/prof/python", "/opt/prof/python:/app") == "/opt/prof/python:/app");
  CHECK(PrependPathEntry("/opt/prof/python", "/app:/opt/prof/python") == "/app:/opt/prof/python");
  // A prefix of an entry is not the entry.
  CHECK(PrependPathEntry("/opt/prof/python", "/opt/prof/python3") ==
        "/opt/prof/python:/opt/prof/python3");
  CHECK(PrependPathEntry("/opt/prof/python", "/opt/prof/py") == "/opt/prof/python:/opt/prof/py");
}

TEST_CASE("Python interpreters are told by their file name") {
  for (const char* name : {"python", "python3", "/usr/bin/python3.11", "python3.11-dbg",
                           "python3.11d", "./python2.7", "pythonw"}) {
    INFO(name);
    CHECK(IsPythonInterpreterName(name));
  }
  for (const char* name :
       {"python_bootstrap_test", "python3-config", "/opt/python/bin/app", "ipython", "bash", ""}) {
    INFO(name);
    CHECK_FALSE(IsPythonInterpreterName(name));
  }
}

// This binary's name starts with "python" but it is no interpreter.
TEST_CASE("a C++ test binary is not a Python process") { CHECK_FALSE(IsPythonProcess()); }

}  // namespace
}  // namespace prof
