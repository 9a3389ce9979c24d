"""A JSON-lines bot that looks for what it should not see: the log (``argv[2]``) and
haidi's memory, environment and open files. It writes what it found to ``argv[1]``
(one JSON object), then plays its first legal action."""

import json
import os
import sys

report, log = sys.argv[1], sys.argv[2]
found = {"pid": os.getpid()}


def haidi():
    pid = os.getppid()
    while pid > 1:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            if b"haidi" in f.read():
                return pid
        with open(f"/proc/{pid}/stat") as f:
            pid = int(f.read().rsplit(")", 1)[1].split()[1])
    return None


def attempt(what, fn):
    try:
        found[what] = fn()
    except OSError as e:
        found[what] = f"denied: {e.strerror}"


h = haidi()
found["haidi"] = h
attempt("fds", lambda: sorted(os.readlink(f"/proc/{h}/fd/{fd}") for fd in os.listdir(f"/proc/{h}/fd")))
attempt("environ", lambda: len(open(f"/proc/{h}/environ", "rb").read()))
attempt("mem", lambda: len(open(f"/proc/{h}/mem", "rb").read(1)))
for line in sys.stdin:
    found.setdefault("log_during_match", []).append(os.path.exists(log))
    with open(report, "w") as f:
        json.dump(found, f)
    print(json.dumps(json.loads(line)["observation"]["legal_actions"][0]), flush=True)
