"""A data-parallel loop on the CPU: a linear model, each step's gradients summed over the
ranks with gloo's all_reduce (one call per parameter: the weight and the bias), then SGD.
Nothing for the profiler in it.

    allreduce_train.py STEPS [FILE_RENDEZVOUS]

Under torchrun the process group comes from its variables (env://). Under srun, which sets
only SLURM_*, the ranks meet through FILE_RENDEZVOUS (a path that does not exist yet), so
the agent sees srun's variables alone, as it does in a job script that maps them itself.
"""
import os
import sys

import torch
import torch.distributed as distributed

import torch_without_libuv  # noqa: F401  (Debian's torch; see that file)


def main():
    steps = int(sys.argv[1])
    if "RANK" in os.environ:
        distributed.init_process_group("gloo")
    else:
        distributed.init_process_group("gloo", init_method="file://" + sys.argv[2],
                                       rank=int(os.environ["SLURM_PROCID"]),
                                       world_size=int(os.environ["SLURM_NTASKS"]))
    rank = distributed.get_rank()
    torch.manual_seed(rank)
    model = torch.nn.Linear(8, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(steps):
        optimizer.zero_grad()
        model(torch.randn(4, 8)).pow(2).mean().backward()
        for parameter in model.parameters():
            distributed.all_reduce(parameter.grad)
        optimizer.step()
    print("rank %d of %d: %d steps" % (rank, distributed.get_world_size(), steps))
    distributed.destroy_process_group()


if __name__ == "__main__":
    main()
