#!/usr/bin/env python3
"""Self-test of benchmarks/report.py: python3 benchmarks/test_report.py

Feeds SYNTHETIC Google Benchmark JSON (made-up times, shaped like sweep-bench's output with
Google Benchmark 1.7.1) through the report and checks the row selection, the ratios, the tables,
the "where sweep is slower" list and the plots. Everything is written to a temporary directory;
none of these numbers are measurements and none of them are ever written under docs/.
"""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

GPU = "SYNTHETIC TEST DATA (not a measurement)"


def aggregate_rows(name, times_ms, items, min_bytes, median_ms=None, mean_ms=None):
    """mean/median/stddev/cv aggregate rows as --benchmark_report_aggregates_only=true writes them."""
    full = f"{name}/manual_time"
    rows = []
    for aggregate, value in (("mean", mean_ms), ("median", median_ms), ("stddev", 0.001), ("cv", 0.01)):
        if value is None:
            continue
        rows.append({
            "name": f"{full}_{aggregate}", "family_index": 0, "per_family_instance_index": 0,
            "run_name": full, "run_type": "aggregate", "repetitions": len(times_ms), "threads": 1,
            "aggregate_name": aggregate, "aggregate_unit": "percentage" if aggregate == "cv" else "time",
            "iterations": len(times_ms), "real_time": value, "cpu_time": 0.01, "time_unit": "ms",
            "items": items, "min_bytes": min_bytes,
            "items_per_second": items / (value * 1e-3), "bytes_per_second": min_bytes / (value * 1e-3),
        })
    return rows


def measured(name, n, median_ms, bytes_per_item, mean_ms=None):
    """A benchmark with 5 repetitions whose mean differs from its median (the report must use the median)."""
    return aggregate_rows(name + f"/{n}", [median_ms] * 5, float(n), float(n * bytes_per_item),
                          median_ms=median_ms, mean_ms=mean_ms if mean_ms is not None else median_ms * 1.5)


def iteration_row(name, time_ms, items, min_bytes):
    """One --benchmark_repetitions=1 run (what --quick writes): no aggregates at all."""
    full = f"{name}/manual_time"
    return {"name": full, "family_index": 0, "per_family_instance_index": 0, "run_name": full,
            "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1,
            "iterations": 100, "real_time": time_ms, "cpu_time": 0.01, "time_unit": "ms",
            "items": items, "min_bytes": min_bytes,
            "items_per_second": items / (time_ms * 1e-3), "bytes_per_second": min_bytes / (time_ms * 1e-3)}


def synthetic_full_run():
    n24, n28 = 1 << 24, 1 << 28
    benchmarks = []
    benchmarks += measured("copy/d2d/cuda", 1 << 31, 1.073741824, 2)       # 4000 GB/s ceiling
    benchmarks += measured("copy_if/float_gt0/sweep", n24, 0.050, 6)
    benchmarks += measured("copy_if/float_gt0/thrust", n24, 0.100, 6)      # sweep 2.00x faster
    benchmarks += measured("copy_if/float_gt0/cub", n24, 0.040, 6)         # sweep slower: 0.80x
    benchmarks += measured("copy_if/float_gt0/sweep", n28, 0.600, 6)       # 2684 GB/s = 67% of copy
    benchmarks += measured("copy_if/float_gt0/thrust", n28, 0.900, 6)      # 1.50x
    benchmarks += measured("copy_if/float_gt0/cub", n28, 0.600, 6)         # 1.00x: not slower
    benchmarks += measured("sort/u32/sweep", n28, 5.0, 8)                  # no stock row at all
    benchmarks += measured("histogram/u8_256bins/cub", 1 << 30, 0.5, 1)    # stock only
    benchmarks.append({"name": "sort/u64/sweep/134217728/manual_time", "run_name": "sort/u64/sweep/134217728/manual_time",
                       "run_type": "iteration", "repetitions": 5, "error_occurred": True,
                       "error_message": "synthetic failure", "iterations": 0, "real_time": 0, "time_unit": "ms"})
    benchmarks += measured("not_a_sweep_name", 7, 1.0, 1)
    benchmarks += measured("sort/u32/sweep/268435456", 1 << 28, 9.0, 8)   # same row as sort/u32/sweep/2^28
    return {"context": {"date": "2000-01-01T00:00:00+00:00", "gpu": GPU, "sm_count": "132",
                        "cuda_driver": "13000", "cuda_runtime": "12080", "cccl": "9.9.9"},
            "benchmarks": benchmarks}


