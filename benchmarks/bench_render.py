"""Pictures: time and peak memory of the animated GIF (50x50 one move a frame, 100x100 and
200x200 with frame stepping), the PNG and the SVG, each rendered in a fresh process.

Targets (the pictures issue): a 50x50 GIF, one move a frame, within 20 s and 1 GiB.

Peak memory is ``getrusage(RUSAGE_CHILDREN).ru_maxrss`` of a process that only loads the tour
(from a ``.npy`` file, so no solver is compiled) and renders it; "render adds" subtracts the
same process's peak before rendering. The baseline is what the classic programs did: every
frame kept in memory and handed to Pillow's ``save_all`` at the end; it runs on the first
250 frames of the 50x50 tour and its memory per frame is extrapolated to the whole GIF.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

MIB = 1024 * 1024
# (label, board side, kind, options)
CASES = [
    ("GIF 50x50, 1 move/frame", 50, "gif", {"moves_per_frame": 1}),
    ("GIF 100x100, 10 moves/frame", 100, "gif", {"moves_per_frame": 10}),
    ("GIF 100x100, 1 move/frame", 100, "gif", {"moves_per_frame": 1}),
    ("GIF 200x200, 20 moves/frame", 200, "gif", {"moves_per_frame": 20}),
    ("PNG 50x50", 50, "png", {}),
    ("PNG 200x200 with numbers, 2000 px", 200, "png", {"numbers": True, "size": 2000}),
    ("SVG 200x200", 200, "svg", {}),
    ("baseline: all frames in memory, 50x50, 250 frames", 50, "naive", {"frames": 250}),
]


def child(npy: str, side: int, kind: str, options: dict, out: str) -> None:
    """Load the tour, render it, print a JSON line of figures (run in its own process)."""
    from knightstour.tour import Tour

    tour = Tour((side, side), np.load(npy))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    t0 = time.perf_counter()
    frames = None
    if kind == "gif":
        from knightstour.render.raster import write_gif

        frames = write_gif(tour, out, **options)
    elif kind == "png":
        from knightstour.render.raster import write_png

        write_png(tour, out, **options)
    elif kind == "svg":
        from knightstour.render.svg import tour_svg

        Path(out).write_text(tour_svg(tour, **options))
    else:
        frames = naive_gif(tour, out, options["frames"])
    secs = time.perf_counter() - t0
    print(
        json.dumps(
            {"secs": secs, "before": before, "frames": frames, "bytes": os.path.getsize(out)}
        )
    )


def naive_gif(tour, out: str, frames: int) -> int:
    """The classic way: draw every frame as a full picture, keep them all, save at the end."""
    from PIL import Image, ImageDraw

    from knightstour.render.raster import _Raster

    pic = _Raster(tour.board, None, True, "full", None, supersample=False)
    pic.draw_board()
    ims, centre = [], pic.lay.centre
    idx = tour.indices.tolist()
    frame = pic.image.convert("P", palette=Image.Palette.ADAPTIVE)
    for i in range(frames - 1):
        frame = frame.copy()
        ImageDraw.Draw(frame).line((centre(idx[i]), centre(idx[i + 1])), fill=1, width=2)
        ims.append(frame)
    ims[0].save(out, save_all=True, append_images=ims[1:], duration=500, loop=0)
    return frames


def measure(npy: str, side: int, kind: str, options: dict) -> dict:
    """Run one case in a fresh process and read its peak memory as this process's child."""
    out = tempfile.mktemp(suffix="." + ("gif" if kind == "naive" else kind))
    cmd = [sys.executable, __file__, "--child", npy, str(side), kind, json.dumps(options), out]
    res = subprocess.run(cmd, capture_output=True, text=True, check=True)
    figures = json.loads(res.stdout.strip().splitlines()[-1])
    figures["peak"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    os.unlink(out)
    return figures


def main() -> None:
    import knightstour as kt

    tmp = Path(tempfile.mkdtemp())
    tours = {}
    for side in sorted({c[1] for c in CASES}):
        tours[side] = str(tmp / f"{side}.npy")
        np.save(tours[side], kt.solve(f"{side}x{side}", start="a1", method="warnsdorff").indices)
    for label, side, kind, options in CASES:
        # A wrapper process per case, so that RUSAGE_CHILDREN is that case's peak alone.
        cmd = [
            sys.executable,
            __file__,
            "--measure",
            tours[side],
            str(side),
            kind,
            json.dumps(options),
        ]
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode:
            print(f"  {label}: failed\n{res.stderr.strip()}")
            continue
        f = json.loads(res.stdout)
        frames = f" {f['frames']:>6} frames" if f["frames"] else " " * 14
        line = (
            f"  {label:<50} {f['secs']:6.2f} s{frames}  {f['bytes'] / 1024:8.0f} KiB  "
            f"peak {f['peak'] / MIB:6.0f} MiB (render adds {(f['peak'] - f['before']) / MIB:5.0f})"
        )
        if kind == "naive":
            per_frame = (f["peak"] - f["before"]) / f["frames"]
            whole = per_frame * (side * side) / MIB
            line += f"\n  {'':<50} -> {per_frame / MIB:.2f} MiB a frame: ~{whole:,.0f} MiB for all"
        if label.startswith("GIF 50x50"):
            ok = f["secs"] <= 20 and f["peak"] <= 1024 * MIB
            line += f"  [{'PASS' if ok else 'FAIL'}: target 20 s, 1024 MiB]"
        print(line, flush=True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _, _, npy, side, kind, options, out = sys.argv
        child(npy, int(side), kind, json.loads(options), out)
    elif len(sys.argv) > 1 and sys.argv[1] == "--measure":
        _, _, npy, side, kind, options = sys.argv
        print(json.dumps(measure(npy, int(side), kind, json.loads(options))))
    else:
        main()
