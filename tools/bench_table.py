#!/usr/bin/env python3
"""Turn ``horserace bench --format json`` output into the Markdown tables of
docs/performance-history.md.

    horserace bench --soak 1000000 --format json > bench.json
    python tools/bench_table.py bench.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(path: str) -> int:
    with Path(path).open(encoding="utf-8") as f:
        doc = json.load(f)
    print("| configuration | events | api | median hands/s | min | max |")
    print("|---|---|---|---:|---:|---:|")
    for row in doc["play"]:
        print(
            f"| {row['config']} | {'on' if row['events'] else 'off'} | {row['api']} | "
            f"{row['median_hands_per_second']:,} | {row['min_hands_per_second']:,} | {row['max_hands_per_second']:,} |"
        )
    soak = doc.get("soak")
    if soak:
        first, last = soak["samples"][0], soak["samples"][-1]
        print()
        print(
            f"Soak: {soak['hands']:,} two-player hands with events in {soak['seconds']} s; resident memory "
            f"{first['rss_kib'] / 1024:.1f} MiB after {first['hands']:,} hands, {last['rss_kib'] / 1024:.1f} MiB "
            f"after {last['hands']:,} (growth {soak['rss_growth_kib']} KiB). Peak: {doc['peak_rss_kib'] / 1024:.1f} MiB."
        )
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(4)
    sys.exit(main(sys.argv[1]))
