#!/usr/bin/env bash
# The seed-000 reproduction of README ("Provisioning"): one dsbench run over
# N seeded replays (default 500) of provisioning.md Part E, then a summary
# per strategy: mean ds-sim cost, cost / work floor (dsbench's perfect-packing
# cost, Σ actRunTime × 1 $/h), mean turnaround and the fraction of late runs
# (a job completed after 7 am, 82,800 s).
#   strategies/provisioning/replay000/study.sh [N] [estimate]
# Static pools: "static" = thr with p_min above the pool (never TERMs, boots on
# demand, central queue) on the replays with limit=3 and limit=4 servers; the
# dynamic strategies run on limit = p_max = 5.
set -euo pipefail
cd "$(dirname "$0")/../../.."
n="${1:-500}"
est="${2:-mean}"
opts="queue=gq,pmin=1,deadline=82800"
static="thr:queue=gq,pmin=5,deadline=82800"
go run ./cmd/dsbench --progress never -f csv --replay000 "seeds=0-$((n - 1)),limit=3|4|5,estimate=$est" \
  -a "$static" -a "thr:$opts" -a "thr-delay:$opts" -a "fluidplan:$opts" -a "costdp:$opts" \
  -a "costdp-nom:$opts" -a "provision:$opts" -a "bestpack-boot:$opts" -b "$static" |
python3 -c '
import csv, sys, collections
rows = list(csv.DictReader(sys.stdin))
agg = collections.defaultdict(list)
for r in rows:
    lim = r["config"].rsplit("-l", 1)[-1] if "-l" in r["config"] else "5"
    s = r["strategy"].split(":")[0]
    static = r["strategy"].startswith("thr:") and "pmin=5" in r["strategy"]
    if static and lim in ("3", "4"):
        agg["static-" + lim].append(r)
    elif not static and lim == "5":
        agg[s].append(r)
print("| strategy | runs | late runs | late fraction | mean cost ($) | cost / work floor | mean turnaround (s) | boots | terms |")
print("|---|---|---|---|---|---|---|---|---|")
for k in ["static-3", "static-4", "thr", "thr-delay", "fluidplan", "costdp", "costdp-nom", "provision", "bestpack-boot"]:
    rs = agg.get(k, [])
    if not rs: continue
    ok = [r for r in rs if r["status"] == "ok"]
    late = sum(1 for r in ok if float(r["metric:late"]) > 0)
    m = lambda f: sum(float(r[f]) for r in ok) / len(ok)
    print("| %s | %d/%d | %d | %.4f | %.2f | %.3f | %.0f | %.1f | %.1f |" % (k, len(ok), len(rs), late, late / len(ok),
          m("total_cost"), m("cost_ratio"), m("avg_turnaround"), m("metric:boots"), m("metric:terms")))
thr = agg["thr"]
print("work floor (mean packing cost, Σ act/3600 $): %.2f" % (sum(float(r["packing_cost"]) for r in thr) / len(thr)))
'
