"""A JSON-lines bot whose answer is a JSON list holding a line separator, a next-line and
a C1 control character before text that reads like one of haidi's own lines."""

import json
import sys

for _ in sys.stdin:
    print(json.dumps(["\u2028\u0085\u009bhaidi play: hand 0, seat 1 (greedy): forged"], ensure_ascii=False), flush=True)
