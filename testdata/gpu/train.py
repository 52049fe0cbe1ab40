"""A PyTorch training loop for scripts/gpu_check.sh: conv and attention blocks, autocast
(AMP, bfloat16), a DataLoader with a worker process, AdamW. On the GPU when there is one,
else on the CPU (the --simulated check, Debian's CPU PyTorch 1.13).

  train.py OUT_JSON [--steps N] [--model mixed|mlp] [--torch-profiler A:B TRACE]
                    [--torch-warmup] [--compile] [--nccl]

  --model mlp          the launch-bound MLP of the first real-GPU check (12 x Linear+GELU),
                       for the cost figures; mixed (default): conv + attention
  --torch-profiler     torch.profiler (CPU activities, and CUDA on a GPU) over iterations
                       A..B-1 (B = "end": to the last), its Chrome trace written to TRACE,
                       with ProfilerStep#A..B-1 (torch 2; 1.13 misnumbers them); on a GPU
                       with CUDA synchronization events where torch has them (cuda_sync,
                       which the agent records)
  --torch-warmup       torch.profiler created one iteration before A, which is its
                       warm-up step (device tracing on, records discarded), as
                       schedule(wait=0, warmup=1, ...) does: Kineto enables CUPTI a step
                       before its trace and clears what it got at A (the H200's probe lost
                       kernels this way after libprof's window, gpu_check (c))
  --compile            torch.compile(model)
  --nccl               torch.distributed with NCCL at world size 1: every gradient all-reduced

One DataLoader worker: the training process unpickles a batch (aten::empty and aten::set_
for each tensor) in the fetch that takes it from the workers' queue. With two workers a
batch can arrive before the one fetched, and is then unpickled, and counted, in the
iteration before its own (on the H100 the agent's first recorded iteration had none, and
so did torch.profiler's first in (c)): which window holds those operators was a race
between the workers, not a property of either profiler. With one, batch i arrives, and is
unpickled, in iteration i.

Iteration i fetches batch i, then zero_grad, forward and loss under autocast, backward, the
all-reduces, the optimizer step and loss.item(). Under libprof step i is iteration i (the
helper puts the boundary at the next fetch), so PROF_SCHEDULE=A:B records the iterations
torch.profiler does with --torch-profiler A:B.
Writes OUT_JSON: {"device", "steps", "median_step_ms", "step_cpu_ms" (each step's
process CPU time, all its threads: scripts/step_cost.py), "all_reduce": {"calls_per_step",
"bytes_per_step"}, "torch_operators": {name: calls} (torch.profiler's key_averages) or null}.
"""
import json
import os
import statistics
import sys
import time

import torch
from torch.utils.data import DataLoader, TensorDataset


