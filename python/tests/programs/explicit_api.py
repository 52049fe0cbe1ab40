"""The explicit API, as a paddle.profiler user writes it. Prints what the calls return.

    explicit_api.py [--loader]   (--loader: a torch DataLoader and an optimizer too)
"""
import sys
import time

import libprof as profiler


@profiler.RecordEvent("decorated")
def decorated():
    time.sleep(0.001)


def batches():
    if "--loader" not in sys.argv:
        return [None] * 5
    import torch
    from torch.utils.data import DataLoader, TensorDataset
    return DataLoader(TensorDataset(torch.ones(20, 3)), batch_size=4)


def main():
    print("agent loaded: %s" % profiler.agent_loaded())
    print("schedule: %s" % profiler.make_scheduler(closed=1, ready=1, record=2, repeat=1))
    optimizer = None
    if "--loader" in sys.argv:
        import torch
        weight = torch.nn.Parameter(torch.ones(1))
        optimizer = torch.optim.SGD([weight], lr=0.1)
    for _ in batches():
        with profiler.RecordEvent("work"):
            time.sleep(0.002)
        event = profiler.RecordEvent("manual")
        event.begin()
        event.end()
        decorated()
        if optimizer is not None:
            optimizer.step()  # the explicit steps below own the boundaries
        profiler.step(num_samples=4)
    print("step_info: %r" % profiler.step_info(unit="images"))
    print("step_info again: %r" % profiler.step_info())


if __name__ == "__main__":
    main()
