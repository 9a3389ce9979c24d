"""Parquet to results, rows a second: read with pyarrow, scored by ``evaluate_many`` and
written back in this process; the same through pandas; and the same on a local Dask
cluster of two worker processes (``haidi.dask.score_parquet``). The figures of the
README's "Data and scale" section.

    python scripts/parquet_scale.py [--rows 1000000] [--rules mcr changsha ...]

The dataset is distinct random situations (``scripts/situations.py``, MCR's from
``scripts/mcr_peer.py``) repeated to ``--rows`` rows and written as eight files in a
temporary folder. Each figure is the best of ``--repeat`` runs: rows a second by the
clock, and processor time a row summed over this process and the workers (what load on a
shared machine moves least). The Dask figures leave out the cluster's start and a first
run that warms the workers up.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))
import situations  # noqa: E402
from mcr_peer import random_situation  # noqa: E402

import haidi  # noqa: E402

FILES = 8


def table(rules: str, distinct: int, rows: int) -> pa.Table:
    rng = random.Random(7)
    if rules == "mcr":
        sits = [random_situation(rng) for _ in range(distinct)]
    else:
        sits = situations.scored(rng, rules, distinct, haidi.ruleset(rules).evaluate, haidi.HandError)
    keys = sorted({k for s in sits for k in s})
    one = pa.table({k: [s.get(k) for s in sits] for k in keys})
    return pa.concat_tables([one] * -(-rows // distinct)).slice(0, rows).combine_chunks()


def write(t: pa.Table, folder: Path) -> None:
    folder.mkdir()
    step = -(-t.num_rows // FILES)
    for i in range(FILES):
        pq.write_table(t.slice(i * step, step), folder / f"part-{i}.parquet")


def cpu(client) -> float:
    """Processor seconds used so far by this process and the cluster's workers."""
    return time.process_time() + sum(client.run(time.process_time).values())


def best(f, repeat: int, client) -> tuple[float, float]:
    """The least wall-clock seconds of ``repeat`` runs, and the least processor seconds."""
    walls, cpus = [], []
    for _ in range(repeat):
        c, t0 = cpu(client), time.perf_counter()
        f()
        walls.append(time.perf_counter() - t0)
        cpus.append(cpu(client) - c)
    return min(walls), min(cpus)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--distinct", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rules", nargs="+", default=["mcr", "changsha", "longgang"])
    ap.add_argument(
        "--serial-workers", action="store_true", help="run the Dask workers with HAIDI_PARALLELISM=0 (one core each)"
    )
    args = ap.parse_args()

    import pandas as pd
    from dask.distributed import Client, LocalCluster

    import haidi.dask

    with (
        tempfile.TemporaryDirectory() as tmp,
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            host="127.0.0.1",
            dashboard_address=None,
            env={"HAIDI_PARALLELISM": "0"} if args.serial_workers else {},
        ) as cluster,
        Client(cluster) as client,
    ):
        root = Path(tmp)
        print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; {args.rows:,} rows, best of {args.repeat}")
        print("rows a second (wall clock), and processor time a row (all processes)")
        print("| ruleset | pyarrow, this process | pandas, this process | Dask, 2 worker processes |")
        print("|---|---|---|---|")
        for rules in args.rules:
            src = root / f"{rules}-in"
            write(table(rules, args.distinct, args.rows), src)
            rs = haidi.ruleset(rules)
            n = 0

            def arrow(rs=rs, src=src, rules=rules) -> None:
                out = rs.evaluate_many(pq.read_table(src), output="arrow")
                pq.write_table(out, root / f"{rules}-direct.parquet")

            def pandas(rs=rs, src=src, rules=rules) -> None:
                out = rs.evaluate_many(pd.read_parquet(src), output="pandas")
                out.to_parquet(root / f"{rules}-pandas.parquet")

            def dask(src=src, rules=rules) -> None:
                nonlocal n
                n += 1
                haidi.dask.score_parquet(src, rules, destination=root / f"{rules}-dask-{n}")

            dask()  # the workers import haidi and build their tables
            figures = [best(f, args.repeat, client) for f in (arrow, pandas, dask)]
            cells = [f"{args.rows / wall:,.0f} rows/s, {1e6 * c / args.rows:.2f} µs" for wall, c in figures]
            print(f"| {rules} | " + " | ".join(cells) + " |")
        print(f"load {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
