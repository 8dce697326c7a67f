#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes docs/report-sample.png: the HTML report (`baretop-host report --html`)
# of a simulated run (SKL simulated PMU counting the workload model of three
# workloads, labelled SIMULATED in the page), rendered by headless Chromium
# through tests/suite/lib/check-html-chromium.py (which also checks that the
# page loads with no console error and no network request). The top of the
# page (2300 px) is kept. Needs chromium and chromium-driver (tools/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
make -s -j2 host >/dev/null
out=build/report-sample
rm -rf "$out" && mkdir -p "$out"
build/baretop-host run --sim=skl --quick -w multiply1 -w ptr-chase-dram -w branch-mispredict \
  --results-dir "$out/results" -q >/dev/null
(cd "$out" && ../baretop-host report results/000001.json --html report.html)
python3 tests/suite/lib/check-html-chromium.py --expect "SIMULATED" --screenshot docs/report-sample.png \
  --width 1280 --max-height 2300 "$out/report.html"
echo "docs/report-sample.png from $out/report.html"
