"""Which process the hooks run in.

A DataLoader worker runs the training script's dataset code with the hooks inherited (a
fork) or installed again (spawn, forkserver): it must not emit steps or phases as if it
were the training process. Other children are processes of their own (the agent gives
them their own files).
"""
import os
import sys

# multiprocessing's spawn starts `python -c '...spawn_main(...)' --multiprocessing-fork`,
# then sets sys.argv to the parent's: this must be read at interpreter start (_autostart).
maybe_worker = "--multiprocessing-fork" in getattr(sys, "argv", ())
_worker_info = None  # torch.utils.data.get_worker_info, looked up once in a child


def _after_fork_in_child():
    global maybe_worker
    maybe_worker = True


os.register_at_fork(after_in_child=_after_fork_in_child)


def in_dataloader_worker():
    """True inside a PyTorch DataLoader worker process (one branch elsewhere)."""
    if not maybe_worker:
        return False
    global _worker_info
    if _worker_info is None:
        from torch.utils.data import get_worker_info
        _worker_info = get_worker_info
    return _worker_info() is not None
