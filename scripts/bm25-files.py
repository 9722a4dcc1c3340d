#!/usr/bin/env python3
"""A lexical reference for change requests: BM25 over whole files.

Usage: bm25-files.py SET.jsonl ROOT CODECTX_REPORT.json

Ranks every text file under ROOT (hidden directories and node_modules
skipped, files over 1 MB or not UTF-8 skipped) by Okapi BM25 (k1 1.2,
b 0.75) of the task's query, words split at non-alphanumerics, camelCase
and snake_case, lower-cased, a short English stop list removed. Prints one
JSON line: the file MRR@10 and R@1 of the clean tasks, the leaky ones and
all, with each task's kind taken from codectx's report of the same set
(`codectx eval --json`), so both count the same tasks as leaky.
Run by scripts/eval-changes.sh with BASELINE=1; never by the tests.
"""
import json
import math
import os
import re
import sys
from collections import Counter

STOP = set("""a an and are as at be but by for from has have in into is it its of on or so
that the their then there these this to was were when which while will with not no""".split())
WORD = re.compile(r"[A-Za-z0-9]+")
CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def tokens(text):
    out = []
    for w in WORD.findall(text):
        for p in CAMEL.findall(w) or [w]:
            p = p.lower()
            if len(p) >= 2 and p not in STOP:
                out.append(p)
    return out


def corpus(root):
    docs = {}
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".") and x != "node_modules"]
        for f in files:
            p = os.path.join(d, f)
            try:
                if os.path.getsize(p) > 1 << 20:
                    continue
                with open(p, encoding="utf-8") as fh:
                    text = fh.read()
            except (OSError, UnicodeDecodeError):
                continue
            docs[os.path.relpath(p, root).replace(os.sep, "/")] = Counter(tokens(text))
    return docs


def main():
    set_path, root, report = sys.argv[1:4]
    kinds = {r["id"]: r.get("kind", "") for r in json.load(open(report))["ranks"]}
    docs = corpus(root)
    n = len(docs)
    lens = {f: sum(c.values()) for f, c in docs.items()}
    avg = sum(lens.values()) / max(n, 1)
    df = Counter()
    for c in docs.values():
        df.update(c.keys())
    groups = {"change": [], "change-leaky": []}
    for line in open(set_path).read().splitlines()[1:]:
        t = json.loads(line)
        q = set(tokens(t["query"]))
        scores = []
        for f, c in docs.items():
            s = 0.0
            for w in q:
                tf = c.get(w, 0)
                if tf:
                    idf = math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5))
                    s += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * lens[f] / avg))
            if s > 0:
                scores.append((-s, f))
        scores.sort()
        targets = {x["file"] for x in t["targets"]}
        rank = next((i + 1 for i, (_, f) in enumerate(scores[:10]) if f in targets), 0)
        groups.setdefault(kinds.get(t["id"], "change"), []).append(rank)

    def score(ranks):
        if not ranks:
            return None
        return {"tasks": len(ranks), "mrr@10": sum(1 / r for r in ranks if r) / len(ranks),
                "recall@1": sum(1 for r in ranks if r == 1) / len(ranks)}

    print(json.dumps({"clean": score(groups["change"]), "leaky": score(groups["change-leaky"]),
                      "all": score(groups["change"] + groups["change-leaky"])}))


if __name__ == "__main__":
    main()
