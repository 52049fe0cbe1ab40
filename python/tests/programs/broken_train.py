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
# PyTorch's own is a function of torch/nn/modules/module.py, whatever its name (1.13's
# _call_impl, torch 2's _wrapped_call_impl); the helper's wrapper is one of libprof's.
code = getattr(torch.nn.Module.__call__, "__code__", None)
print("Module.__call__ is PyTorch's own: %s"
      % (code is not None and code.co_filename.endswith("torch/nn/modules/module.py")))
