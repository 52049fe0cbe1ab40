"""A paddle.profiler script with only the import changed (`import paddle.profiler as
profiler` -> `import libprof as profiler`), on PyTorch: windows from make_scheduler(closed=1,
ready=1, record=3, repeat=2) (steps 2-4 and 7-9), each exported by export_chrome_tracing
and summarized. Prints "returned <files>" for each window returned, for the test.

    paddle_style.py EXPORT_DIR
"""
import json
import sys

import torch

import libprof as profiler

export_dir = sys.argv[1]
chrome = profiler.export_chrome_tracing(export_dir)


def on_trace_ready(prof):
    chrome(prof)
    print("returned %s" % json.dumps(prof.result_files))
    prof.summary(views=[profiler.SummaryView.OverView, profiler.SummaryView.UDFView])


torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
with profiler.Profiler(targets=[profiler.ProfilerTarget.CPU, profiler.ProfilerTarget.GPU],
                       scheduler=profiler.make_scheduler(closed=1, ready=1, record=3, repeat=2),
                       on_trace_ready=on_trace_ready) as prof:
    for step in range(12):
        with profiler.RecordEvent("DataPrepare"):
            inputs = torch.randn(8, 16)
            targets = inputs.sum(dim=1, keepdim=True)
        loss = torch.nn.functional.mse_loss(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        prof.step(num_samples=8)
        if step % 5 == 0:
            print("step %d:%s" % (step, prof.step_info(unit="images")))
print("agent loaded: %s" % profiler.agent_loaded())
