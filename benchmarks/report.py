#!/usr/bin/env python3
"""Turns sweep-bench's Google Benchmark JSON into docs/benchmarks.md and throughput plots.

Works from the JSON alone, so anyone can render their own run:

    python3 benchmarks/report.py results.json                      # -> docs/benchmarks.md, docs/plots/
    python3 benchmarks/report.py results.json --out build/gpu/report/benchmarks.md

Benchmark names are <algo>/<workload>/<impl>/<n> (Google Benchmark may append decorations such as
/manual_time). Rows are paired on (algo, workload, n); a sweep row's speedup against a stock row is
stock_time / sweep_time, so a value below 1 means sweep was slower. CUB at its strongest: CUB picks
its tuning from the type of its count, so sweep-bench times each CUB call with an `int` count
(impl cub_i32) and a 64-bit count (cub_i64); the report compares sweep with the faster form (one
`cub` row that names its form and keeps both times), and --stamp writes the winners into the JSON.
Where CUB has no in-place form of an in-place call (unique, partition), its row times the
out-of-place call on the same input, and every table, figure and summary line marks it "out of
place". Times are the median aggregate of the repetitions when present, else the mean aggregate,
else the (median of the) single runs. Throughputs are recomputed from the time and the `items` /
`min_bytes` counters so that every column of a row comes from the same statistic. The
device-to-device copy row (copy/.../cuda) is the ceiling.
"""

import argparse
import json
import os
import re
import subprocess
import sys
from collections import OrderedDict

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

STOCK_IMPLS = ("thrust", "cub")
IMPL_ORDER = {"sweep": 0, "thrust": 1, "cub": 2, "cuda": 3}
TIME_UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
# Google Benchmark appends these to a name: /manual_time, /real_time, /min_time:0.050, /repeats:5 ...
DECORATION = re.compile(r"^(manual_time|real_time|process_time|[a-z_]+:[^/]*)$")
PLOT_PREFIX = "bench_"


class ReportError(Exception):
    """A JSON file that is not sweep-bench output (or is empty)."""


# ----------------------------------------------------------------------------------------------
# Parsing
# ----------------------------------------------------------------------------------------------


CUB_FORM = re.compile(r"^cub_(i32|i64)$")
CUB_FORM_TEXT = {"i32": "int count", "i64": "64-bit count"}
# The CUB call an algorithm's cub rows time, where the algorithm's name does not say it (printed under
# the algorithm's heading).
CUB_CALL = {
    "unique_copy": "`cub::DeviceSelect::Unique`",
    "unique": "`cub::DeviceSelect::Unique` from the restored input into a separate output: CUB has no "
              "in-place unique",
    "partition_copy": "`cub::DevicePartition::If`, which writes one output: the selected items in order, "
                      "the rejected ones reversed behind them",
    "partition": "`cub::DevicePartition::If` from the restored input into a separate output: CUB has no "
                 "in-place partition",
    "stable_partition": "none (CUB has no stable partition)",
    "remove_if": "`cub::DeviceSelect::If` in place (its `d_data` overload) with the negated predicate",
    "reduce_by_key": "`cub::DeviceReduce::ReduceByKey`",
}
# Algorithms whose cub rows time an out-of-place call against sweep's and Thrust's in-place one: every
# table, the summary and the overview mark them "out of place".
CUB_OUT_OF_PLACE = ("unique", "partition")


def _is_impl(part):
    return part in IMPL_ORDER or part.startswith("sweep_") or CUB_FORM.match(part) is not None


def parse_name(name):
    """Splits '<algo>/<workload>/<impl>/<n>[/decorations]' into (algo, workload, impl, n), or None.

    The impl is the last known one (sweep, sweep_*, thrust, cub, cuda) followed by a number, so a
    workload may contain '/'. Numbers after n that repeat it (a size in the name and again as the
    benchmark's Arg) are dropped; other trailing values stay part of the workload."""
    parts = [p for p in name.split("/") if p and not DECORATION.match(p)]
    if len(parts) < 4:
        return None
    candidates = [i for i in range(2, len(parts) - 1) if _is_impl(parts[i]) and parts[i + 1].isdigit()]
    i = candidates[-1] if candidates else len(parts) - 2
    if not parts[i + 1].isdigit():
        return None
    extra = [p for p in parts[i + 2:] if p != parts[i + 1]]
    workload = "/".join(parts[1:i] + extra)
    return parts[0], workload, parts[i], int(parts[i + 1])


def _base_name(bench):
    """The benchmark's name without the aggregate suffix (_median, _mean, ...)."""
    if bench.get("run_name"):
        return bench["run_name"]
    name = bench["name"]
    aggregate = bench.get("aggregate_name")
    if aggregate and name.endswith("_" + aggregate):
        name = name[: -len(aggregate) - 1]
    return name


def _row_from(bench, statistic, repetitions):
    """One measured row: time in seconds and the throughputs derived from it."""
    seconds = float(bench["real_time"]) * TIME_UNIT_SECONDS[bench.get("time_unit", "ns")]
    items = bench.get("items")
    if items is None and "items_per_second" in bench:
        items = float(bench["items_per_second"]) * seconds
    min_bytes = bench.get("min_bytes")
    if min_bytes is None and "bytes_per_second" in bench:
        min_bytes = float(bench["bytes_per_second"]) * seconds
    return {
        "time_s": seconds,
        "items": float(items) if items is not None else None,
        "min_bytes": float(min_bytes) if min_bytes is not None else None,
        "items_per_s": float(items) / seconds if items is not None and seconds > 0 else None,
        "gb_per_s": float(min_bytes) / seconds / 1e9 if min_bytes is not None and seconds > 0 else None,
        "statistic": statistic,
        "repetitions": repetitions,
    }


