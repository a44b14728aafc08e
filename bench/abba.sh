#!/usr/bin/env bash
# ABBA timing of the working tree's release build (A) and a baseline binary (B, default the
# build of 1e9d9f1 that scripts/compare-builds makes) at a million customers: ROUNDS (default 4)
# rounds of A B B A, so that neither binary always runs first; prints each one's wall and CPU
# times, their medians and minimums, and the ratios A/B. The data is scripts/bench's:
#   scripts/bench --customers 1000000 --sde ...     (generates .bench-data/c1000000-k1-s1/)
#   ROUNDS=5 bench/abba.sh [transactions.csv | transactions-sde.csv]
set -euo pipefail
cd "$(dirname "$0")/.."
D=.bench-data/c1000000-k1-s1
T=${1:-transactions.csv}
A=.build/release/grandfather
B=${BASELINE:-.build-baseline/build-1e9d9f1/release/grandfather}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat "$D/customers.csv" "$D/$T" > /dev/null
one() {
    rm -rf "$work/out"
    /usr/bin/time -f "$1 %e %U %S %M" "$2" audit --policy bench/policy.json --as-of 2026-11-01T00:00:00Z \
        --out "$work/out" "$D/customers.csv" "$D/$T" > /dev/null 2>> "$work/times"
}
for _ in $(seq 1 "${ROUNDS:-4}"); do one A "$A"; one B "$B"; one B "$B"; one A "$A"; done
python3 - "$work/times" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l[:2] in ("A ", "B ")]
wall = {k: [float(r[1]) for r in rows if r[0] == k] for k in "AB"}
cpu = {k: [float(r[2]) + float(r[3]) for r in rows if r[0] == k] for k in "AB"}
for k in "AB":
    print(k, "wall median %.2f min %.2f" % (statistics.median(wall[k]), min(wall[k])),
          "cpu median %.2f min %.2f" % (statistics.median(cpu[k]), min(cpu[k])),
          "all", " ".join("%.2f" % x for x in wall[k]))
m = statistics.median
print("A/B wall median %.3f, min %.3f; cpu median %.3f, min %.3f" % (
    m(wall["A"]) / m(wall["B"]), min(wall["A"]) / min(wall["B"]),
    m(cpu["A"]) / m(cpu["B"]), min(cpu["A"]) / min(cpu["B"])))
PY
