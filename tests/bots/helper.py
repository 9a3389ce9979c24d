"""A JSON-lines bot that plays its first legal action and leaves helpers behind: one in
its session (a plain child), one that leaves the session (``setsid``) and whose parent
ends (so that it is an orphan), each writing its id to the file ``argv[1]``."""

import json
import os
import sys
import time

out = sys.argv[1]


def note(what):
    with open(out, "a") as f:
        f.write(f"{what} {os.getpid()}\n")


note("bot")
if os.fork() == 0:
    note("child")
    time.sleep(300)
    os._exit(0)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        note("setsid")
        time.sleep(300)
        os._exit(0)
    os._exit(0)
for line in sys.stdin:
    print(json.dumps(json.loads(line)["observation"]["legal_actions"][0]), flush=True)
