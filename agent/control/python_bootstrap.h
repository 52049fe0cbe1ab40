// When libprof.so is loaded into a Python interpreter, makes the interpreter import the
// helper package shipped beside the library (python/src, copied there): the package's folder is
// prepended to PYTHONPATH, whose sitecustomize installs the PyTorch hooks. This works
// because the library constructor runs before the interpreter's main() reads PYTHONPATH.
//
// Where the folder is: PROF_PYTHON_PATH when set, else `python/` in the folder of the
// loaded libprof.so (where Bazel puts it: bazel-bin/agent/python/). In the wheel the
// folder holds sitecustomize.py only (libprof/_lib/python/), which imports the package
// two folders up. PROF_PYTHON=0 (or any
// off spelling of a PROF_* flag: false, no, off) turns this off. Processes that are not Python are
// left alone.
#ifndef PROF_AGENT_CONTROL_PYTHON_BOOTSTRAP_H_
#define PROF_AGENT_CONTROL_PYTHON_BOOTSTRAP_H_

#include <string>

namespace prof {

// True for an interpreter's file name: "python", then a version ("3", "3.11") and one of
// CPython's build suffixes ("d", "m", "u", "w", "-dbg"), e.g. python3.11-dbg. A program
// whose name merely starts with "python" (python_tool) is not one.
bool IsPythonInterpreterName(const char* path);

// True when the executable's or argv[0]'s base name is an interpreter's.
bool IsPythonProcess();

// `entry` prepended to the colon-separated `path`, unless it is one of its entries already
// (a Python child of a profiled Python process inherits the parent's PYTHONPATH).
std::string PrependPathEntry(const std::string& entry, const char* path);

// Called from the library constructor: sets PYTHONPATH in a Python process, or does nothing.
void OfferPythonHelper();

}  // namespace prof

#endif  // PROF_AGENT_CONTROL_PYTHON_BOOTSTRAP_H_
