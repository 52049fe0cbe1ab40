"""A small CPU training loop (conv, ReLU, linear, cross-entropy, SGD with momentum, a
DataLoader in the process), deterministic, for comparing the agent's ATen operators with
torch.profiler's on the same iterations.

    aten_train.py STEPS                       runs STEPS iterations
    aten_train.py STEPS --torch-profiler A B  also profiles iterations A..B-1 with
                                              torch.profiler (CPU) and prints
                                              {"operator name": calls} as JSON, last line
    ... --torch-profiler A B --record-shapes  with record_shapes: prints {"operator name":
                                              {"input shapes": calls}} (key_averages
                                              grouped by input shape)
    ... --torch-profiler A B --user-scope     prints {"name": calls} of the
                                              record_function ranges only (RecordScope
                                              USER_SCOPE: torch's user_annotation)
Iteration i fetches batch i, then zero_grad, forward, loss, backward, optimizer step:
under the agent, step i is iteration i (its boundary is placed at the next fetch).
"""
import json
import sys
from collections import Counter

import torch
from torch.utils.data import DataLoader, TensorDataset


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.activation = torch.nn.ReLU()
        self.classifier = torch.nn.Linear(8 * 8 * 8, 10)

    def forward(self, images):
        return self.classifier(self.activation(self.conv(images)).flatten(1))


def main():
    steps = int(sys.argv[1])
    profiled = range(int(sys.argv[3]), int(sys.argv[4])) if "--torch-profiler" in sys.argv else ()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    images = torch.randn(steps * 4, 3, 8, 8)
    labels = torch.randint(0, 10, (steps * 4,))
    loader = DataLoader(TensorDataset(images, labels), batch_size=4)
    model = Net()
    loss_function = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    shapes = "--record-shapes" in sys.argv
    profiler = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU],
                                      record_shapes=shapes)
    batches = iter(loader)
    for index in range(steps):
        if index == (profiled[0] if profiled else -1):
            profiler.__enter__()
        inputs, targets = next(batches)
        optimizer.zero_grad()
        loss = loss_function(model(inputs), targets)
        loss.backward()
        optimizer.step()
        print("step %d loss %.6f" % (index, loss.item()))
        if index == (profiled[-1] if profiled else -1):
            profiler.__exit__(None, None, None)
    if profiled and shapes:
        by_shape = {}
        for row in profiler.key_averages(group_by_input_shape=True):
            by_shape.setdefault(row.key, {})[str(row.input_shapes)] = row.count
        print(json.dumps(by_shape))
    elif profiled and "--user-scope" in sys.argv:
        user = int(torch._C._profiler.RecordScope.USER_SCOPE)
        print(json.dumps(Counter(event.name for event in profiler.events()
                                 if event.scope == user)))
    elif profiled:
        print(json.dumps(Counter(event.name for event in profiler.events())))


if __name__ == "__main__":
    main()
