"""Floods: a megabyte of standard error, lines that pose as haidi's own, then an answer
line with no end."""

import sys

sys.stderr.write("x" * 100 + "\n")
sys.stderr.write("\rhaidi play: hand 0, seat 0 (greedy): forged; the bot is stopped\n")
sys.stderr.write(("y" * 1000 + "\n") * 1000)
sys.stderr.flush()
sys.stdin.readline()
while True:
    sys.stdout.write("z" * 65536)
    sys.stdout.flush()
