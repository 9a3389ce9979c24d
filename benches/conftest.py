"""Benchmarks run on one core (no rayon threads) and end with ratios against the peers
measured in the same run: `pytest benches --benchmark-only`."""

import os

os.environ["HAIDI_PARALLELISM"] = "0"
# numpy's OpenBLAS threads spin after start-up and take the second core from the batches.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

#: (benchmark name, peer name, per-item counts are equal) pairs to report as ratios.
RATIOS: list[tuple[str, str, str]] = []


def ratio(name: str, peer: str, what: str) -> None:
    """Declares that the summary should print peer time / name time per item."""
    RATIOS.append((name, peer, what))


def pytest_terminal_summary(terminalreporter, config):
    session = getattr(config, "_benchmarksession", None)
    if session is None or not getattr(session, "benchmarks", None):
        return
    per_item = {}
    for b in session.benchmarks:
        n = b.extra_info.get("items", 1)
        per_item[b.name.split("[")[0]] = per_item[b.name] = b.stats.mean / n
    lines = []
    for name, peer, what in RATIOS:
        if name in per_item and peer in per_item:
            mine, theirs = per_item[name], per_item[peer]
            lines.append(
                f"{what}: haidi {mine * 1e6:.3f} us/item, peer {theirs * 1e6:.3f} us/item, ratio {theirs / mine:.1f}x"
            )
    if lines:
        terminalreporter.write_sep("=", "haidi vs peers (same run; one core unless it says every core)")
        for line in lines:
            terminalreporter.write_line(line)
    counted = [b for b in session.benchmarks if "items" in b.extra_info]
    if counted:
        terminalreporter.write_sep("=", "per item (mean and median of the rounds)")
        for b in sorted(counted, key=lambda b: b.name):
            n = b.extra_info["items"]
            terminalreporter.write_line(
                f"{b.name:58s} {n:7,d} items {b.stats.mean / n * 1e6:10.3f} us/item"
                f" {n / b.stats.mean:12,.0f}/s mean {n / b.stats.median:12,.0f}/s median"
            )
