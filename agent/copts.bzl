"""Compiler options shared by every agent layer (agent/*/BUILD.bazel)."""

# The agent never throws into the host program. Exports are limited by libprof.lds.
# Its thread_local variables are all constant-initialized (the hot path relies on it):
# -fno-extern-tls-init drops the weak references to TLS init functions, which would
# otherwise stay undefined C++ symbols in libprof.so's dynamic table.
# -ffunction-sections (which -c opt sets anyway): one section per function, so the link can
# place the functions the load path runs side by side (agent/startup_order.txt) in every
# compilation mode.
AGENT_COPTS = [
    "-fno-exceptions",
    "-fno-extern-tls-init",
    "-ffunction-sections",
]