def load(path):
    """Reads a Google Benchmark JSON file: returns (context, rows, errors, unparsed)."""
    with open(path, encoding="utf-8") as f:
        try:
            data = json.load(f)
        except json.JSONDecodeError as e:
            raise ReportError(f"{path}: not valid JSON ({e}); was the benchmark run interrupted?")
    if not isinstance(data, dict) or "benchmarks" not in data:
        raise ReportError(f"{path}: no 'benchmarks' list; not Google Benchmark JSON output")
    return (data.get("context", {}),) + select_rows(data["benchmarks"])


def select_rows(benchmarks):
    """Picks one statistic per benchmark: median aggregate > mean aggregate > single runs."""
    groups = OrderedDict()
    for bench in benchmarks:
        groups.setdefault(_base_name(bench), []).append(bench)
    rows, errors, unparsed, seen = [], [], [], {}
    for name, entries in groups.items():
        failed = [e for e in entries if e.get("error_occurred")]
        if failed:
            errors.append((name, failed[0].get("error_message", "error")))
            continue
        key = parse_name(name)
        if key is None:
            unparsed.append((name, "name is not `<algo>/<workload>/<impl>/<n>`"))
            continue
        if key in seen:
            unparsed.append((name, f"same algo/workload/impl/n as `{seen[key]}`; left out"))
            continue
        seen[key] = name
        by_aggregate = {e.get("aggregate_name"): e for e in entries if e.get("run_type") == "aggregate"}
        iterations = [e for e in entries if e.get("run_type", "iteration") == "iteration"]
        repetitions = int(entries[0].get("repetitions", len(iterations) or 1))
        if "median" in by_aggregate:
            row = _row_from(by_aggregate["median"], "median", repetitions)
        elif "mean" in by_aggregate:
            row = _row_from(by_aggregate["mean"], "mean", repetitions)
        elif iterations:
            candidates = [_row_from(e, "single", len(iterations)) for e in iterations]
            row = sorted(candidates, key=lambda r: r["time_s"])[(len(candidates) - 1) // 2]
            if len(candidates) > 1:
                row["statistic"] = "median"
        else:
            unparsed.append((name, "no median, mean or single run in the JSON"))
            continue
        row.update(name=name, algo=key[0], workload=key[1], impl=key[2], n=key[3])
        rows.append(row)
    return rows, errors, unparsed


# ----------------------------------------------------------------------------------------------
# Analysis
# ----------------------------------------------------------------------------------------------


def is_sweep(row):
    return row["impl"] == "sweep" or row["impl"].startswith("sweep_")


def merge_cub_forms(rows):
    """CUB at its strongest: the rows of one (algo, workload, n) timed in several count forms
    (cub_i32, cub_i64) become one `cub` row with the faster form's figures, `cub_form` naming it and
    `cub_forms` holding every form's time. A plain `cub` row (older JSON) stays as it is."""
    forms, order = OrderedDict(), []
    for row in rows:
        match = CUB_FORM.match(row["impl"])
        if match is None:
            order.append(row)
            continue
        key = (row["algo"], row["workload"], row["n"])
        if key not in forms:
            forms[key] = []
            order.append(key)
        forms[key].append((match.group(1), row))
    merged = []
    for item in order:
        if isinstance(item, dict):
            merged.append(item)
            continue
        form, best = min(forms[item], key=lambda fr: fr[1]["time_s"])
        merged.append(dict(best, impl="cub", cub_form=form,
                           cub_forms=OrderedDict(sorted((f, r["time_s"]) for f, r in forms[item]))))
    return merged


def cub_winners(rows):
    """{"<algo>/<workload>/<n>": winning form} for every merged CUB row (for the JSON's context)."""
    return OrderedDict((f"{r['algo']}/{r['workload']}/{r['n']}", r["cub_form"])
                       for r in rows if r.get("cub_form"))


def cub_out_of_place(row):
    return row["impl"] == "cub" and row["algo"] in CUB_OUT_OF_PLACE


def impl_label(row):
    """The impl column: a merged CUB row names its form and the other form's time, and a CUB row of an
    in-place algorithm says that CUB's call is out of place."""
    notes = ["out of place"] if cub_out_of_place(row) else []
    if row.get("cub_form"):
        others = [f"{CUB_FORM_TEXT[f]} {fmt_time(t)}" for f, t in row["cub_forms"].items() if f != row["cub_form"]]
        notes = [CUB_FORM_TEXT[row["cub_form"]] + (f"; {', '.join(others)}" if others else "")] + notes
    return row["impl"] + (f" ({'; '.join(notes)})" if notes else "")


def copy_ceiling(rows):
    """The device-to-device copy row with the highest GB/s (read + write), or None."""
    copies = [r for r in rows if r["algo"] == "copy" and r["impl"] == "cuda" and r["gb_per_s"]]
    return max(copies, key=lambda r: r["gb_per_s"]) if copies else None


def compare(rows):
    """For each sweep row: {stock impl: speedup}; speedup = stock_time / sweep_time."""
    index = {(r["algo"], r["workload"], r["n"], r["impl"]): r for r in rows}
    for row in rows:
        row["speedup"] = {}
        if not is_sweep(row):
            continue
        for impl in STOCK_IMPLS:
            other = index.get((row["algo"], row["workload"], row["n"], impl))
            if other is not None and row["time_s"] > 0:
                row["speedup"][impl] = other["time_s"] / row["time_s"]
    return rows


def slower_cases(rows):
    """(sweep row, stock impl, speedup) for every comparison in which sweep took longer."""
    out = []
    for row in rows:
        for impl in STOCK_IMPLS:
            s = row.get("speedup", {}).get(impl)
            if s is not None and s < 1.0:
                out.append((row, impl, s))
    return out


def algorithms(rows):
    """Algorithms in a stable order: the copy ceiling last, the others by first appearance."""
    seen = list(OrderedDict.fromkeys(r["algo"] for r in rows))
    return [a for a in seen if a != "copy"] + [a for a in seen if a == "copy"]


def sort_key(row):
    return (row["workload"], row["n"], IMPL_ORDER.get(row["impl"], 9), row["impl"])


# ----------------------------------------------------------------------------------------------
# Formatting
# ----------------------------------------------------------------------------------------------


def fmt_n(n):
    if n > 0 and n & (n - 1) == 0:
        return f"2^{n.bit_length() - 1}"
    return f"{n:,}"


def fmt_time(seconds):
    if seconds >= 1.0:
        return f"{seconds:.3f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3f} ms"
    return f"{seconds * 1e6:.1f} µs"


def fmt_rate(per_second):
    if per_second is None:
        return "—"
    for scale, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if per_second >= scale:
            return f"{per_second / scale:.2f} {suffix}/s"
    return f"{per_second:.1f} /s"


def fmt_gbs(gb):
    return "—" if gb is None else f"{gb:.0f}" if gb >= 100 else f"{gb:.1f}"


def fmt_speedup(s):
    return "—" if s is None else f"{s:.2f}x"


def fmt_percent_of(gb, ceiling):
    if gb is None or ceiling is None:
        return "—"
    return f"{100.0 * gb / ceiling['gb_per_s']:.0f}%"


def version_from_int(value):
    """CUDA versions come as 1000*major + 10*minor (13000 -> '13.0')."""
    try:
        v = int(value)
    except (TypeError, ValueError):
        return str(value) if value else None
    return f"{v // 1000}.{(v % 1000) // 10}"


# ----------------------------------------------------------------------------------------------
# Metadata
# ----------------------------------------------------------------------------------------------


def git_commit(repo):
    """Short commit of `repo` with '+dirty' when tracked files differ from it, or None."""
    try:
        head = subprocess.run(["git", "-C", repo, "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", repo, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + ("+dirty" if dirty else "")


def metadata(context, args):
    """Header facts: command-line values win over the JSON context, which wins over guesses."""
    commit = args.commit or context.get("commit")
    commit_note = ""
    if not commit:
        commit = git_commit(REPO_ROOT)
        commit_note = " (checkout that rendered the report; the JSON carries no commit)" if commit else ""
    return OrderedDict([
        ("GPU", "{}{}".format(context.get("gpu", "unknown"),
                              f" ({context['sm_count']} SMs)" if context.get("sm_count") else "")),
        ("NVIDIA driver", args.driver or context.get("nvidia_driver") or "not recorded"),
        ("CUDA driver API", version_from_int(context.get("cuda_driver")) or "not recorded"),
        ("CUDA runtime", version_from_int(context.get("cuda_runtime")) or "not recorded"),
        ("CCCL (Thrust, CUB)", args.cccl or context.get("cccl") or "not recorded"),
        ("Date of the run", context.get("date", "not recorded")),
        ("Commit", (commit or "not recorded") + commit_note),
    ])


def stamp(path, values):
    """Writes values (commit, cccl, nvidia_driver) into the JSON's context so the file stands alone."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    data.setdefault("context", {}).update({k: v for k, v in values.items() if v})
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)


# ----------------------------------------------------------------------------------------------
# Plots
# ----------------------------------------------------------------------------------------------


IMPL_STYLE = {"sweep": ("tab:red", "o", "-"), "sweep_cached": ("tab:orange", "D", "-."),
              "thrust": ("tab:blue", "s", "--"), "cub": ("tab:green", "^", "--")}
STOCK_STYLE = {"thrust": ("tab:blue", "s"), "cub": ("tab:green", "^")}
UNIT_OF_ALGO = {"sort": "keys", "copy_if": "items", "scan": "items", "histogram": "samples",
                "block_histogram": "samples", "reduce_by_key": "pairs"}
# Algorithms that move each item once through memory (read the input, write the output): their sweep
# points are annotated with the share of the copy ceiling they reach.
COPY_BOUND_ALGOS = ("copy_if", "scan", "unique_copy", "unique", "partition_copy", "partition", "stable_partition",
                    "remove_if", "reduce_by_key")
# A family over item types (scan's inclusive_u8 ... inclusive_u64: the prefix ends in u, i or f): the
# number is the item's width in bits.
ITEM_WIDTH_FAMILY = re.compile(r"(^|_)[uif]$")
# A workload whose name ends in a number (u8_keep50, float_unit_1024, u32_keep99.9) is one point of a family.
FAMILY = re.compile(r"^(.*?)(\d+(?:\.\d+)?)$")
# The x axis of a family, from the end of its name: (ending, label, logarithmic).
FAMILY_AXES = (("keep", "% of items kept", False), ("sel", "% of items selected", False),
               ("runs", "run length (items)", True))


def family_axis(algo, name):
    """(x label, logarithmic) of the family `name` (the workloads' names without their number)."""
    for ending, label, log in FAMILY_AXES:
        if name.endswith(ending):
            return label, log
    if "histogram" in algo:
        return "bins", True
    if ITEM_WIDTH_FAMILY.search(name):
        return "bits per item", True
    return "parameter", False


def _pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        matplotlib.rcParams["svg.hashsalt"] = "sweep-report"  # same JSON, byte-identical SVG
        import matplotlib.pyplot as plt
    except ImportError:
        print("report.py: matplotlib not found (Debian: apt install python3-matplotlib); no plots",
              file=sys.stderr)
        return None
    return plt


def figure_groups(rows):
    """The figures to draw: OrderedDict (algo, name) -> {"kind", "rows", "x_label"}.

    kind "size": one workload at several n (x = n); "latency": whole-call workloads (time per call
    against n); "family": workloads that differ by a number at the end of their name, one size each
    (x = that number: % kept, bins); "single": one workload at one size (bars per implementation)."""
    groups = OrderedDict()
    measured = [r for r in rows if r["algo"] != "copy" and r["impl"] != "cuda"]
    by_workload = OrderedDict()
    for r in sorted(measured, key=lambda r: (r["algo"],) + sort_key(r)):
        by_workload.setdefault((r["algo"], r["workload"]), []).append(r)
    families = OrderedDict()
    for (algo, workload), wrows in by_workload.items():
        match = FAMILY.match(workload)
        if match and len({r["n"] for r in wrows}) == 1 and not workload.startswith("latency"):
            number = match.group(2)
            value = float(number) if "." in number else int(number)
            families.setdefault((algo, match.group(1)), []).append((value, workload))
    in_family = {}
    for (algo, prefix), members in families.items():
        if len(members) >= 2:
            for value, workload in members:
                in_family[(algo, workload)] = (prefix.rstrip("_"), value)
    for (algo, workload), wrows in by_workload.items():
        if (algo, workload) in in_family:
            name, value = in_family[(algo, workload)]
            x_label, log_x = family_axis(algo, name)
            group = groups.setdefault((algo, name + "_family"), {
                "kind": "family", "rows": [], "title": f"{algo}: {name}_N by {x_label}",
                "x_label": x_label, "log_x": log_x})
            group["rows"].extend(dict(r, x=value) for r in wrows)
            continue
        kind = "latency" if workload.startswith("latency") else \
               "size" if len({r["n"] for r in wrows}) >= 2 else "single"
        groups[(algo, workload)] = {"kind": kind, "rows": [dict(r, x=r["n"]) for r in wrows],
                                    "title": f"{algo}: {workload}", "x_label": "n (items)", "log_x": True}
    return groups


def figure_base_name(algo, name):
    return PLOT_PREFIX + re.sub(r"[^A-Za-z0-9._-]+", "_", f"{algo}_{name}")


def _short_rate(per_second):
    for scale, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if per_second >= scale:
            return f"{per_second / scale:g} {suffix}/s"
    return f"{per_second:g} /s"


def _format_axes(ax, y_rate):
    """Readable log-axis labels at 1, 1.5, 2, 3, 5 and 7 times each power of ten: rates as 2 G/s."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 1.5, 2.0, 3.0, 5.0, 7.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: _short_rate(v) if y_rate else f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())


def _format_speedup_axis(ax, values):
    """A log speedup axis that always shows 1x and a few labelled steps around the data."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator
    lo = min(values + [1.0]) / 1.1
    hi = max(values + [1.0]) * 1.1
    ax.set_ylim(lo, hi)
    steps = (0.25, 0.5, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 2, 3, 5, 10, 20, 50, 100)
    ax.yaxis.set_major_locator(FixedLocator([t for t in steps if lo <= t <= hi]))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}x"))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.yaxis.set_minor_formatter(NullFormatter())


def _corner(fig, header):
    fig.text(0.99, 0.005, f"{header['GPU']}, commit {header['Commit'].split(' ')[0]}",
             ha="right", va="bottom", fontsize=7, color="gray")


def _save(fig, plt, plots_dir, base, exts):
    names = []
    for ext in exts:
        name = base + "." + ext
        # no Software/Date metadata: the same JSON renders byte-identical files
        meta = {"Software": None} if ext == "png" else {"Date": None, "Creator": None}
        fig.savefig(os.path.join(plots_dir, name), metadata=meta)
        names.append(name)
    plt.close(fig)
    return names


def overview_rows(rows):
    """(label, {stock impl: speedup}) for sweep's default row of every workload at its largest size,
    grouped by algorithm, each group sorted from the largest win to the worst loss."""
    out = []
    for algo in [a for a in algorithms(rows) if a != "copy"]:
        group = []
        for workload in OrderedDict.fromkeys(r["workload"] for r in rows if r["algo"] == algo):
            sweep_rows = [r for r in rows if r["algo"] == algo and r["workload"] == workload
                          and r["impl"] == "sweep" and r["speedup"]]
            if not sweep_rows:
                continue
            r = max(sweep_rows, key=lambda r: r["n"])
            mark = " [CUB out of place]" if algo in CUB_OUT_OF_PLACE and "cub" in r["speedup"] else ""
            group.append((f"{algo}: {workload} ({fmt_n(r['n'])}){mark}", r["speedup"]))
        group.sort(key=lambda item: -min(item[1].values()))
        out.append((algo, group))
    return [(algo, group) for algo, group in out if group]


def make_overview(plt, rows, plots_dir, header):
    groups = overview_rows(rows)
    if not groups:
        return None
    labels, values, separators = [], [], []
    for algo, group in groups:
        if labels:
            separators.append(len(labels) - 0.5)
        for label, speedup in group:
            labels.append(label)
            values.append(speedup)
    height = 1.2 + 0.26 * len(labels)
    fig, ax = plt.subplots(figsize=(8.0, height), dpi=110)
    ys = list(range(len(labels)))
    all_values = [v for speedup in values for v in speedup.values()]
    lo, hi = min(all_values + [1.0]) / 1.25, max(all_values + [1.0]) * 1.6
    ax.axvspan(lo, 1.0, color="tab:red", alpha=0.07)
    ax.axvline(1.0, color="black", linewidth=1)
    for impl, (color, marker) in STOCK_STYLE.items():
        pts = [(v[impl], y) for v, y in zip(values, ys) if impl in v]
        if pts:
            label = "vs stock Thrust (thrust::device)" if impl == "thrust" else "vs CUB (temp preallocated, its faster count type)"
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], color=color, marker=marker, s=34,
                       label=label, zorder=3)
    for v, y in zip(values, ys):
        text = " / ".join(fmt_speedup(v[i]) if i in v else "—" for i in STOCK_STYLE)
        ax.text(hi / 1.02, y, text, va="center", ha="right", fontsize=7)
    ax.text(hi / 1.02, -0.9, "vs Thrust / vs CUB", va="center", ha="right", fontsize=7, fontweight="bold")
    for sep in separators:
        ax.axhline(sep, color="gray", linewidth=0.5)
    ax.set_xscale("log")
    ax.set_xlim(lo, hi)
    ticks = [t for t in (0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 20, 50) if lo <= t <= hi]
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"{t:g}x" for t in ticks])
    ax.minorticks_off()
    ax.set_ylim(len(labels) - 0.5, -1.5)
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=7)
    ax.set_xlabel("speedup of sweep::par (stock time / sweep time; log scale, left of 1.0: sweep slower)")
    ax.set_title("sweep against what users have today, every workload at its largest size", fontsize=10, pad=20)
    ax.grid(True, axis="x", which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False)
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    _corner(fig, header)
    return _save(fig, plt, plots_dir, PLOT_PREFIX + "overview", ("png", "svg"))


