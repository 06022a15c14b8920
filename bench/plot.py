#!/usr/bin/env python3
"""Summarise the attribute benchmark's raw lines into one table, a CSV and a PNG plot.

    bench/plot.py --raw RAW.csv [--csv TABLE.csv] [--png PLOT.png] [--notes NOTES.txt]

RAW.csv holds the lines the benchmarks printed, each prefixed with its round by ci/bench.sh:

    round,case,impl,median,min,max,unit,floor_ratio

For every case and implementation the table gives the median over rounds of the per-run
medians, and for the get cases the median over rounds of the ratio to the floor timed in the
same run (for mt_get_1thread and mt_get_2threads: to mt_floor_1thread and mt_floor_2threads).
"best peer / mpicache" is how many times better mpicache is than the better of MPICH and Open
MPI in that case: peer / mpicache where lower is better (times, bytes, MiB, mappings, and the
ratios of bench/attr_mem.c: address space / resident, VmRSS / the issue's limit), mpicache /
peer where higher is better (the mt_throughput_2v1 ratio, and the X_made counts of objects an
implementation managed to make); above 1 means mpicache wins. No ratio where a value it needs is
zero or negative (a library giving back more than it took), except that a best peer at 0 and
mpicache above it gives 0.

bench/attr_mem.c prints, for each kind of object it makes many of, X_asked (how many it asked
for) and X_made (how many the implementation made before a call failed). The X_asked rows are
not shown: an X_made cell below its X_asked is marked '*', and a note under the table says who
made how many of how many; that implementation's rows of the kind are over the objects it made.
Its X_baseline rows (what the process held before making the objects) are context: no
comparison with the peers.

The floor cases (floor, f_floor, and the multithreaded control mt_floor_1thread,
mt_floor_2threads, mt_floor_2v1) time the same trivial call whatever the implementation: no
comparison with the peers and no ratio to a floor. mt_floor_2v1 is the 2-thread scaling the
machine itself gives, to read mt_throughput_2v1 against; ratio rows never get a "/ floor" cell.

Only the standard library is needed for the table; the PNG needs matplotlib (skipped with a
note when it cannot be imported).
"""
import argparse
import csv
import statistics
import sys

IMPLS = ["mpicache", "mpich", "openmpi"]
COUNTS = [1, 16, 256, 4096]
# The floor itself (the same trivial call for every implementation): no comparison with the peers.
FLOORS = {"floor", "f_floor", "mt_floor_1thread", "mt_floor_2threads", "mt_floor_2v1"}
ASKED, MADE = "_asked", "_made"
# X_baseline rows (bench/attr_mem.c) are what the process held before the objects were made:
# context for the rows after them, no comparison with the peers.
BASELINE = "_baseline"


def higher_is_better(case):
    return case == "mt_throughput_2v1" or case.endswith(MADE)


def load(path):
    order, values, ratios, units = [], {}, {}, {}
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if not row or row[0].startswith("#") or len(row) < 8:
                continue
            _round, case, impl, median, _mn, _mx, unit, floor_ratio = row[:8]
            try:
                median = float(median)
            except ValueError:
                continue
            if case not in units:
                order.append(case)
                units[case] = unit
            values.setdefault((case, impl), []).append(median)
            if floor_ratio.strip():
                ratios.setdefault((case, impl), []).append(float(floor_ratio))
    med = {k: statistics.median(v) for k, v in values.items()}
    rat = {k: statistics.median(v) for k, v in ratios.items()}
    return order, units, med, rat


def vs_peer(case, unit, med):
    if case in FLOORS or case.endswith(BASELINE):
        return None
    mine = med.get((case, "mpicache"))
    peers = [med[(case, p)] for p in IMPLS[1:] if (case, p) in med]
    if mine is None or not peers or mine <= 0:
        return None
    if higher_is_better(case):
        best = max(peers)
        return mine / best if best > 0 else None
    best = min(peers)
    return best / mine if best >= 0 else None


def fmt(x, digits=1):
    if x is None:
        return "-"
    if abs(x) >= 1000:
        return f"{x:.0f}"
    if abs(x) >= 100:
        return f"{x:.1f}"
    if 0 < abs(x) < 0.01:  # a ratio far below 1: two significant digits, not 0.00
        return f"{x:.2g}"
    return f"{x:.{digits + 1}f}" if abs(x) < 10 else f"{x:.{digits}f}"


