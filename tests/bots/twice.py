"""A JSON-lines bot whose answer gives its action's "type" twice: the first a legal
action's, the second another."""

import json
import sys

for line in sys.stdin:
    legal = json.loads(line)["observation"]["legal_actions"][0]
    print('{"type": ' + json.dumps(legal["type"]) + ', "type": "pass"}', flush=True)
