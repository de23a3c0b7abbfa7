"""Tour libraries as an earlier schema made them, written with plain SQL (not today's code)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import knightstour as kt
from knightstour.library.store import MIGRATIONS, canonical_batch
from knightstour.library.store.schema import statements


def old_library(path: Path, tours: list[kt.Tour], version: int = 3) -> list[tuple[object, ...]]:
    """A library made by the first ``version`` migrations only, holding ``tours`` (ids 3, 13,
    23, ...) and one run; its tour rows as stored."""
    db = sqlite3.connect(path, isolation_level=None)
    for script in MIGRATIONS[:version]:
        for statement in statements(script):
            db.execute(statement)
    db.execute("PRAGMA application_id=0x4B6E5472")
    db.execute(f"PRAGMA user_version={version}")
    db.execute("INSERT INTO methods (name) VALUES ('backtrack')")
    db.execute(
        "INSERT INTO runs (width, height, closed, start_sq, method, used, seed, seed_given, "
        "requested, created, updated) VALUES (5, 5, 0, NULL, 'auto', 'backtrack', 7, 1, 9, 0, 0)"
    )
    for i, t in enumerate(tours):
        b = canonical_batch(t.board, t.closed, t.indices[None, :])
        db.execute(
            "INSERT INTO tours (id, width, height, closed, canon, xform, start_sq, end_sq, method, "
            "seed, run, created) VALUES (?,?,?,?,?,?,?,?,1,?,1,?)",
            (10 * i + 3, t.board.width, t.board.height, int(t.closed), b.keys[0].tobytes(),
             int(b.codes[0]), int(b.starts[0]), int(b.ends[0]), i, 1000 + i),
        )  # fmt: skip
        if not t.board.is_plain_knight:  # from version 4: a shaped board's key
            assert version >= 4, "shaped boards came with version 4"
            db.execute("UPDATE tours SET shape = ? WHERE id = ?", (t.board.key, 10 * i + 3))
    rows = db.execute("SELECT * FROM tours ORDER BY id").fetchall()
    db.close()
    return rows