def synthetic_compaction_run():
    """The compaction family (unique, partition, remove_if, reduce_by_key) as sweep-bench names it."""
    n28 = 1 << 28
    b = measured("copy/d2d/cuda", 1 << 31, 1.073741824, 2)                 # 4000 GB/s ceiling
    b += measured("unique/u32_runs8/sweep", n28, 0.500, 4.5)                 # 2416 GB/s = 60% of copy
    b += measured("unique/u32_runs8/thrust", n28, 1.000, 4.5)                # 2.00x
    b += measured("unique/u32_runs8/cub_i32", n28, 0.450, 4.5)               # 0.90x, CUB out of place
    b += measured("unique/u32_runs8/cub_i64", n28, 0.550, 4.5)
    b += measured("unique_copy/u32_runs8/sweep", n28, 0.500, 4.5)
    b += measured("unique_copy/u32_runs8/cub_i32", n28, 0.620, 4.5)
    b += measured("unique_copy/u32_runs8/cub_i64", n28, 0.600, 4.5)          # 1.20x, the same call
    for n, ms in ((1 << 16, 0.020), (1 << 20, 0.030)):
        b += measured("unique/latency_u32_runs8/sweep", n, ms, 4.5)
        b += measured("unique/latency_u32_runs8/thrust", n, ms * 2, 4.5)
        b += measured("unique/latency_u32_runs8/cub_i32", n, ms * 1.5, 4.5)
    for kept, ms in (("50", 0.600), ("99.9", 0.700)):
        b += measured(f"remove_if/u32_keep{kept}/sweep", n28, ms, 6)
        b += measured(f"remove_if/u32_keep{kept}/thrust", n28, ms * 1.1, 6)
        b += measured(f"remove_if/u32_keep{kept}/cub_i64", n28, ms * 1.05, 6)
    for sel in (5, 50, 95):
        for algo in ("partition", "partition_copy"):
            b += measured(f"{algo}/u32_sel{sel}/sweep", n28, 0.800, 8)
            b += measured(f"{algo}/u32_sel{sel}/thrust", n28, 0.900, 8)
            b += measured(f"{algo}/u32_sel{sel}/cub_i32", n28, 0.880, 8)
            b += measured(f"{algo}/u32_sel{sel}/cub_i64", n28, 0.890, 8)
    b += measured("stable_partition/u32_sel50/sweep", n28, 0.900, 8)
    b += measured("stable_partition/u32_sel50/thrust", n28, 2.700, 8)       # 3.00x, no CUB
    for runs in (1, 8, 100000):
        b += measured(f"reduce_by_key/u32_runs{runs}/sweep", n28, 1.000, 9)
        b += measured(f"reduce_by_key/u32_runs{runs}/cub_i32", n28, 1.100, 9)
        b += measured(f"reduce_by_key/u32_runs{runs}/cub_i64", n28, 1.200, 9)
    return {"context": {"date": "2000-01-03T00:00:00+00:00", "gpu": GPU, "sm_count": "132"}, "benchmarks": b}


def synthetic_quick_run():
    return {"context": {"date": "2000-01-02T00:00:00+00:00", "gpu": GPU, "cuda_driver": "13000",
                        "cuda_runtime": "13000"},
            "benchmarks": [iteration_row("copy_if/float_gt0/sweep/1000", 0.010, 1000.0, 6000.0),
                           iteration_row("copy_if/float_gt0/thrust/1000", 0.020, 1000.0, 6000.0)]}


