"""A JSON-lines bot whose every answer is a list nested a thousand deep."""

import sys

for _ in sys.stdin:
    print("[" * 1000 + "]" * 1000, flush=True)
