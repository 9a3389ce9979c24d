"""A JSON-lines bot that plays its first legal action and leaves a helper that changes
its process id without end: each pass it forks, the parent ends and the child calls
``setsid`` (a new session, group and orphan each time), pausing ``argv[2]`` seconds
between passes. The helper notes its id in ``argv[1]`` and ends itself after 30 s (so
that a failing test leaves nothing running for long)."""

import json
import os
import sys
import time

out, pause = sys.argv[1], float(sys.argv[2])
if os.fork() == 0:
    os.setsid()
    end = time.monotonic() + 30
    last = 0.0
    while time.monotonic() < end:
        if os.fork():
            os._exit(0)
        os.setsid()
        if time.monotonic() - last > 0.05:
            last = time.monotonic()
            with open(out, "a") as f:
                f.write(f"{os.getpid()}\n")
        if pause:
            time.sleep(pause)
    os._exit(0)
for line in sys.stdin:
    print(json.dumps(json.loads(line)["observation"]["legal_actions"][0]), flush=True)
