"""Prints which sitecustomize ran, whether the program's own one did, and whether the
helper is armed; with --train, also trains one step (the hooks must still work)."""
import builtins
import sys

module = sys.modules.get("sitecustomize")
print("sitecustomize: %s" % (getattr(module, "__file__", None),))
print("own sitecustomize ran: %s" % getattr(builtins, "OWN_SITECUSTOMIZE_RAN", False))
print("libprof armed: %s" % ("libprof" in sys.modules))

if "--train" in sys.argv:
    import torch
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model(torch.ones(2, 4)).sum().backward()
    optimizer.step()
    print("trained")
