"""An ordinary PyTorch training script, with nothing for the profiler in it: a DataLoader
with two worker processes (and a Module as data transform, as torchvision's are), a small
MLP, a loss module, SGD. Prints one line per step.

    train.py [STEPS] [BATCH_SIZE]
"""
import sys

import torch
from torch.utils.data import DataLoader, Dataset


class Points(Dataset):
    def __init__(self, count):
        generator = torch.Generator().manual_seed(0)
        self.features = torch.randn(count, 16, generator=generator)
        self.transform = torch.nn.Identity()

    def __len__(self):
        return len(self.features)

    def __getitem__(self, index):
        point = self.transform(self.features[index])
        return point, point.sum(dim=0, keepdim=True)


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    batch_size = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    torch.manual_seed(0)
    loader = DataLoader(Points(steps * batch_size), batch_size=batch_size, num_workers=2)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(),
                                torch.nn.Linear(32, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_function = torch.nn.MSELoss()
    for index, (inputs, targets) in enumerate(loader):
        optimizer.zero_grad()
        loss = loss_function(model(inputs), targets)
        loss.backward()
        optimizer.step()
        print("step %d loss %.6f" % (index, loss.item()))
    print("trained %d steps" % (index + 1))


if __name__ == "__main__":
    main()