def _metric(group, algo, row, ceiling):
    """(value, y label) of one row for its figure."""
    unit = UNIT_OF_ALGO.get(algo, "items")
    if group["kind"] == "latency":
        return row["time_s"] * 1e6, "time per call (µs, lower is better)"
    if row["items_per_s"] is None:
        return row["time_s"] * 1e3, "time (ms, lower is better)"
    return row["items_per_s"], f"{unit} per second (higher is better)"


def legend_name(algo, impl):
    """An implementation's name in a figure: CUB's out-of-place stand-in for an in-place call says so."""
    return impl + (" (out of place)" if impl == "cub" and algo in CUB_OUT_OF_PLACE else "")


def make_group_figure(plt, algo, key, group, ceiling, plots_dir, header):
    by_impl = OrderedDict()
    for r in sorted(group["rows"], key=lambda r: (IMPL_ORDER.get(r["impl"], 9), r["impl"], r["x"])):
        by_impl.setdefault(r["impl"], []).append(r)
    sweep_rows = [r for r in group["rows"] if is_sweep(r) and r["speedup"]]
    if group["kind"] == "single":
        fig, ax = plt.subplots(figsize=(6.4, 0.9 + 0.45 * len(by_impl)), dpi=110)
        impls = list(by_impl)
        vals = [_metric(group, algo, by_impl[i][0], ceiling)[0] for i in impls]
        ylabel = _metric(group, algo, by_impl[impls[0]][0], ceiling)[1]
        colors = [IMPL_STYLE.get(i, ("gray",))[0] for i in impls]
        ax.barh(range(len(impls)), vals, color=colors)
        ax.set_yticks(range(len(impls)))
        ax.set_yticklabels([legend_name(algo, i) for i in impls], fontsize=8)
        ax.invert_yaxis()
        for y, i in enumerate(impls):
            r = by_impl[i][0]
            note = fmt_time(r["time_s"])
            if r.get("speedup"):
                note += "; " + ", ".join(f"{fmt_speedup(s)} vs {legend_name(algo, o)}" for o, s in r["speedup"].items())
            inside = vals[y] >= 0.45 * max(vals)  # long bars carry their note, short ones have it beside
            ax.text(0 if inside else vals[y], y, "  " + note, va="center", ha="left", fontsize=7,
                    color="white" if inside else "black")
        ax.set_xlabel(ylabel)
        from matplotlib.ticker import FuncFormatter
        rate = "per second" in ylabel
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: _short_rate(v) if rate and v > 0 else f"{v:g}"))
        n = by_impl[impls[0]][0]["n"]
        ax.set_title(f"{group['title']}, n = {fmt_n(n)}", fontsize=10)
        fig.tight_layout(rect=(0, 0.04, 1, 1))
        _corner(fig, header)
        return _save(fig, plt, plots_dir, figure_base_name(algo, key), ("svg",))

    panels = 2 if sweep_rows else 1
    fig, axes = plt.subplots(panels, 1, figsize=(6.4, 3.4 + 2.0 * (panels - 1)), dpi=110, sharex=True,
                             gridspec_kw={"height_ratios": [3, 2]} if panels == 2 else None)
    ax = axes[0] if panels == 2 else axes
    ylabel = None
    for impl, irows in by_impl.items():
        color, marker, line = IMPL_STYLE.get(impl, (None, "x", ":"))
        pts = [(r["x"], _metric(group, algo, r, ceiling)[0]) for r in irows]
        ylabel = _metric(group, algo, irows[0], ceiling)[1]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=legend_name(algo, impl), color=color, marker=marker,
                linestyle=line)
        if is_sweep(irows[0]) and algo in COPY_BOUND_ALGOS and ceiling is not None and group["kind"] != "latency":
            for r, (x, y) in zip(irows, pts):
                if r["gb_per_s"]:
                    ax.annotate(fmt_percent_of(r["gb_per_s"], ceiling) + " of copy", (x, y), fontsize=6,
                                textcoords="offset points", xytext=(3, 4), color=color)
    if group["log_x"]:
        ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    _format_axes(ax, y_rate="per second" in ylabel)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.set_title(group["title"], fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    if panels == 2:
        sx = axes[1]
        for r_impl in OrderedDict.fromkeys(r["impl"] for r in sweep_rows):
            for stock, (color, marker) in STOCK_STYLE.items():
                pts = sorted((r["x"], r["speedup"][stock]) for r in sweep_rows
                             if r["impl"] == r_impl and stock in r["speedup"])
                if pts:
                    line = "-" if r_impl == "sweep" else ":"
                    sx.plot([p[0] for p in pts], [p[1] for p in pts], color=color, marker=marker, linestyle=line,
                            label=f"{r_impl} vs {legend_name(algo, stock)}")
        sx.axhline(1.0, color="black", linewidth=1)
        sx.set_yscale("log")
        _format_speedup_axis(sx, [s for r in sweep_rows for s in r["speedup"].values()])
        sx.set_ylabel("speedup (above 1: sweep faster)", fontsize=8)
        sx.grid(True, which="both", alpha=0.3)
        sx.legend(fontsize=7)
        sx.set_xlabel(group["x_label"])
    else:
        ax.set_xlabel(group["x_label"])
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    _corner(fig, header)
    return _save(fig, plt, plots_dir, figure_base_name(algo, key), ("svg",))


def make_plots(rows, ceiling, plots_dir, header):
    """The overview (PNG for the README, SVG for docs/) and one SVG per workload or workload family.

    Returns {"overview": [png, svg], (algo, group name): [svg], ...}, or {} without matplotlib."""
    plt = _pyplot()
    if plt is None:
        return {}
    os.makedirs(plots_dir, exist_ok=True)
    for old in os.listdir(plots_dir):  # figures of workloads no longer measured must not linger
        if old.startswith(PLOT_PREFIX) and (old.endswith(".png") or old.endswith(".svg")):
            os.remove(os.path.join(plots_dir, old))
    written = OrderedDict()
    overview = make_overview(plt, rows, plots_dir, header)
    if overview:
        written["overview"] = overview
    for (algo, key), group in figure_groups(rows).items():
        written[(algo, key)] = make_group_figure(plt, algo, key, group, ceiling, plots_dir, header)
    return written


# ----------------------------------------------------------------------------------------------
# Markdown
# ----------------------------------------------------------------------------------------------


def describe_statistic(rows):
    stats = {r["statistic"] for r in rows}
    reps = sorted({r["repetitions"] for r in rows})
    reps_text = "/".join(str(r) for r in reps)
    if stats == {"median"}:
        return f"median of {reps_text} repetitions"
    if stats == {"mean"}:
        return f"mean of {reps_text} repetitions"
    if stats == {"single"}:
        return "a single repetition (quick run: noisier than a full run)"
    return f"mixed ({', '.join(sorted(stats))}; {reps_text} repetitions)"


def render_markdown(rows, errors, unparsed, header, ceiling, plots, plots_rel, source):
    out = []
    w = out.append
    w("# sweep benchmarks: sweep against stock Thrust and CUB")
    w("")
    w(f"Generated by `benchmarks/report.py` from `{os.path.basename(source)}`; do not edit by hand.")
    w("Reproduce on your GPU with `benchmarks/run_comparison.sh` (see the end of this page).")
    w("")
    w("| | |")
    w("|---|---|")
    for key, value in header.items():
        w(f"| {key} | {value} |")
    w(f"| Statistic | {describe_statistic(rows)}; each repetition times many calls with CUDA events |")
    if ceiling is not None:
        w(f"| Copy ceiling | {ceiling['gb_per_s']:.0f} GB/s (device-to-device copy of {fmt_n(int(ceiling['n']))} "
          f"bytes, read + write, same run) |")
    else:
        w("| Copy ceiling | not measured in this run (copy/d2d/cuda was filtered out), so no \"% of copy\" |")
    w("")
    w("Speedup = stock time / sweep time, measured side by side in this run on the same data "
      "(above 1: sweep is faster). GB/s counts the minimum traffic: each input read once, each "
      "output written once. \"% of copy\" compares that with the copy ceiling.")
    w("")
    if any(r.get("cub_form") for r in rows):
        w("CUB at its strongest: its temporary storage is allocated once, outside the timing, and each CUB "
          "call is timed with an `int` count and with a 64-bit count (CUB picks its tuning from the count's "
          "type); sweep is compared with the faster form, which the tables name beside the other form's time.")
        w("")
    if "overview" in plots:
        w(f"![sweep's speedup over stock Thrust and CUB, every workload at its largest size]"
          f"({plots_rel}/{plots['overview'][-1]})")
        w("")

    algos = [a for a in algorithms(rows) if a != "copy"]
    index = {(r["algo"], r["workload"], r["n"], r["impl"]): r for r in rows}
    # Summary: every algorithm/workload at its largest size.
    summary = []
    for algo in algos:
        for workload in OrderedDict.fromkeys(r["workload"] for r in rows if r["algo"] == algo):
            sweep_rows = [r for r in rows if r["algo"] == algo and r["workload"] == workload and is_sweep(r)]
            if sweep_rows:
                largest = max(r["n"] for r in sweep_rows)
                summary.extend(sorted((r for r in sweep_rows if r["n"] == largest), key=sort_key))
    if summary:
        w("## Summary (largest size of each workload)")
        w("")
        w("| algorithm | workload | n | sweep time | GB/s | % of copy | vs Thrust | vs CUB | CUB's faster form |")
        w("|---|---|---:|---:|---:|---:|---:|---:|---|")
        for r in summary:
            impl = "" if r["impl"] == "sweep" else f" ({r['impl']})"
            cub = index.get((r["algo"], r["workload"], r["n"], "cub"))
            form = CUB_FORM_TEXT[cub["cub_form"]] if cub is not None and cub.get("cub_form") else "—"
            if cub is not None and cub_out_of_place(cub):
                form = ("" if form == "—" else form + ", ") + "out of place"
            w(f"| {r['algo']} | {r['workload']}{impl} | {fmt_n(r['n'])} | {fmt_time(r['time_s'])} | "
              f"{fmt_gbs(r['gb_per_s'])} | {fmt_percent_of(r['gb_per_s'], ceiling)} | "
              f"{fmt_speedup(r['speedup'].get('thrust'))} | {fmt_speedup(r['speedup'].get('cub'))} | {form} |")
        w("")

    slower = slower_cases(rows)
    w("## Where sweep is slower")
    w("")
    if slower:
        w("Every measured case in which sweep took longer than the stock implementation:")
        w("")
        for r, impl, s in slower:
            other_time = r["time_s"] * s
            against = impl + (" (out of place)" if impl == "cub" and r["algo"] in CUB_OUT_OF_PLACE else "")
            w(f"- {r['algo']} / {r['workload']} / n = {fmt_n(r['n'])}: {fmt_speedup(s)} against {against} "
              f"(sweep {fmt_time(r['time_s'])}, {impl} {fmt_time(other_time)}, "
              f"{100.0 * (1.0 / s - 1.0):.1f}% slower)")
    elif any(r["speedup"] for r in rows):
        w("In this run sweep was not slower than stock Thrust or CUB in any measured case.")
    else:
        w("No sweep row had a stock row of the same workload and size to compare with.")
    w("")

    for algo in algos:
        algo_rows = sorted((r for r in rows if r["algo"] == algo), key=sort_key)
        w(f"## {algo}")
        w("")
        if algo in CUB_CALL:
            w(f"CUB rows: {CUB_CALL[algo]}.")
            w("")
        for (figure_algo, key), names in ((k, v) for k, v in plots.items() if k != "overview"):
            if figure_algo == algo:
                w(f"![{algo} {key}]({plots_rel}/{names[-1]})")
                w("")
        w("| workload | n | impl | time | items/s | GB/s | % of copy | vs Thrust | vs CUB |")
        w("|---|---:|---|---:|---:|---:|---:|---:|---:|")
        for r in algo_rows:
            w(f"| {r['workload']} | {fmt_n(r['n'])} | {impl_label(r)} | {fmt_time(r['time_s'])} | "
              f"{fmt_rate(r['items_per_s'])} | {fmt_gbs(r['gb_per_s'])} | "
              f"{fmt_percent_of(r['gb_per_s'], ceiling)} | {fmt_speedup(r['speedup'].get('thrust'))} | "
              f"{fmt_speedup(r['speedup'].get('cub'))} |")
        w("")

    copies = sorted((r for r in rows if r["algo"] == "copy"), key=sort_key)
    if copies:
        w("## The ceiling: device-to-device copy")
        w("")
        w("| workload | bytes | impl | time | GB/s (read + write) |")
        w("|---|---:|---|---:|---:|")
        for r in copies:
            w(f"| {r['workload']} | {fmt_n(r['n'])} | {r['impl']} | {fmt_time(r['time_s'])} | {fmt_gbs(r['gb_per_s'])} |")
        w("")

    if errors or unparsed:
        w("## Not reported")
        w("")
        for name, message in errors:
            w(f"- `{name}`: failed: {message}")
        for name, why in unparsed:
            w(f"- `{name}`: {why}")
        w("")

    w("## How to reproduce")
    w("")
    w("```sh")
    w("benchmarks/run_comparison.sh              # build, run everything (minutes), report in build/gpu/report/")
    w("benchmarks/run_comparison.sh --quick      # one short repetition per benchmark")
    w("benchmarks/run_comparison.sh --benchmark_filter='copy_if|copy/'   # a Google Benchmark regex on the names")
    w("benchmarks/run_comparison.sh --docs       # maintainers: rewrite this page, docs/plots/, docs/benchmarks.json")
    w("python3 benchmarks/report.py results.json --out report/benchmarks.md   # render any sweep-bench JSON")
    w("```")
    return "\n".join(out).rstrip("\n") + "\n"


def console_summary(rows, ceiling):
    """A few lines for the terminal: the speedups and every case in which sweep was slower."""
    lines = []
    cub_rows = {(r["algo"], r["workload"], r["n"]): r for r in rows if r.get("cub_form")}
    if ceiling is not None:
        lines.append(f"copy ceiling: {ceiling['gb_per_s']:.0f} GB/s")
    for r in sorted((r for r in rows if is_sweep(r)), key=lambda r: (r["algo"],) + sort_key(r)):
        ratios = ", ".join(f"{fmt_speedup(s)} vs {impl}" for impl, s in r["speedup"].items()) or "no stock row"
        cub = cub_rows.get((r["algo"], r["workload"], r["n"]))
        if cub is not None and "cub" in r["speedup"]:
            ratios += f" (CUB's {CUB_FORM_TEXT[cub['cub_form']]}" + (", out of place" if cub_out_of_place(cub) else "") + ")"
        lines.append(f"{r['algo']}/{r['workload']}/{r['impl']}/{fmt_n(r['n'])}: {fmt_time(r['time_s'])}, {ratios}")
    slower = slower_cases(rows)
    lines.append(f"sweep slower in {len(slower)} comparison(s)" + (":" if slower else ""))
    for r, impl, s in slower:
        lines.append(f"  {r['algo']}/{r['workload']}/{fmt_n(r['n'])}: {fmt_speedup(s)} vs {impl}")
    return "\n".join(lines)


def generate(json_path, out_path, plots_dir=None, args=None, make_png=True):
    """Renders out_path (markdown) and its plots from one JSON file; returns the analysed rows."""
    args = args or argparse.Namespace(commit=None, cccl=None, driver=None)
    context, rows, errors, unparsed = load(json_path)
    if not rows:
        raise ReportError(f"{json_path}: no benchmark rows with names <algo>/<workload>/<impl>/<n>")
    rows = merge_cub_forms(rows)
    compare(rows)
    ceiling = copy_ceiling(rows)
    header = metadata(context, args)
    out_dir = os.path.dirname(os.path.abspath(out_path))
    plots_dir = plots_dir or os.path.join(out_dir, "plots")
    plots = make_plots(rows, ceiling, plots_dir, header) if make_png else {}
    plots_rel = os.path.relpath(os.path.abspath(plots_dir), out_dir).replace(os.sep, "/")
    text = render_markdown(rows, errors, unparsed, header, ceiling, plots, plots_rel, json_path)
    os.makedirs(out_dir, exist_ok=True)
    with open(out_path, "w", encoding="utf-8") as f:
        f.write(text)
    return {"rows": rows, "errors": errors, "unparsed": unparsed, "ceiling": ceiling,
            "plots": plots, "header": header, "markdown": text}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("json", help="sweep-bench --benchmark_out=FILE --benchmark_out_format=json output")
    parser.add_argument("--out", default=os.path.join(REPO_ROOT, "docs", "benchmarks.md"),
                        help="markdown to write (default: docs/benchmarks.md)")
    parser.add_argument("--plots-dir", help="where the PNGs go (default: plots/ beside --out)")
    parser.add_argument("--no-plots", action="store_true", help="markdown only")
    parser.add_argument("--commit", help="commit that was measured (default: context key 'commit', else git)")
    parser.add_argument("--cccl", help="CCCL version (default: context key 'cccl')")
    parser.add_argument("--driver", help="NVIDIA driver version (default: context key 'nvidia_driver')")
    parser.add_argument("--stamp", action="store_true",
                        help="first write --commit/--cccl/--driver and CUB's faster count form of each "
                             "workload (cub_strongest_form) into the JSON's context")
    args = parser.parse_args(argv)
    try:
        if args.stamp:
            _, rows, _, _ = load(args.json)
            winners = cub_winners(merge_cub_forms(rows))
            stamp(args.json, {"commit": args.commit, "cccl": args.cccl, "nvidia_driver": args.driver,
                              "cub_strongest_form": winners or None})
        result = generate(args.json, args.out, args.plots_dir, args, make_png=not args.no_plots)
    except (OSError, ReportError) as e:
        print(f"report.py: {e}", file=sys.stderr)
        return 1
    print(console_summary(result["rows"], result["ceiling"]))
    print(f"wrote {args.out}" + (f" and {len(result['plots'])} plot(s)" if result["plots"] else ""))
    if result["errors"]:
        print(f"report.py: {len(result['errors'])} benchmark(s) reported errors", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
