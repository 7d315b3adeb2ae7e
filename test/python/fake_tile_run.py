#!/usr/bin/env python3
"""A stand-in for tile-run in tests of the tuner's plumbing: no GPU; each
candidate bundle 'PASSes' with a made-up time that makes candidate 2 the
fastest (its index from the file name)."""
import re, sys
bundle = sys.argv[1]
index = int(re.search(r"candidate_(\d+)", bundle).group(1))
time = 9.0 if index == 2 else 12.0 + index
print(f"RESULT fake status=PASS rel_err=1e-3 time_us={time} spread_us=0.1")
