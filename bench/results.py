#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Put one benchmark's section into the results file.

Usage: results.py FILE NAME "WHERE IT WAS MEASURED" "INPUTS" < SECTION

The results file holds one section per benchmark between
<!-- bench:NAME --> and <!-- /bench:NAME --> markers. `make bench BENCH=NAME`
replaces that section only, so a file assembled from several runs says,
section by section, when and on what each was measured. INPUTS (base,
hash and commit of the section's inputs, see bench/inputs.sh) goes into a
comment under the begin marker, for bench/results-check.sh.
"""
import re
import sys

HEADER = """# mglru_ext benchmark results

Written by `make bench` (bench/bench.sh); do not edit by hand. Each section
says when, on which kernel and on which bed it was measured; the bed is
described in [bed.md](bed.md). A section whose inputs (its policies,
workload, kernel series and bed scripts) changed after it was measured
says so at its top (`make results-check`).
"""


def main():
    if len(sys.argv) != 5:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    path, name, where, inputs = sys.argv[1:]
    body = sys.stdin.read().rstrip() + "\n"
    try:
        with open(path) as f:
            text = f.read()
    except FileNotFoundError:
        text = HEADER
    begin, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
    section = f"{begin}\n<!-- inputs {inputs} -->\n_{where}_\n\n{body}{end}"
    pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
    if pattern.search(text):
        text = pattern.sub(lambda m: section, text)
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
