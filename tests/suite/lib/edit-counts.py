#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Multiplies events of a count file: edit-counts.py IN OUT EVENT=FACTOR...
(counts rounded to integers, as a PMU gives them)."""
import json, sys
d = json.load(open(sys.argv[1]))
for x in sys.argv[3:]:
    ev, f = x.rsplit('=', 1)
    d['counts'][ev] = round(d['counts'][ev] * float(f))
json.dump(d, open(sys.argv[2], 'w'), indent=1)
