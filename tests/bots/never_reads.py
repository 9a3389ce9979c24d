"""A JSON-lines bot that never reads its input and answers ``pass`` without end."""

import sys

while True:
    sys.stdout.write('{"type": "pass"}\n' * 64)
    sys.stdout.flush()
