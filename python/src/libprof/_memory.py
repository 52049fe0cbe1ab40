"""Device memory at step boundaries: the caching allocator's allocated, reserved and peak
bytes per device, handed to the agent (prof_memory_sample) just before and just after each
step boundary, so every recorded step has its end figures and a window that opens at a
boundary has its start figures. The Memory Summary shows them per step with the step where
the peak was reached; cudaMalloc/cudaFree alone cannot, since the allocator reserves large
blocks once and reuses them.

Cheap enough to be on by default: nothing happens unless the program has already imported
torch (never imported here) and initialized CUDA (torch.cuda.is_initialized()). Then one
torch.cuda.memory_stats_as_nested_dict(device) per device that holds memory (the public
call memory_allocated/memory_reserved/max_memory_allocated each make, without the flat
dict memory_stats builds and sorts); it reads the allocator's counters and creates no CUDA
context. The agent records the sample only while a window is recording.
"""
import sys

from libprof import _capi


def _cuda():
    """torch.cuda when the program has imported torch and initialized CUDA, else None."""
    torch = sys.modules.get("torch")
    cuda = getattr(torch, "cuda", None) if torch is not None else None
    if cuda is None:
        return None
    try:
        return cuda if cuda.is_initialized() else None
    except Exception:  # a torch without CUDA support, or one being torn down
        return None


def _figures(cuda, device):
    """(allocated, reserved, peak) bytes of `device`."""
    stats = cuda.memory_stats_as_nested_dict(device)
    allocated = stats.get("allocated_bytes", {}).get("all", {})
    reserved = stats.get("reserved_bytes", {}).get("all", {})
    return allocated.get("current", 0), reserved.get("current", 0), allocated.get("peak", 0)


def sample():
    """Hands each device's figures to the agent; a no-op without CUDA or without the agent.
    Returns False when there was no CUDA to sample (the boundary then skips its second
    sample: nothing it runs in between initializes CUDA)."""
    if not _capi.AGENT_LOADED:
        return False
    cuda = _cuda()
    if cuda is None:
        return False
    try:
        for device in range(cuda.device_count()):
            allocated, reserved, peak = _figures(cuda, device)
            if reserved or peak:  # a device the program never allocated on stays out
                _capi.memory_sample(device, allocated, reserved, peak)
    except Exception:  # never let a sample break the program's step
        pass
    return True
