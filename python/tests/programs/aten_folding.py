"""Calls torch.profiler's table folds (EventList._remove_dup_nodes: a call that is the only
child of a call of the same name): conv and attention under autocast (bfloat16; torch
1.13's autocast aten::bmm calls the kernel's aten::bmm), and record_function ranges nested
in a range of their own name, alone (folded) and with a sibling (kept). A DataLoader
places the agent's step boundaries, as in aten_train.py.

    aten_folding.py STEPS                       runs STEPS iterations
    aten_folding.py STEPS --deep N              also nests N record_function ranges
                                                (deep0 > deep1 > ...) each iteration
    aten_folding.py STEPS --torch-profiler A B HELPER_FOLDER
        also profiles iterations A..B-1 with torch.profiler (CPU) and prints, last line,
        {"torch": its key_averages {name: calls}, "replay": the helper's replay of that
        result (aten_replay: torch's folding rule on the event tree's nanoseconds, the
        agent's calls faked), "tree": every event of the tree, nothing folded}.
torch's table nests by whole microseconds, so what it folds varies from run to run;
the replay's folds do not.
"""
import json
import sys

import torch
from torch.utils.data import DataLoader, TensorDataset

from replayed_counts import replayed_counts


class ConvAttention(torch.nn.Module):
    def __init__(self, channels=16, classes=10):
        super().__init__()
        self.conv = torch.nn.Sequential(torch.nn.Conv2d(3, channels, 3, padding=1),
                                        torch.nn.ReLU())
        self.attention = torch.nn.MultiheadAttention(channels, 4, batch_first=True)
        self.head = torch.nn.Linear(channels, classes)

    def forward(self, images):
        tokens = self.conv(images).flatten(2).transpose(1, 2)
        attended, _ = self.attention(tokens, tokens, tokens, need_weights=False)
        return self.head((tokens + attended).float().mean(dim=1))


def nested_ranges(tensor):
    record = torch.autograd.profiler.record_function
    with record("only_child"):  # torch folds the inner one: one call a step
        with record("only_child"):
            tensor.mul(2)
    with record("with_sibling"):  # the inner one has a sibling: two calls a step
        with record("with_sibling"):
            tensor.add(1)
        tensor.sub(1)


def deep_ranges(tensor, depth, level=0):
    if level < depth:
        with torch.autograd.profiler.record_function("deep%d" % level):
            deep_ranges(tensor, depth, level + 1)
    else:
        tensor.add(1)


def main():
    steps = int(sys.argv[1])
    depth = int(sys.argv[sys.argv.index("--deep") + 1]) if "--deep" in sys.argv else 0
    profiled = range(int(sys.argv[3]), int(sys.argv[4])) if "--torch-profiler" in sys.argv else ()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    loader = DataLoader(TensorDataset(torch.randn(steps * 4, 3, 8, 8),
                                      torch.randint(0, 10, (steps * 4,))), batch_size=4)
    model = ConvAttention()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_function = torch.nn.CrossEntropyLoss()
    profiler = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU])
    batches = iter(loader)
    for index in range(steps):
        if index == (profiled[0] if profiled else -1):
            profiler.__enter__()
        inputs, targets = next(batches)
        optimizer.zero_grad()
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = loss_function(model(inputs), targets)
        loss.backward()
        optimizer.step()
        nested_ranges(inputs)
        deep_ranges(inputs, depth)
        print("step %d" % index)
        if index == (profiled[-1] if profiled else -1):
            profiler.__exit__(None, None, None)
    if profiled:
        print(json.dumps(dict(replayed_counts(torch, profiler, sys.argv[5]),
                              torch={row.key: row.count for row in profiler.key_averages()})))


if __name__ == "__main__":
    main()