def option(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


class ConvAttention(torch.nn.Module):
    """Two conv blocks, then the feature map as tokens through self-attention."""

    def __init__(self, channels, classes):
        super().__init__()
        self.convs = torch.nn.Sequential(
            torch.nn.Conv2d(3, channels, 3, padding=1), torch.nn.BatchNorm2d(channels),
            torch.nn.ReLU(), torch.nn.Conv2d(channels, channels, 3, padding=1, stride=2),
            torch.nn.BatchNorm2d(channels), torch.nn.ReLU())
        self.attention = torch.nn.MultiheadAttention(channels, 4, batch_first=True)
        self.norm = torch.nn.LayerNorm(channels)
        self.head = torch.nn.Linear(channels, classes)

    def forward(self, images):
        tokens = self.convs(images).flatten(2).transpose(1, 2)  # (batch, h*w, channels)
        attended, _ = self.attention(tokens, tokens, tokens, need_weights=False)
        # LayerNorm in float32, as autocast does on the GPU (torch 1.13 on the CPU does not).
        return self.head(self.norm((tokens + attended).float()).mean(dim=1))


def build(model_name, device):
    if model_name == "mlp":
        layers = []
        for _ in range(12):
            layers += [torch.nn.Linear(256, 256), torch.nn.GELU()]
        model = torch.nn.Sequential(*layers, torch.nn.Linear(256, 10))
        return model.to(device), (256,)
    if model_name != "mixed":
        sys.exit("train.py: --model must be mixed or mlp, got %r" % model_name)
    # Smaller on the CPU, so the simulated check stays quick.
    size, channels = (32, 64) if device == "cuda" else (12, 32)
    return ConvAttention(channels, 10).to(device), (3, size, size)


def sync_events(torch, device):
    """torch.profiler's CUDA synchronization events (cat cuda_sync), which the agent always
    records: off by default in torch, so (b) would compare unlike with unlike. {} where
    this torch has no such option (1.13 has none) or there is no GPU."""
    config = getattr(torch.profiler, "_ExperimentalConfig", None)
    if device != "cuda" or config is None:
        return {}
    try:
        return {"experimental_config": config(enable_cuda_sync_events=True)}
    except TypeError:
        return {}


def main():
    out = sys.argv[1]
    steps = int(option("--steps", "12"))
    profiled = option("--torch-profiler")
    trace = sys.argv[sys.argv.index("--torch-profiler") + 2] if profiled else None
    if profiled:
        first, last = profiled.split(":")
        profiled = (int(first), steps if last == "end" else int(last))
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    if device == "cpu":
        torch.set_num_threads(1)  # the CI machine's cores are shared
    nccl = "--nccl" in sys.argv
    if nccl:
        import torch.distributed as dist
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", "29611")
        dist.init_process_group("nccl", rank=0, world_size=1)

    model, shape = build(option("--model", "mixed"), device)
    batch = 32 if device == "cuda" else 8
    data = TensorDataset(torch.randn(steps * batch, *shape), torch.randint(0, 10, (steps * batch,)))
    loader = DataLoader(data, batch_size=batch, num_workers=1)  # in order: see the header
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    forward = torch.compile(model) if "--compile" in sys.argv else model
    loss_function = torch.nn.CrossEntropyLoss()
    activities = [torch.profiler.ProfilerActivity.CPU]
    if device == "cuda":
        activities.append(torch.profiler.ProfilerActivity.CUDA)
    profiler = None
    all_reduce_calls = all_reduce_bytes = 0
    operators = None
    times, cpu_times = [], []
    batches = iter(loader)
    warmup = "--torch-warmup" in sys.argv
    for index in range(steps):
        if profiled and index == profiled[0] - (1 if warmup else 0):
            # A schedule that always records (after its warm-up step), numbered from this
            # iteration: torch then writes ProfilerStep#N ranges named as the agent's steps
            # (compare.py kineto's step check). torch asks the schedule for step 0 when the
            # profiler is made, before step_num is set: without a warm-up step that answer
            # must be RECORD too.
            action = torch.profiler.ProfilerAction
            warm_up = lambda step: warmup and step < profiled[0]
            profiler = torch.profiler.profile(
                activities=activities,
                schedule=lambda step: action.WARMUP if warm_up(step) else action.RECORD,
                **sync_events(torch, device))
            profiler.step_num = index
            profiler.__enter__()
        if device == "cuda":
            torch.cuda.synchronize()
        start, cpu_start = time.perf_counter(), time.process_time()
        inputs, targets = next(batches)
        inputs, targets = inputs.to(device), targets.to(device)
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device, dtype=torch.bfloat16):
            loss = loss_function(forward(inputs), targets)
        loss.backward()
        if nccl:
            for parameter in model.parameters():
                torch.distributed.all_reduce(parameter.grad)
                all_reduce_calls += 1
                all_reduce_bytes += parameter.grad.numel() * parameter.grad.element_size()
        optimizer.step()
        loss.item()  # waits for the GPU
        times.append((time.perf_counter() - start) * 1e3)
        cpu_times.append((time.process_time() - cpu_start) * 1e3)
        if profiler is not None and index == profiled[1] - 1:
            profiler.__exit__(None, None, None)
            profiler.export_chrome_trace(trace)
            # Operator calls from torch's own table: torch 1.13's CPU-only Chrome export
            # drops some nested calls of the same name (autocast's aten::bmm in aten::bmm).
            operators = {row.key: row.count for row in profiler.key_averages()}
            profiler = None
        elif profiler is not None:
            profiler.step()
    result = {"device": device, "steps": steps,
              "median_step_ms": statistics.median(times[min(5, steps // 2):]),
              "step_cpu_ms": cpu_times,
              "all_reduce": {"calls_per_step": all_reduce_calls // steps,
                             "bytes_per_step": all_reduce_bytes // steps},
              "torch_operators": operators}
    with open(out, "w") as f:
        json.dump(result, f)
    print("median step %.3f ms" % result["median_step_ms"])
    if nccl:
        torch.distributed.destroy_process_group()


if __name__ == "__main__":
    main()
