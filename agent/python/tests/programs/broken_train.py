"""train.py, with the helper deliberately broken when it is there: its bookkeeping of
fetched batches raises. The program must train exactly as it does without the agent."""
import sys

import train

if "libprof._steps" in sys.modules:
    def broken_batch_fetched(*arguments):
        raise RuntimeError("deliberately broken for the test")

    sys.modules["libprof._steps"].boundaries.batch_fetched = broken_batch_fetched

train.main()

import torch  # noqa: E402

# The same with and without the agent: the failed helper put PyTorch back as it was.
print("Module.__call__ is PyTorch's own: %s"
      % (torch.nn.Module.__call__ is torch.nn.Module._call_impl))
