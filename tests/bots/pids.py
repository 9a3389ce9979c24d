"""Plays its first legal action; notes the hand and its process id in ``argv[1]``."""

import json
import os
import sys

for line in sys.stdin:
    req = json.loads(line)
    with open(sys.argv[1], "a") as f:
        f.write(f"{req['hand']} {os.getpid()}\n")
    print(json.dumps(req["observation"]["legal_actions"][0]), flush=True)
