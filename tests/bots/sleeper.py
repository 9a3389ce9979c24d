"""Answers nothing and leaves a helper; notes its ids in ``argv[1]`` (for the signal tests)."""

import os
import sys
import time

if os.fork() == 0:
    os.setsid()
    with open(sys.argv[1], "a") as f:
        f.write(f"helper {os.getpid()}\n")
    time.sleep(300)
    os._exit(0)
with open(sys.argv[1], "a") as f:
    f.write(f"bot {os.getpid()}\n")
sys.stdin.readline()
time.sleep(300)
