#!/usr/bin/env python3
"""aten_cost.py's child loop (same model and seed, 20 warm-up and N counted iterations)
with os.getppid() just before and after the counted loop, for callgrind's
--dump-before=getppid; run by aten_callgrind.sh.

    aten_callgrind_loop.py plain|torch.profiler ITERATIONS READY_FILE GO_FILE
"""
import os
import sys
import time

import torch

from aten_cost import training_iteration

mode, iterations = sys.argv[1], int(sys.argv[2])
iteration = training_iteration()
# Instrumentation is switched on from outside (callgrind_control -i on) while this waits:
# the import of torch runs uninstrumented, many times faster under valgrind.
ready, go = sys.argv[3], sys.argv[4]
open(ready, "w").close()
while not os.path.exists(go):
    time.sleep(0.05)

for _ in range(20):
    iteration()
profiler = None
if mode == "torch.profiler":
    profiler = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU])
    profiler.__enter__()
os.getppid()
for _ in range(iterations):
    iteration()
os.getppid()
if profiler is not None:
    profiler.__exit__(None, None, None)
    print("operators", len(profiler.events()) / iterations)
