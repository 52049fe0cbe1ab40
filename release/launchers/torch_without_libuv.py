"""Debian's python3-torch (2.6) is built without libuv, yet torch >= 2.4 asks for a libuv
TCPStore by default, and torchrun's own stores (static and c10d rendezvous) and a worker's
client store under torchrun ignore USE_LIBUV=0 (torch 2.6 reads it only where
init_process_group hosts the store itself). pip's torch has libuv and needs none of this.

Imported, it makes every TCPStore use the classic backend; run, it is torchrun:

    python3 torch_without_libuv.py --nproc_per_node 2 ...   (torchrun's arguments)
"""
import sys

import torch.distributed as distributed

_TCPStore = distributed.TCPStore


class TCPStore(_TCPStore):
    def __init__(self, *arguments, **options):
        options["use_libuv"] = False
        super().__init__(*arguments, **options)


distributed.TCPStore = TCPStore
# Its module, not `torch.distributed.rendezvous`: the package's attribute of that name is a
# function (torch.distributed re-exports rendezvous()), and the module bound TCPStore when
# torch.distributed was imported.
sys.modules["torch.distributed.rendezvous"].TCPStore = TCPStore

if __name__ == "__main__":
    from torch.distributed.run import main

    sys.argv[0] = "torchrun"
    sys.exit(main())
