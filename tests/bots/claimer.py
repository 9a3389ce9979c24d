"""A long-running Botzone bot (simple io) that claims whatever it can: PENG with two of
the tile in hand, else CHI from the seat before; it plays every tile it draws (摸切). Its
hand is tracked from the requests, so each claim it makes is one its hand holds (a claim
of the wall's last tile is not legal, and is the one fault it can make)."""

import sys
from collections import Counter

hand: Counter[str] = Counter()
me = -1
pending: list[str] | None = None


def other(exclude: set[str]) -> str | None:
    """A tile of the hand to discard after a claim, not one of ``exclude``."""
    for t in sorted(hand):
        if hand[t] > 0 and t not in exclude:
            return t
    return None


def respond(request: str) -> str:
    global me, pending
    w = request.split()
    if w[0] == "0":
        me = int(w[1])
        return "PASS"
    if w[0] == "1":
        for t in w[5 : 5 + 13]:
            hand[t] += 1
        return "PASS"
    if w[0] == "2":
        return "PLAY " + w[1]
    seat, act = int(w[1]), w[2]
    if seat == me and pending and act in ("PENG", "CHI"):
        for t in pending:
            hand[t] -= 1
        pending = None
        return "PASS"
    pending = None
    if seat != me and act in ("PLAY", "PENG", "CHI"):
        t = w[-1]
        if hand[t] >= 2:
            x = other({t})
            if x:
                pending = [t, t, x]
                return f"PENG {x}"
        if (seat + 1) % 4 == me and t[0] in "WBT":
            r = int(t[1])
            for lo in (r - 2, r - 1, r):
                need = [f"{t[0]}{k}" for k in (lo, lo + 1, lo + 2) if k != r]
                if lo >= 1 and lo + 2 <= 9 and all(hand[n] > 0 for n in need):
                    x = other(set(need) | {t})
                    if x:
                        pending = [*need, x]
                        return f"CHI {t[0]}{lo + 1} {x}"
    return "PASS"


def main() -> None:
    first = True
    for line in sys.stdin:
        if first:
            n = int(line)
            lines = [sys.stdin.readline().strip() for _ in range(2 * n - 1)]
            requests = lines[0::2]
            for r in requests[:-1]:
                respond(r)
            out = respond(requests[-1])
            first = False
        else:
            out = respond(line.strip())
        print(out)
        print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)


if __name__ == "__main__":
    main()
