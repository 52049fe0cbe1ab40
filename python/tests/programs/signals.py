"""Signal behaviour a Python program can see, for signals_test.py. argv[1] names what to
do; every mode first marks steps through libprof's C API when it is loaded (so a session
has started and a recording window is open), then waits for the writer to have opened it."""
import ctypes
import os
import signal
import sys
import time

NAMES = ("SIGINT", "SIGTERM", "SIGHUP", "SIGABRT")


def mark_steps():
    library = ctypes.CDLL(None)
    if hasattr(library, "prof_step"):
        library.prof_step.argtypes = [ctypes.c_int64]
        for _ in range(3):
            library.prof_step(8)
    time.sleep(0.3)  # the writer has opened the window (and done what it does then)


def show(value):
    if value is None:
        return "None"
    if value in (signal.SIG_DFL, signal.SIG_IGN):
        return signal.Handlers(value).name
    return getattr(value, "__name__", "handler")


def dispositions():
    for name in NAMES:
        print(name, show(signal.getsignal(getattr(signal, name))))


def keyboard_interrupt():
    try:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
        print("not interrupted")
    except KeyboardInterrupt:
        print("KeyboardInterrupt caught")
    finally:
        print("finally ran")


def save_restore():
    old = signal.signal(signal.SIGTERM, lambda number, frame: None)
    signal.signal(signal.SIGTERM, old)  # TypeError when getsignal gave None
    print("restored", show(signal.getsignal(signal.SIGTERM)))


def own_handler():
    def on_term(number, frame):
        print("own handler ran for", signal.Signals(number).name)
        sys.stdout.flush()
        sys.exit(3)
    signal.signal(signal.SIGTERM, on_term)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(5)


def killed_by(name):
    sys.stdout.flush()
    os.kill(os.getpid(), getattr(signal, name))
    time.sleep(5)
    print("still alive")


def main():
    mode = sys.argv[1]
    mark_steps()
    sys.stdout.flush()
    if mode == "dispositions":
        dispositions()
    elif mode == "keyboard-interrupt":
        keyboard_interrupt()
    elif mode == "save-restore":
        save_restore()
    elif mode == "own-handler":
        own_handler()
    elif mode.startswith("killed-by-"):
        killed_by(mode[len("killed-by-"):])
    elif mode == "exit-from-thread":
        import threading
        thread = threading.Thread(target=lambda: os._exit(4))
        thread.start()
        thread.join()
    else:
        raise SystemExit("unknown mode " + mode)


if __name__ == "__main__":
    main()
