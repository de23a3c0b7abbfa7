"""Exact solving: every board of area <= 64 from every start square, closed tours, fixed ends.

Figures (wall time per answer, compiled code loaded first):

- ``solve(board, start)`` (``method="auto"``: theory, heuristics, exact search) on every board of
  area <= 64 in both orientations, from every square: how many tours and proofs of absence, the
  worst answer and the total. Target: every answer a tour or ``NoTourError``, each under 1 s.
- the exact search alone (:func:`~knightstour.solvers.backtrack.exact_search`, no theory at all)
  over the same requests: it must reach the same verdicts by itself.
- closed tours on every board of area <= 64 that Schwenk's theorem allows, and on 8x8 from each
  of the 64 squares.
- fixed ends on 8x8: a1 to h8 refused by parity, a1 to g8 found.
"""

from __future__ import annotations

import time

from knightstour import Board, NoTourError, SearchFailedError, exists, solve
from knightstour.solvers.backtrack import exact_search

MAX_AREA = 64
LIMIT = 1.0  # seconds per answer


def boards(max_area: int = MAX_AREA) -> list[Board]:
    return [Board(w, h) for w in range(1, max_area + 1) for h in range(1, max_area // w + 1)]


def timed(fn):
    t0 = time.perf_counter()
    try:
        out = fn()
    except NoTourError as e:
        out = e
    except SearchFailedError as e:
        out = e
    return out, time.perf_counter() - t0


def sweep(name: str, answer) -> dict[tuple[int, int, int], str]:
    verdicts: dict[tuple[int, int, int], str] = {}
    worst = (0.0, "")
    total = 0.0
    counts = {"tour": 0, "none": 0, "gave up": 0}
    reasonless = 0
    for b in boards():
        for s in b.squares():
            out, dt = timed(lambda b=b, s=s: answer(b, s))
            total += dt
            if isinstance(out, NoTourError):
                kind = "none"
                reasonless += not out.reason
            elif isinstance(out, SearchFailedError):
                kind = "gave up"
            else:
                kind = "tour"
            counts[kind] += 1
            verdicts[b.width, b.height, s] = kind
            if dt > worst[0]:
                worst = (dt, f"{b.spec} from {b.square_name(s)} ({kind})")
    n = sum(counts.values())
    print(
        f"   {name}: {n} requests on {len(boards())} boards: {counts['tour']} tours, "
        f"{counts['none']} proved none, {counts['gave up']} gave up; total {total:.2f} s, "
        f"worst {worst[0] * 1000:.1f} ms ({worst[1]})"
        + ("" if worst[0] < LIMIT and not counts["gave up"] else "  <-- TARGET MISSED")
        + (f"; {reasonless} without a reason" if reasonless else ""),
        flush=True,
    )
    return verdicts


def main() -> None:
    t0 = time.perf_counter()
    exact_search(Board(5, 5), 0)
    print(f"   compiled search loaded in {time.perf_counter() - t0:.2f} s (excluded below)")

    auto = sweep("solve() open, every start", lambda b, s: solve(b, s).indices)
    alone = sweep("exact search alone, no theory", lambda b, s: exact_search(b, s))
    differ = [k for k in auto if auto[k] != alone[k]]
    print(f"   verdicts that differ between the two: {len(differ)} {differ[:5]}")

    # closed tours wherever Schwenk allows one
    total, worst, n, failed = 0.0, (0.0, ""), 0, []
    for b in boards():
        if not exists(b, closed=True).exists:
            continue
        out, dt = timed(lambda b=b: solve(b, closed=True))
        n += 1
        total += dt
        if isinstance(out, Exception):
            failed.append(b.spec)
        worst = max(worst, (dt, b.spec))
    print(
        f"   closed tours on the {n} boards of area <= {MAX_AREA} that have one: total "
        f"{total:.3f} s, worst {worst[0] * 1000:.1f} ms ({worst[1]}), failed {failed or 'none'}"
    )
    b = Board(8, 8)
    total, worst, failed = 0.0, (0.0, ""), []
    for s in b.squares():
        out, dt = timed(lambda s=s: solve(b, s, closed=True, method="backtrack"))
        total += dt
        if isinstance(out, Exception):
            failed.append(b.square_name(s))
        worst = max(worst, (dt, b.square_name(s)))
    print(
        f"   8x8 closed by backtrack from each of the 64 squares: total {total:.3f} s, worst "
        f"{worst[0] * 1000:.1f} ms (from {worst[1]}), failed {failed or 'none'}"
    )

    out, dt = timed(lambda: solve("8x8", start="a1", end="h8"))
    print(f"   8x8 a1 to h8: {type(out).__name__} in {dt * 1000:.2f} ms: {out}")
    for method in ("auto", "backtrack"):
        out, dt = timed(lambda m=method: solve("8x8", start="a1", end="g8", method=m))
        what = f"tour ending on {out.path[-1]}" if hasattr(out, "path") else repr(out)
        print(f"   8x8 a1 to g8 ({method}): {what} in {dt * 1000:.1f} ms")


if __name__ == "__main__":
    main()
