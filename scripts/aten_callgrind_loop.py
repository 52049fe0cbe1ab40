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

mode, iterations = sys.argv[1], int(sys.argv[2])
torch.manual_seed(0)
torch.set_num_threads(1)
model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(),
                            torch.nn.Flatten(), torch.nn.Linear(8 * 8 * 8, 10))
loss_function = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
images, labels = torch.randn(4, 3, 8, 8), torch.randint(0, 10, (4,))
# Instrumentation is switched on from outside (callgrind_control -i on) while this waits:
# the import of torch runs uninstrumented, many times faster under valgrind.
ready, go = sys.argv[3], sys.argv[4]
open(ready, "w").close()
while not os.path.exists(go):
    time.sleep(0.05)


def iteration():
    optimizer.zero_grad()
    loss_function(model(images), labels).backward()
    optimizer.step()


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
