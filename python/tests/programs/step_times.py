"""Explicit steps of many small ATen operators, timed by the program itself: prints, as
its last line, the CLOCK_MONOTONIC ns at which it called step() for each step, as JSON.

    step_times.py STEPS OPERATORS   (OPERATORS torch.add calls a step)
"""
import json
import sys
import time

import torch

import libprof


def main():
    steps, operators = int(sys.argv[1]), int(sys.argv[2])
    torch.set_num_threads(1)
    value = torch.ones(4)
    reached = []
    for _ in range(steps):
        for _ in range(operators):
            value = value.add(1)
        reached.append(time.monotonic_ns())
        libprof.step()
    print(json.dumps(reached))


if __name__ == "__main__":
    main()
