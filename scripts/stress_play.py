"""A stress run of ``haidi play``: hostile bots (``tests/bots``) and good ones over many
hands in each protocol, each bot started afresh every hand so that it attacks every
hand. It checks that the match ends, that the summary and the log are complete (the log
replays and its header agrees), that no process a bot noted is left, and reports
haidi's peak memory (its resident set, sampled from ``/proc`` every 0.1 s, and the
kernel's high-water mark ``VmHWM`` read last).

    python scripts/stress_play.py [--hands 200] [--protocol json botzone]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "tests" / "bots"
PY = f"{sys.executable} -S"


def _status(pid: int) -> dict[str, int]:
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    out[key] = int(value.split()[0])
    except OSError:
        pass
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def run(protocol: str, hands: int, tmp: Path) -> dict[str, object]:
    notes = tmp / f"pids-{protocol}.txt"
    log = tmp / f"games-{protocol}.jsonl"
    if protocol == "json":
        bots = [
            f"{PY} {ROOT / 'examples' / 'bot.py'}",
            f"{PY} {BOTS / 'never_reads.py'}",
            f"{PY} {BOTS / 'floods.py'}",
            f"{PY} {BOTS / 'helper.py'} {notes}",
        ]
        extra = ["--max-answer", "100000"]
    else:
        # pads.sh's globaldata (300 KB) is past --max-data: it is stopped at its first answer.
        bots = [f"sh {BOTS / name}" for name in ("zone_flood.sh", "pads_response.sh", "pads.sh 300000")] + ["greedy"]
        extra = ["--protocol", "botzone"]
    argv = [sys.executable, "-m", "haidi", "play", "--bots", ",".join(bots), "--games", str(hands), "--json"]
    argv += ["--timeout", "0.5", "--restart", "hand", "--log", str(log), "--bot-stderr-bytes", "4096", *extra]
    started = time.monotonic()
    # (Files, not pipes: a pipe this process did not read would fill and stop haidi.)
    with open(tmp / f"out-{protocol}", "w+b") as out_file, open(tmp / f"err-{protocol}", "w+b") as err_file:
        proc = subprocess.Popen(argv, stdout=out_file, stderr=err_file)
        peak, hwm = 0, 0
        while proc.poll() is None:
            st = _status(proc.pid)
            peak, hwm = max(peak, st.get("VmRSS", 0)), max(hwm, st.get("VmHWM", 0))
            time.sleep(0.1)
        out_file.seek(0)
        err_file.seek(0)
        out, err = out_file.read(), err_file.read()
    seconds = time.monotonic() - started
    summary = json.loads(out)
    replay = subprocess.run([sys.executable, "-m", "haidi", "replay", str(log), "--json"], capture_output=True)
    rows = [json.loads(line) for line in replay.stdout.splitlines()]
    left = []
    if notes.exists():
        left = [int(line.split()[1]) for line in notes.read_text().splitlines() if _alive(int(line.split()[1]))]
    return {
        "protocol": protocol,
        "status": proc.returncode,
        "seconds": round(seconds, 1),
        "hands": summary["hands"],
        "faults": [p["faults"] for p in summary["players"]],
        "stops": [len(p["stops"]) for p in summary["players"]],
        "replay_status": replay.returncode,
        "replayed_agree": sum(r.get("agrees") is True and "match" not in r for r in rows),
        "match_agrees": rows[-1] == {"match": True, "agrees": True, "authenticated": False},
        "stderr_bytes": len(err),
        "peak_rss_kib": peak,
        "vm_hwm_kib": hwm,
        "processes_left": left,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--protocol", nargs="+", default=["json", "botzone"])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for protocol in args.protocol:
            print(json.dumps(run(protocol, args.hands, Path(tmp))), flush=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    main()
