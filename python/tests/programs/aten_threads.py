"""Training in two epochs (DataLoader workers forked again for the second), one step under
the program's own legacy autograd profiler, then one epoch on another thread (its
workers forked from that thread). Prints "done"."""
import threading

import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.randn(32, 16), torch.randn(32, 1)), batch_size=8,
                    num_workers=2)
model = torch.nn.Linear(16, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss_function = torch.nn.MSELoss()


def train(epochs):
    for _ in range(epochs):
        for inputs, targets in loader:
            optimizer.zero_grad()
            loss_function(model(inputs), targets).backward()
            optimizer.step()


train(2)
with torch.autograd.profiler_legacy.profile() as profile:
    optimizer.zero_grad()
    loss_function(model(torch.randn(8, 16)), torch.randn(8, 1)).backward()
    optimizer.step()
assert any(event.name == "aten::addmm" for event in profile.function_events)
thread = threading.Thread(target=train, args=(1,))
thread.start()
thread.join()
print("done")
