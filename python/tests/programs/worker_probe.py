"""Runs under the agent: DataLoaders whose workers (forked, and spawned) call a Module, and
reports whether the helper opened a Forward phase there (it must not: workers are not the
training process) and in the parent (it must)."""
import torch
from torch.utils.data import DataLoader, Dataset

from libprof import _process
from libprof._torch import phases


class Probe(torch.nn.Module):
    def forward(self, value):
        return torch.tensor([float(phases.current.open), float(_process.in_dataloader_worker())])


class Probes(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, index):
        return Probe()(torch.zeros(1))


def workers_clean(start_method, workers):
    loader = DataLoader(Probes(), batch_size=2, num_workers=workers,
                        multiprocessing_context=start_method)
    seen = torch.cat(list(loader))
    return bool((seen[:, 0] == 0).all() and (seen[:, 1] == 1).all())


def main():
    clean = workers_clean("fork", 2) and workers_clean("spawn", 1)
    parent = Probe()(torch.zeros(1))
    print("workers saw no phase: %s; parent saw one: %s" % (clean, bool(parent[0] == 1)))


if __name__ == "__main__":
    main()