def short_of_asked(order, med, impls):
    """{(X_made case, impl): (made, asked)} where an implementation made fewer than asked."""
    short = {}
    for case in order:
        if not case.endswith(MADE):
            continue
        asked_case = case[: -len(MADE)] + ASKED
        for i in impls:
            made, asked = med.get((case, i)), med.get((asked_case, i))
            if made is not None and asked is not None and made < asked:
                short[(case, i)] = (made, asked)
    return short


def table(order, units, med, rat, impls, shown=lambda case: True):
    header = ["case", "unit"] + impls + ["best peer / mpicache"] + [f"{i} / floor" for i in impls]
    rows = []
    for case in order:
        if not shown(case):
            continue
        unit = units[case]
        row = [case, unit]
        row += [med.get((case, i)) for i in impls]
        row.append(vs_peer(case, unit, med))
        # A ratio to the floor only means something for a time per operation.
        floor_cells = unit == "ns/op" and case not in FLOORS
        row += [rat.get((case, i)) if floor_cells else None for i in impls]
        rows.append(row)
    return header, rows


def print_table(header, rows, impls, short):
    def cell(case, col, x):
        mark = "*" if col < len(impls) and (case, impls[col]) in short else ""
        return fmt(x) + mark

    text = [header] + [[r[0], r[1]] + [cell(r[0], c, x) for c, x in enumerate(r[2:])] for r in rows]
    widths = [max(len(str(r[c])) for r in text) for c in range(len(header))]
    lines = []
    for n, r in enumerate(text):
        cells = [str(r[0]).ljust(widths[0]), str(r[1]).ljust(widths[1])]
        cells += [str(x).rjust(w) for x, w in zip(r[2:], widths[2:])]
        lines.append("  ".join(cells))
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    print("\n".join(lines))


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for r in rows:
            w.writerow([r[0], r[1]] + ["" if x is None else f"{x:.4g}" for x in r[2:]])


def plot(path, med, impls):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        print(f"plot.py: matplotlib is not available ({e}): no PNG", file=sys.stderr)
        return False
    colors = {"mpicache": "tab:blue", "mpich": "tab:red", "openmpi": "tab:green"}
    fig, ax = plt.subplots(figsize=(8, 5.5), dpi=110)
    for impl in impls:
        for which, style, marker in (("first", "-", "o"), ("last", "--", "s")):
            xs, ys = [], []
            for n in COUNTS:
                v = med.get((f"comm_get_{n}_{which}", impl))
                if v is not None:
                    xs.append(n)
                    ys.append(v)
            if xs:
                ax.plot(xs, ys, style, marker=marker, color=colors.get(impl),
                        label=f"{impl}, {which}-set key")
    floors = [med[("floor", i)] for i in impls if ("floor", i) in med]
    if floors:
        f = statistics.median(floors)
        ax.axhline(f, color="gray", linestyle=":", label=f"floor (C call + load), {f:.1f} ns")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(COUNTS)
    ax.set_xticklabels([str(n) for n in COUNTS])
    ax.set_xlabel("attributes on the communicator")
    ax.set_ylabel("MPI_Comm_get_attr hit, ns per call (median)")
    ax.set_title("Attribute get latency against the number of attributes")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--raw", required=True)
    ap.add_argument("--csv")
    ap.add_argument("--png")
    ap.add_argument("--notes", help="where the runs' '#' lines are (named in the table's notes)")
    a = ap.parse_args()
    order, units, med, rat = load(a.raw)
    if not order:
        sys.exit(f"plot.py: no result lines in {a.raw}")
    present = {impl for (_case, impl) in med}
    impls = [i for i in IMPLS if i in present] + sorted(present - set(IMPLS))
    short = short_of_asked(order, med, impls)
    header, rows = table(order, units, med, rat, impls, lambda case: not case.endswith(ASKED))
    print_table(header, rows, impls, short)
    if short:
        where = f" in {a.notes}" if a.notes else ""
        print(f"\n* made fewer objects than asked: a call failed (the '#' lines{where} say why); "
              "that implementation's figures of the case are over the objects it made:")
        for (case, i), (made, asked) in sorted(short.items()):
            print(f"  {i}: {case} {made:.0f} of {asked:.0f}")
    if a.csv:
        header, rows = table(order, units, med, rat, impls)
        write_csv(a.csv, header, rows)
        print(f"\ntable: {a.csv}")
    if a.png and plot(a.png, med, impls):
        print(f"plot:  {a.png}")


if __name__ == "__main__":
    main()
