"""Three steps under a stand-in torch.cuda (there is no GPU here): sys.modules["torch"] is
a module whose cuda reports scripted caching-allocator figures, so the helper's memory
samples can be checked against known numbers. Never imports the real torch.

    memory_stats.py [--uninitialized]   (CUDA not initialized: nothing must be sampled)
"""
import sys
import types

import libprof as profiler

# Device 0's (allocated, reserved, peak) while step k runs; device 1 is never used.
FIGURES = [(1000, 4096, 1500), (3000, 8192, 5000), (2000, 8192, 5000)]


class StandInCuda:
    def __init__(self, initialized):
        self.initialized = initialized
        self.step = 0
        self.calls = 0

    def is_initialized(self):
        return self.initialized

    def device_count(self):
        return 2

    def memory_stats_as_nested_dict(self, device):
        self.calls += 1
        if device != 0:
            return {}
        allocated, reserved, peak = FIGURES[self.step]
        return {"allocated_bytes": {"all": {"current": allocated, "peak": peak}},
                "reserved_bytes": {"all": {"current": reserved}}}


def main():
    torch = types.ModuleType("torch")
    torch.cuda = StandInCuda("--uninitialized" not in sys.argv)
    sys.modules["torch"] = torch
    for step in range(len(FIGURES)):
        torch.cuda.step = step
        profiler.step(num_samples=1)
    print("stats calls: %d" % torch.cuda.calls)


if __name__ == "__main__":
    main()