def have_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


class report_test(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="sweep-report-test-")
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write_json(self, data, name="results.json"):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)
        return path

    def render(self, data, **kwargs):
        args = report.argparse.Namespace(commit=kwargs.pop("commit", "0123456789ab"), cccl=None, driver=None)
        out = os.path.join(self.dir, "out", "benchmarks.md")
        return report.generate(self.write_json(data), out, args=args, **kwargs)

    def row(self, result, name):
        matches = [r for r in result["rows"] if r["name"].startswith(name + "/")]
        self.assertEqual(len(matches), 1, name)
        return matches[0]

    def test_parse_name(self):
        self.assertEqual(report.parse_name("sort/u32/sweep/268435456/manual_time"), ("sort", "u32", "sweep", 1 << 28))
        self.assertEqual(report.parse_name("histogram/float/1024bins/cub/5/min_time:0.050/manual_time"),
                         ("histogram", "float/1024bins", "cub", 5))
        # a size in the name and again as the benchmark's Arg counts once
        self.assertEqual(report.parse_name("sort/u32_uniform/sweep/65536/65536/manual_time"),
                         ("sort", "u32_uniform", "sweep", 65536))
        self.assertEqual(report.parse_name("histogram/float/sweep_nosync/1024/256/manual_time"),
                         ("histogram", "float/256", "sweep_nosync", 1024))
        self.assertIsNone(report.parse_name("not_a_sweep_name/7/manual_time"))
        self.assertIsNone(report.parse_name("copy_if/float/sweep/manual_time"))

    def test_median_is_used_not_mean(self):
        result = self.render(synthetic_full_run(), make_png=False)
        r = self.row(result, "copy_if/float_gt0/sweep/268435456")
        self.assertEqual(r["statistic"], "median")
        self.assertAlmostEqual(r["time_s"], 0.600e-3)
        self.assertAlmostEqual(r["gb_per_s"], 6 * (1 << 28) / 0.600e-3 / 1e9)
        self.assertEqual(r["repetitions"], 5)

    def test_ratios_and_ceiling(self):
        result = self.render(synthetic_full_run(), make_png=False)
        self.assertAlmostEqual(result["ceiling"]["gb_per_s"], 4000.0)
        small = self.row(result, "copy_if/float_gt0/sweep/16777216")
        self.assertAlmostEqual(small["speedup"]["thrust"], 2.0)
        self.assertAlmostEqual(small["speedup"]["cub"], 0.8)
        large = self.row(result, "copy_if/float_gt0/sweep/268435456")
        self.assertAlmostEqual(large["speedup"]["thrust"], 1.5)
        self.assertAlmostEqual(large["speedup"]["cub"], 1.0)
        self.assertEqual(self.row(result, "sort/u32/sweep/268435456")["speedup"], {})
        self.assertEqual(self.row(result, "copy_if/float_gt0/thrust/16777216")["speedup"], {})

    def test_markdown_tables(self):
        md = self.render(synthetic_full_run(), make_png=False)["markdown"]
        # header from the JSON context (and --commit)
        self.assertIn(f"| GPU | {GPU} (132 SMs) |", md)
        self.assertIn("| CUDA driver API | 13.0 |", md)
        self.assertIn("| CUDA runtime | 12.8 |", md)
        self.assertIn("| CCCL (Thrust, CUB) | 9.9.9 |", md)
        self.assertIn("| Date of the run | 2000-01-01T00:00:00+00:00 |", md)
        self.assertIn("| Commit | 0123456789ab |", md)
        self.assertIn("median of 5 repetitions", md)
        self.assertIn("| Copy ceiling | 4000 GB/s", md)
        # full rows: time, items/s, GB/s, % of copy, vs Thrust, vs CUB
        self.assertIn("| float_gt0 | 2^24 | sweep | 50.0 µs | 335.54 G/s | 2013 | 50% | 2.00x | 0.80x |", md)
        self.assertIn("| float_gt0 | 2^28 | sweep | 600.0 µs | 447.39 G/s | 2684 | 67% | 1.50x | 1.00x |", md)
        self.assertIn("| float_gt0 | 2^28 | cub | 600.0 µs | 447.39 G/s | 2684 | 67% | — | — |", md)
        self.assertIn("| u32 | 2^28 | sweep | 5.000 ms | 53.69 G/s | 429 | 11% | — | — |", md)
        self.assertIn("| d2d | 2^31 | cuda | 1.074 ms | 4000 |", md)
        # summary: largest size of each workload that has a sweep row
        summary = md.split("## Summary")[1].split("## Where")[0]
        self.assertIn("| copy_if | float_gt0 | 2^28 | 600.0 µs | 2684 | 67% | 1.50x | 1.00x |", summary)
        self.assertNotIn("2^24", summary)
        self.assertNotIn("histogram", summary)
        # failures and odd names are listed, not dropped silently
        self.assertIn("`sort/u64/sweep/134217728/manual_time`: failed: synthetic failure", md)
        self.assertIn("`not_a_sweep_name/7/manual_time`: name is not", md)
        self.assertIn("`sort/u32/sweep/268435456/268435456/manual_time`: same algo/workload/impl/n as "
                      "`sort/u32/sweep/268435456/manual_time`; left out", md)
        self.assertTrue(md.endswith("```\n"))

    def test_where_sweep_is_slower(self):
        md = self.render(synthetic_full_run(), make_png=False)["markdown"]
        section = md.split("## Where sweep is slower")[1].split("\n## ")[0]
        lines = [l for l in section.splitlines() if l.startswith("- ")]
        self.assertEqual(lines, ["- copy_if / float_gt0 / n = 2^24: 0.80x against cub "
                                 "(sweep 50.0 µs, cub 40.0 µs, 25.0% slower)"])

    def test_nothing_slower_is_said_plainly(self):
        data = synthetic_quick_run()
        md = self.render(data, make_png=False)["markdown"]
        self.assertIn("sweep was not slower than stock Thrust or CUB in any measured case", md)

    def test_quick_run_single_repetition(self):
        result = self.render(synthetic_quick_run(), make_png=False)
        r = self.row(result, "copy_if/float_gt0/sweep/1000")
        self.assertEqual(r["statistic"], "single")
        self.assertAlmostEqual(r["speedup"]["thrust"], 2.0)
        self.assertIn("a single repetition", result["markdown"])
        self.assertIn("| Copy ceiling | not measured in this run", result["markdown"])
        self.assertIn("| float_gt0 | 1,000 | sweep | 10.0 µs | 100.00 M/s | 0.6 | — | 2.00x | — |", result["markdown"])

    def test_stamp_makes_the_json_stand_alone(self):
        path = self.write_json(synthetic_quick_run())
        report.stamp(path, {"commit": "feedc0ffee00", "cccl": "1.2.3", "nvidia_driver": "999.1", "none": None})
        with open(path, encoding="utf-8") as f:
            context = json.load(f)["context"]
        self.assertEqual((context["commit"], context["cccl"], context["nvidia_driver"]), ("feedc0ffee00", "1.2.3", "999.1"))
        self.assertNotIn("none", context)
        out = os.path.join(self.dir, "stamped.md")
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(report.main([path, "--out", out, "--no-plots"]), 0)
        with open(out, encoding="utf-8") as f:
            md = f.read()
        self.assertIn("| Commit | feedc0ffee00 |", md)
        self.assertIn("| NVIDIA driver | 999.1 |", md)

    def test_cli_fails_on_errors_and_bad_input(self):
        out = os.path.join(self.dir, "cli.md")
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(report.main([self.write_json(synthetic_full_run()), "--out", out, "--no-plots"]), 1)
            self.assertTrue(os.path.exists(out))
            bad = os.path.join(self.dir, "truncated.json")
            with open(bad, "w", encoding="utf-8") as f:
                f.write('{"context": {}, "benchmarks": [')
            self.assertEqual(report.main([bad, "--out", out]), 1)
            self.assertEqual(report.main([self.write_json({"context": {}, "benchmarks": []}, "empty.json"), "--out", out]), 1)

    def test_cub_at_its_strongest(self):
        n = 1 << 28
        data = {"context": {"gpu": GPU}, "benchmarks":
                measured("sort/u32/sweep", n, 5.0, 8) + measured("sort/u32/cub_i32", n, 6.0, 8)
                + measured("sort/u32/cub_i64", n, 5.5, 8)      # 64-bit count faster: sweep 1.10x
                + measured("sort/pairs/sweep", n, 7.0, 16) + measured("sort/pairs/cub_i32", n, 7.7, 16)
                + measured("sort/pairs/cub_i64", n, 8.4, 16)}  # int count faster: sweep 1.10x, not 1.20x
        result = self.render(data, make_png=False)
        self.assertEqual(sorted(r["impl"] for r in result["rows"]), ["cub", "cub", "sweep", "sweep"])
        self.assertAlmostEqual(self.row(result, "sort/u32/sweep/268435456")["speedup"]["cub"], 5.5 / 5.0)
        self.assertAlmostEqual(self.row(result, "sort/pairs/sweep/268435456")["speedup"]["cub"], 7.7 / 7.0)
        md = result["markdown"]
        self.assertIn("| u32 | 2^28 | cub (64-bit count; int count 6.000 ms) | 5.500 ms |", md)
        self.assertIn("| pairs | 2^28 | cub (int count; 64-bit count 8.400 ms) | 7.700 ms |", md)
        summary = md.split("## Summary")[1].split("## Where")[0]
        self.assertIn("| sort | u32 | 2^28 | 5.000 ms | 429 | — | — | 1.10x | 64-bit count |", summary)
        self.assertIn("| sort | pairs | 2^28 | 7.000 ms | 614 | — | — | 1.10x | int count |", summary)
        self.assertIn("CUB at its strongest", md)
        # --stamp writes the winners into the JSON itself
        path = self.write_json(data, "forms.json")
        out = os.path.join(self.dir, "forms.md")
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(report.main([path, "--out", out, "--no-plots", "--stamp"]), 0)
        with open(path, encoding="utf-8") as f:
            context = json.load(f)["context"]
        self.assertEqual(context["cub_strongest_form"], {"sort/u32/268435456": "i64", "sort/pairs/268435456": "i32"})

    def test_compaction_family(self):
        self.assertEqual(report.parse_name("remove_if/u32_keep99.9/sweep/268435456/manual_time"),
                         ("remove_if", "u32_keep99.9", "sweep", 1 << 28))
        result = self.render(synthetic_compaction_run(), make_png=False)
        md = result["markdown"]
        unique = self.row(result, "unique/u32_runs8/sweep/268435456")
        self.assertAlmostEqual(unique["speedup"]["thrust"], 2.0)
        self.assertAlmostEqual(unique["speedup"]["cub"], 0.9)
        self.assertAlmostEqual(self.row(result, "unique_copy/u32_runs8/sweep/268435456")["speedup"]["cub"], 1.2)
        # CUB has no in-place unique or partition: those CUB rows say that their call is out of place
        self.assertIn("| u32_runs8 | 2^28 | sweep | 500.0 µs | 536.87 G/s | 2416 | 60% | 2.00x | 0.90x |", md)
        self.assertIn("| u32_runs8 | 2^28 | cub (int count; 64-bit count 550.0 µs; out of place) | 450.0 µs |", md)
        self.assertIn("| u32_runs8 | 2^28 | cub (64-bit count; int count 620.0 µs) | 600.0 µs |", md)
        self.assertIn("| u32_sel50 | 2^28 | cub (int count; 64-bit count 890.0 µs; out of place) |", md)
        self.assertIn("| latency_u32_runs8 | 2^16 | cub (int count; out of place) | 30.0 µs |", md)
        summary = md.split("## Summary")[1].split("## Where")[0]
        self.assertIn("| unique | u32_runs8 | 2^28 | 500.0 µs | 2416 | 60% | 2.00x | 0.90x | int count, out of place |",
                      summary)
        self.assertIn("| unique_copy | u32_runs8 | 2^28 | 500.0 µs | 2416 | 60% | — | 1.20x | 64-bit count |", summary)
        self.assertIn("| remove_if | u32_keep99.9 | 2^28 | 700.0 µs |", summary)
        self.assertIn("| stable_partition | u32_sel50 | 2^28 | 900.0 µs | 2386 | 60% | 3.00x | — | — |", summary)
        self.assertIn("| unique | latency_u32_runs8 | 2^20 | 30.0 µs |", summary)
        slower = md.split("## Where sweep is slower")[1].split("\n## ")[0]
        self.assertIn("- unique / u32_runs8 / n = 2^28: 0.90x against cub (out of place) "
                      "(sweep 500.0 µs, cub 450.0 µs, 11.1% slower)", slower)
        # each algorithm's section names the CUB call its cub rows time
        self.assertIn("## unique\n\nCUB rows: `cub::DeviceSelect::Unique` from the restored input into a separate "
                      "output: CUB has no in-place unique.", md)
        self.assertIn("## remove_if\n\nCUB rows: `cub::DeviceSelect::If` in place", md)
        self.assertIn("## stable_partition\n\nCUB rows: none (CUB has no stable partition).", md)
        # figures: families by kept or selected share and by run length (log), latency, single
        groups = report.figure_groups(result["rows"])
        for key, x_label, log_x, xs in ((("remove_if", "u32_keep_family"), "% of items kept", False, [50, 99.9]),
                                        (("partition", "u32_sel_family"), "% of items selected", False, [5, 50, 95]),
                                        (("partition_copy", "u32_sel_family"), "% of items selected", False, [5, 50, 95]),
                                        (("reduce_by_key", "u32_runs_family"), "run length (items)", True, [1, 8, 100000])):
            self.assertEqual(groups[key]["kind"], "family", key)
            self.assertEqual((groups[key]["x_label"], groups[key]["log_x"]), (x_label, log_x), key)
            self.assertEqual(sorted({r["x"] for r in groups[key]["rows"]}), xs, key)
        self.assertEqual(groups[("unique", "latency_u32_runs8")]["kind"], "latency")
        self.assertEqual(groups[("stable_partition", "u32_sel50")]["kind"], "single")
        overview = dict(report.overview_rows(result["rows"]))
        self.assertIn("unique: u32_runs8 (2^28) [CUB out of place]", [label for label, _ in overview["unique"]])
        self.assertIn("unique_copy: u32_runs8 (2^28)", [label for label, _ in overview["unique_copy"]])
        if have_matplotlib():
            plots = self.render(synthetic_compaction_run())["plots"]
            self.assertEqual(sorted(name for names in plots.values() for name in names), [
                "bench_overview.png", "bench_overview.svg", "bench_partition_copy_u32_sel_family.svg",
                "bench_partition_u32_sel_family.svg", "bench_reduce_by_key_u32_runs_family.svg",
                "bench_remove_if_u32_keep_family.svg", "bench_stable_partition_u32_sel50.svg",
                "bench_unique_copy_u32_runs8.svg", "bench_unique_latency_u32_runs8.svg", "bench_unique_u32_runs8.svg"])

    @unittest.skipUnless(have_matplotlib(), "matplotlib not installed (Debian: python3-matplotlib)")
    def test_plots(self):
        plots_dir = os.path.join(self.dir, "out", "plots")
        os.makedirs(plots_dir)
        stale_png = os.path.join(plots_dir, "bench_old_workload.png")
        stale_svg = os.path.join(plots_dir, "bench_old_workload.svg")
        keep = os.path.join(plots_dir, "diagram.png")
        for path in (stale_png, stale_svg, keep):
            with open(path, "wb") as f:
                f.write(b"x")
        data = synthetic_full_run()
        # a family (workloads that differ by a trailing number, one size each) and a latency workload
        for kept, ms, ratio in ((0, 0.2, 1.7), (50, 0.3, 1.6), (100, 0.4, 0.9)):
            data["benchmarks"] += measured(f"copy_if/u8_keep{kept}/sweep", 1 << 28, ms, 2)
            data["benchmarks"] += measured(f"copy_if/u8_keep{kept}/thrust", 1 << 28, ms * ratio, 2)
        for n, ms in ((4096, 0.013), (1 << 20, 0.016)):
            data["benchmarks"] += measured("copy_if/latency_float_gt0/sweep", n, ms, 6)
            data["benchmarks"] += measured("copy_if/latency_float_gt0/cub", n, ms * 2, 6)
        result = self.render(data)
        # every workload gets a figure (a family one together), plus the overview in PNG and SVG
        self.assertEqual(result["plots"], {
            "overview": ["bench_overview.png", "bench_overview.svg"],
            ("copy_if", "float_gt0"): ["bench_copy_if_float_gt0.svg"],
            ("copy_if", "latency_float_gt0"): ["bench_copy_if_latency_float_gt0.svg"],
            ("copy_if", "u8_keep_family"): ["bench_copy_if_u8_keep_family.svg"],
            ("histogram", "u8_256bins"): ["bench_histogram_u8_256bins.svg"],
            ("sort", "u32"): ["bench_sort_u32.svg"],
        })
        groups = report.figure_groups(result["rows"])
        self.assertEqual(groups[("copy_if", "float_gt0")]["kind"], "size")
        self.assertEqual(groups[("copy_if", "latency_float_gt0")]["kind"], "latency")
        self.assertEqual(groups[("copy_if", "u8_keep_family")]["kind"], "family")
        self.assertEqual(sorted({r["x"] for r in groups[("copy_if", "u8_keep_family")]["rows"]}), [0, 50, 100])
        self.assertEqual(groups[("sort", "u32")]["kind"], "single")
        # the overview: sweep's default rows at their largest size, worst loss last in its group
        overview = dict(report.overview_rows(result["rows"]))
        self.assertEqual([label for label, _ in overview["copy_if"]],
                         ["copy_if: latency_float_gt0 (2^20)", "copy_if: u8_keep0 (2^28)", "copy_if: u8_keep50 (2^28)",
                          "copy_if: float_gt0 (2^28)", "copy_if: u8_keep100 (2^28)"])
        self.assertNotIn("histogram", overview)  # no sweep row: nothing to compare
        with open(os.path.join(plots_dir, "bench_overview.png"), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        for names in result["plots"].values():
            for name in names:
                if name.endswith(".svg"):
                    with open(os.path.join(plots_dir, name), encoding="utf-8") as f:
                        self.assertIn("<svg", f.read(2000), name)
        self.assertIn("](plots/bench_overview.svg)", result["markdown"])
        self.assertIn("](plots/bench_copy_if_u8_keep_family.svg)", result["markdown"])
        self.assertLess(result["markdown"].index("bench_overview.svg"), result["markdown"].index("## Summary"))
        self.assertFalse(os.path.exists(stale_png))
        self.assertFalse(os.path.exists(stale_svg))
        self.assertTrue(os.path.exists(keep))
        first = {}
        for name in os.listdir(plots_dir):
            with open(os.path.join(plots_dir, name), "rb") as f:
                first[name] = f.read()
        self.render(data)
        for name, content in first.items():
            with open(os.path.join(plots_dir, name), "rb") as f:
                self.assertEqual(f.read(), content, f"the same JSON must render the same {name}")


if __name__ == "__main__":
    unittest.main(verbosity=2)
