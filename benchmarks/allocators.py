"""Construction under different memory allocators (Ippen et al. (2017), Fig. 5): glibc malloc against
jemalloc and mimalloc (Debian's libjemalloc2 and libmimalloc2.0, loaded with LD_PRELOAD),
for Ranvier and, with --nest, for NEST on the same brunel-small network.

    python benchmarks/allocators.py --threads 1 2 [--scale 1] [--nest] [--out FILE.json]

Each run is its own process; the construction time is create + connect + the preparation
before the first step, as in compare_nest.py.
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
LIBDIR = pathlib.Path("/usr/lib/x86_64-linux-gnu")
ALLOCATORS = {"glibc": None, "jemalloc": LIBDIR / "libjemalloc.so.2", "mimalloc": LIBDIR / "libmimalloc.so.2"}


def run(peer, allocator, threads, scale):
    env = dict(os.environ)
    if ALLOCATORS[allocator]:
        env["LD_PRELOAD"] = str(ALLOCATORS[allocator])
    # 10 ms of simulation: the preparation happens in the first Simulate call
    cmd = [
        sys.executable,
        str(HERE / "compare_nest.py"),
        "--run",
        peer,
        "--scale",
        str(scale),
        "--threads",
        str(threads),
        "--seeds",
        "1",
        "--time",
        "10",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{peer} with {allocator} failed:\n{done.stderr[-2000:]}")
    r = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        "peer": peer,
        "allocator": allocator,
        "threads": threads,
        "scale": scale,
        "t_construction_s": r["t_construction_s"] + r["t_prepare_s"],
        "t_connect_s": r["t_connect_s"],
        "t_prepare_s": r["t_prepare_s"],
        "rss_after_build_mib": r["rss_after_build_mib"],
        "rss_peak_mib": r["rss_peak_mib"],
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--nest", action="store_true", help="also run NEST under each allocator")
    p.add_argument("--out", help="also write the JSON to this file")
    args = p.parse_args()
    missing = [name for name, lib in ALLOCATORS.items() if lib and not lib.exists()]
    if missing:
        sys.exit(f"not installed: {missing} (apt-get install libjemalloc2 libmimalloc2.0)")
    results = []
    for peer in ["ranvier"] + (["nest"] if args.nest else []):
        for threads in args.threads:
            for allocator in ALLOCATORS:
                r = run(peer, allocator, threads, args.scale)
                results.append(r)
                print(
                    f"{peer:8} {allocator:9} T={threads}: construction {r['t_construction_s']:.2f} s "
                    f"(connect {r['t_connect_s']:.2f}, prepare {r['t_prepare_s']:.2f}), "
                    f"peak {r['rss_peak_mib']:.0f} MiB",
                    file=sys.stderr,
                    flush=True,
                )
    for r in results:
        base = next(
            b for b in results if (b["peer"], b["threads"], b["allocator"]) == (r["peer"], r["threads"], "glibc")
        )
        r["construction_glibc_over_this"] = base["t_construction_s"] / r["t_construction_s"]
    out = {"benchmark": "allocators", "results": results}
    print(json.dumps(out))
    if args.out:
        pathlib.Path(args.out).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
