#!/usr/bin/env python3
"""Side by side: Librarian against the TypeScript Librarian, interleaved spawns, medians and ratios.

    python3 scripts/bench/ratios.py --library /tmp/lib10k --librarian /tmp/librarian \
        --ts /tmp/ts/dist/bin.js --spawns 5 [--first-session] [--out FILE.json]

Each round spawns the TypeScript server once, then Librarian once (sidebyside.mjs, --reps 1), so
that other work on the machine slows both alike. Restart (the default): Librarian's index is built
first (`librarian index`, its time printed) and every spawn reuses it. --first-session: every
Librarian spawn gets a new, empty index folder, so its calls compete with its first build. Prints,
per step, the median of each server's spawns and their ratio (Librarian / TypeScript), and whether
the answers were the same size. Needs MCP_CLIENT_NODE_MODULES (see README.md).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def spawn(library, out, command):
    subprocess.run(["node", os.path.join(HERE, "sidebyside.mjs"), "--library", library, "--reps", "1",
                    "--out", out, "--"] + command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--library", required=True)
    ap.add_argument("--librarian", required=True, help="the built librarian binary")
    ap.add_argument("--ts", required=True, help="the TypeScript server's dist/bin.js")
    ap.add_argument("--spawns", type=int, default=5)
    ap.add_argument("--first-session", action="store_true")
    ap.add_argument("--out")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="librarian-ratios-")
    env = ["env", "LIBRARIAN_TOOLS=librarian-ts", "LIBRARY_CONVENTION=frontmatter", "LIBRARY_MAX_ANSWER_TOKENS=0"]
    build = None
    index_dir = os.path.join(work, "index")
    if not a.first_session:
        t = time.monotonic()
        subprocess.run(["env", "LIBRARY_CONVENTION=frontmatter", "LIBRARY_INDEX_DIR=" + index_dir, a.librarian, "index", "--root", a.library],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        build = time.monotonic() - t
        print(f"index built in {build:.1f} s", file=sys.stderr)
    runs = {"ts": [], "librarian": []}
    for i in range(a.spawns):
        runs["ts"].append(spawn(a.library, os.path.join(work, f"ts-{i}.json"), ["node", a.ts, "--docs-root", a.library]))
        d = index_dir
        if a.first_session:
            d = os.path.join(work, f"index-{i}")
        runs["librarian"].append(spawn(a.library, os.path.join(work, f"lib-{i}.json"),
                                       env + ["LIBRARY_INDEX_DIR=" + d, a.librarian, "--docs-root", a.library]))
        print(f"spawn {i + 1}/{a.spawns} done", file=sys.stderr)
    same = all(r["response_bytes"] == runs["ts"][0]["response_bytes"] for r in runs["ts"] + runs["librarian"])
    keys = list(runs["ts"][0]["stats_ms"].keys())
    table = {}
    for k in keys:
        m = {who: statistics.median(r["stats_ms"][k]["median"] for r in rs) for who, rs in runs.items()}
        table[k] = {"ts": m["ts"], "librarian": m["librarian"], "ratio": m["librarian"] / m["ts"] if m["ts"] else None}
    mode = "first session" if a.first_session else "restart"
    print(f"{mode}, {a.spawns} spawns each, medians; answers the same size: {same}")
    print(f"{'step':<16} {'TS':>10} {'Librarian':>10} {'ratio':>6}")
    for k, v in table.items():
        unit = " kB" if k.endswith("_kB") else ""
        print(f"{k:<16} {v['ts']:>10.1f} {v['librarian']:>10.1f} {v['ratio']:>6.2f}{unit}")
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"mode": mode, "library": a.library, "spawns": a.spawns, "build_s": build,
                       "same_bytes": same, "steps": table}, f, indent=2)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
