#!/usr/bin/env python3
"""Right file, wrong chunk: which part of the score puts another chunk of
the target's file first.

Usage: chunk-confusions.py CODECTX DB SET.jsonl [SET.jsonl ...]

For every task of the sets whose target file is ranked first but whose
target symbol is not (k = 30, default ranker, hybrid; `codectx eval --json`
decides both ranks with its own matching), runs the task's query with
`codectx search --explain --json` and compares the parts of the score of
the first result with those of the first target hit (ScoreParts,
docs/API.md): one line per task, then per part the mean of target − first
and the number of tasks in which each of the two has the larger part.
Roots come from each set's header ($GOROOT, $HOME and $SCRATCH expanded
from the environment); the database must hold them (the eval indexes a
missing one). Run on demand (docs/EVAL.md, fifteenth session), never by
the tests.
"""
import json
import os
import subprocess
import sys

PARTS = ["keyword", "coverage", "semantic", "kind", "name", "length", "file", "direct", "demotion"]
K = "30"


def run(args):
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode not in (0, 1):  # 1: a search found nothing
        sys.exit("%s: %s" % (" ".join(args[:2]), out.stderr.strip()))
    return json.loads(out.stdout)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    codectx, db, sets = sys.argv[1], sys.argv[2], sys.argv[3:]
    diffs = {p: [] for p in PARTS + ["total"]}
    counted = absent = 0
    for path in sets:
        lines = [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
        root = os.path.expandvars(lines[0]["root"]) if "root" in lines[0] else None
        tasks = {t["id"]: t for t in lines if "id" in t}
        rep = run([codectx, "eval", path, "--db", db, "--json", "-k", K])
        for r in rep["ranks"]:
            if r["file_rank"] != 1 or r["symbol_rank"] == 1:
                continue
            if r["symbol_rank"] == 0:
                absent += 1
                continue
            t = tasks[r["id"]]
            args = [codectx, "search", t["query"], "--db", db, "--json", "--explain", "--no-index", "-k", K]
            if root:
                args += ["--root", root]
            res = run(args)["results"]
            first, target = res[0], res[r["symbol_rank"] - 1]
            d = {p: target["explain"].get(p, 0) - first["explain"].get(p, 0) for p in PARTS}
            d["total"] = target["score"] - first["score"]
            for p, v in d.items():
                diffs[p].append(v)
            counted += 1
            print("%-22s %-14s first %-40s target %-40s %s" % (
                os.path.basename(path)[:-6], r["id"], first["name"][:40], target["name"][:40],
                " ".join("%s%+.2f" % (p, v) for p, v in d.items() if abs(v) >= 0.005)))
    print("\n%d tasks with the target file first and a target symbol at ranks 2-%s; %d more with no target symbol in the first %s"
          % (counted, K, absent, K))
    print("%-10s %18s %16s %15s" % ("part", "mean target-first", "target larger", "first larger"))
    for p, v in diffs.items():
        if v:
            print("%-10s %18.3f %16d %15d" % (p, sum(v) / len(v), sum(x > 1e-9 for x in v), sum(x < -1e-9 for x in v)))


if __name__ == "__main__":
    main()
