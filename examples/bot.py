"""A bot for `haidi play` in its JSON-lines protocol (docs/game.md, "Matches between bots").

    haidi play --bots random,greedy,"python examples/bot.py","python examples/bot.py" --games 100

haidi writes one request a line when the bot's seat is to act, a JSON object with the
observation of that seat; the bot answers with one line, one of the observation's
`legal_actions`. This one wins whenever it may, passes every other claim, and discards the
tile that has the fewest partners in its hand (copies of it, and suited tiles one or two
ranks away); it needs nothing but the standard library.
"""

import json
import re
import sys


def tiles(hand):
    """The concealed tiles of a hand in compact notation (`122689m14p7z`), as names
    such as `1m`; melds written in brackets are left out."""
    hand = re.sub(r"\[[^\]]*\]|\{[^}]*\}", "", hand)
    return [rank + suit for digits, suit in re.findall(r"(\d+)([mpsz])", hand) for rank in digits]


def partners(tile, held):
    """How many of the other tiles held could make a set with `tile`."""
    rank, suit = int(tile[0]), tile[1]
    near = {0} if suit == "z" else {-2, -1, 0, 1, 2}
    return sum(1 for t in held if t[1] == suit and int(t[0]) - rank in near) - 1


def decide(observation):
    legal = observation["legal_actions"]
    for kind in ("win", "pass"):
        if {"type": kind} in legal:
            return {"type": kind}
    discards = [a for a in legal if a["type"] == "discard"]
    if not discards:
        return legal[0]
    held = tiles(observation["hand"])
    return min(discards, key=lambda a: (partners(a["tile"], held), a["tile"][1] != "z"))


def main():
    for line in sys.stdin:
        if line.strip():
            request = json.loads(line)
            print(json.dumps(decide(request["observation"])), flush=True)


if __name__ == "__main__":
    main()
