"""The tour library's schema: numbered migrations, one a version, and the versions that matter.

``PRAGMA user_version`` is how many migrations a file has run; :meth:`Library.migrate
<knightstour.library.store.Library.migrate>` runs the ones it lacks, each in its own transaction.
Append new migrations; never edit a released one. A read-only library is read at the version it
has: the readers ask :data:`COUNTS_FROM`, :data:`MAGIC_FROM`, :data:`SHAPES_FROM` and
:data:`KINDS_FROM`, :data:`CLAIMS_FROM` and :data:`METRICS_FROM` what its tables hold.

>>> len(MIGRATIONS) == METRICS_FROM
True
>>> list(statements("CREATE TABLE a (x); -- a comment\\nCREATE TABLE b (y);"))
['CREATE TABLE a (x);', 'CREATE TABLE b (y);']
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = [
    "APPLICATION_ID",
    "CLAIMS_FROM",
    "COUNTS_FROM",
    "KINDS_FROM",
    "MAGIC_FROM",
    "METRICS_FROM",
    "MIGRATIONS",
    "READABLE_FROM",
    "SHAPES_FROM",
    "statements",
]

#: ``PRAGMA application_id`` of a tour library ("KnTr").
APPLICATION_ID = 0x4B6E5472

#: The columns every version's ``tours`` table has after those naming its board, as each
#: migration below wrote them (the text the released migrations ran, kept to the letter).
_TOUR_COLUMNS = """canon BLOB NOT NULL,           -- the packed canonical form
        xform INTEGER NOT NULL,        -- transform code: canonical form -> this tour
        start_sq INTEGER NOT NULL,
        end_sq INTEGER NOT NULL,
        method INTEGER NOT NULL REFERENCES methods(id),
        seed INTEGER,                  -- the walk's or search's seed; NULL when imported
        run INTEGER REFERENCES runs(id),
        created INTEGER NOT NULL,      -- Unix seconds"""

#: The schema, one migration a version: ``PRAGMA user_version`` is how many have run. Append
#: new ones; never edit a released one.
MIGRATIONS: tuple[str, ...] = (
    f"""
    CREATE TABLE methods (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE
    );
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        closed INTEGER NOT NULL,
        start_sq INTEGER,              -- the fixed start square, NULL for any
        method TEXT NOT NULL,          -- the method asked for
        used TEXT NOT NULL,            -- the method it chose
        seed INTEGER NOT NULL,
        seed_given INTEGER NOT NULL,
        requested INTEGER NOT NULL,    -- new tours asked for
        added INTEGER NOT NULL DEFAULT 0,
        next_walk INTEGER NOT NULL DEFAULT 0,  -- walks before this one are done
        walks_since_new INTEGER NOT NULL DEFAULT 0,
        created INTEGER NOT NULL,
        updated INTEGER NOT NULL,
        finished INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE tours (
        id INTEGER PRIMARY KEY,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        closed INTEGER NOT NULL,
        {_TOUR_COLUMNS}
        UNIQUE (width, height, closed, canon)
    );
    """,
    # 2: counts remembered (knightstour count), one row per thing counted
    """
    CREATE TABLE counts (
        id INTEGER PRIMARY KEY,
        board TEXT NOT NULL,           -- the board spec, WxH
        kind TEXT NOT NULL CHECK (kind IN ('closed', 'open')),
        start_name TEXT NOT NULL,      -- the start square's name, '' for any
        end_name TEXT NOT NULL,        -- the end square's name, '' for any
        directed INTEGER NOT NULL,
        number TEXT NOT NULL,          -- decimal digits: counts exceed 64 bits
        method TEXT NOT NULL,
        seconds REAL NOT NULL,         -- how long the count took
        created INTEGER NOT NULL,      -- Unix seconds
        UNIQUE (board, kind, start_name, end_name, directed)
    );
    """,
    # 3: the semi-magic tour search (knightstour magic): each part of each range walked
    """
    CREATE TABLE magic_parts (
        board TEXT NOT NULL,           -- the board spec, WxH
        scheme TEXT NOT NULL,          -- the walk's version: parts of another are walked again
        range_no INTEGER NOT NULL,
        part INTEGER NOT NULL,         -- -1: the whole range, once every part is walked
        parts INTEGER NOT NULL,        -- the parts of the range (on the -1 row)
        found INTEGER NOT NULL,        -- semi-magic numberings found
        nodes INTEGER NOT NULL,
        seconds REAL NOT NULL,
        created INTEGER NOT NULL,      -- Unix seconds
        PRIMARY KEY (board, scheme, range_no, part)
    );
    CREATE TABLE magic_states (
        board TEXT NOT NULL,
        scheme TEXT NOT NULL,
        range_no INTEGER NOT NULL,
        part INTEGER NOT NULL,
        state BLOB NOT NULL,           -- the walk of a part stopped before its end (.npz)
        PRIMARY KEY (board, scheme, range_no, part)
    );
    """,
    # 4: shaped boards (holes, other leapers, wrapped and 3-D boards): the board's key beside its
    # sides, in the unique constraint too; SQLite cannot alter a constraint, so the table is made
    # again, every row and id kept
    f"""
    CREATE TABLE tours_v4 (
        id INTEGER PRIMARY KEY,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        shape TEXT NOT NULL DEFAULT '', -- Board.key of a shaped board; '' for a plain one
        closed INTEGER NOT NULL,
        {_TOUR_COLUMNS}
        UNIQUE (width, height, shape, closed, canon)
    );
    INSERT INTO tours_v4 (id, width, height, shape, closed, canon, xform, start_sq, end_sq,
                          method, seed, run, created)
        SELECT id, width, height, '', closed, canon, xform, start_sq, end_sq, method, seed, run,
               created FROM tours ORDER BY id;
    DROP TABLE tours;
    ALTER TABLE tours_v4 RENAME TO tours;
    ALTER TABLE runs ADD COLUMN shape TEXT NOT NULL DEFAULT '';
    """,
    # 5: the tours keyed by their kind and canonical form. A kind (a board, and open or closed)
    # is one small number of the kinds table, so a tour's row holds that number where it held
    # the sides, shape and kind, and the unique key is that number and the packed canonical
    # form: two fields where it was five, quicker to compare and shorter to store. The view
    # tour_rows shows the rows with their boards as before. The table is made again (SQLite
    # cannot drop a constraint), every row and id kept
    f"""
    CREATE TABLE kinds (
        id INTEGER PRIMARY KEY,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        shape TEXT NOT NULL,           -- Board.key of a shaped board; '' for a plain one
        closed INTEGER NOT NULL,
        UNIQUE (width, height, shape, closed)
    );
    INSERT INTO kinds (width, height, shape, closed)
        SELECT DISTINCT width, height, shape, closed FROM tours
        ORDER BY width, height, shape, closed;
    CREATE TABLE tours_v5 (
        id INTEGER PRIMARY KEY,
        kind INTEGER NOT NULL REFERENCES kinds(id),
        {_TOUR_COLUMNS}
        UNIQUE (kind, canon)
    );
    INSERT INTO tours_v5 (id, kind, canon, xform, start_sq, end_sq, method, seed, run, created)
        SELECT t.id, k.id, t.canon, t.xform, t.start_sq, t.end_sq, t.method, t.seed, t.run,
               t.created
        FROM tours t JOIN kinds k
            ON (k.width, k.height, k.shape, k.closed) = (t.width, t.height, t.shape, t.closed)
        ORDER BY t.id;
    DROP TABLE tours;
    ALTER TABLE tours_v5 RENAME TO tours;
    CREATE VIEW tour_rows AS
        SELECT t.id AS id, k.width AS width, k.height AS height, k.shape AS shape,
               k.closed AS closed, t.kind AS kind, t.canon AS canon, t.xform AS xform,
               t.start_sq AS start_sq, t.end_sq AS end_sq, t.method AS method, t.seed AS seed,
               t.run AS run, t.created AS created
        FROM tours t LEFT JOIN kinds k ON k.id = t.kind;
    """,
    # 6: the semi-magic search's parts claimed by the run walking them, so that two runs on one
    # library share the work (a part whose owner died is taken over)
    """
    CREATE TABLE magic_claims (
        board TEXT NOT NULL,
        scheme TEXT NOT NULL,
        range_no INTEGER NOT NULL,
        part INTEGER NOT NULL,
        owner TEXT NOT NULL,           -- the run: host, process id and start, a run number
        claimed INTEGER NOT NULL,      -- Unix seconds
        PRIMARY KEY (board, scheme, range_no, part)
    );
    """,
    # 7: the shape of each tour (docs/geometry.md): its crossings and turns, stored as it is
    # stored, so that the tours can be ordered and filtered by them; NULL where not defined
    # (wrapped and 3-D boards) and, until `library update` fills them, in the rows before
    """
    ALTER TABLE tours ADD COLUMN crossings INTEGER;
    ALTER TABLE tours ADD COLUMN turns INTEGER;
    DROP VIEW tour_rows;
    CREATE VIEW tour_rows AS
        SELECT t.id AS id, k.width AS width, k.height AS height, k.shape AS shape,
               k.closed AS closed, t.kind AS kind, t.canon AS canon, t.xform AS xform,
               t.start_sq AS start_sq, t.end_sq AS end_sq, t.method AS method, t.seed AS seed,
               t.run AS run, t.created AS created, t.crossings AS crossings, t.turns AS turns
        FROM tours t LEFT JOIN kinds k ON k.id = t.kind;
    """,
)
#: The oldest schema a read-only library may have: the later migrations only add tables and
#: columns, which a read-only library without them reads as empty or as their defaults.
READABLE_FROM = 1
#: The schema version that made the ``counts`` table.
COUNTS_FROM = 2
#: The schema version that made the ``magic_parts`` table.
MAGIC_FROM = 3
#: The schema version that added the ``shape`` column (shaped boards): an older library, read
#: as it is, holds plain boards only.
SHAPES_FROM = 4
#: The schema version that keyed the tours by kind and canonical form (the ``kinds`` table):
#: a tour's board is read through the view ``tour_rows``.
KINDS_FROM = 5
#: The schema version that made the ``magic_claims`` table (a library without it is read as
#: holding no claims).
CLAIMS_FROM = 6
#: The schema version that added the ``crossings`` and ``turns`` columns (a library without
#: them is read as holding no stored metrics).
METRICS_FROM = 7


def statements(script: str) -> Iterator[str]:
    """The statements of a migration script (split on semicolons ending lines; ``--`` comments
    dropped)."""
    buf = []
    for line in script.splitlines():
        line = line.split("--")[0].rstrip()
        if not line:
            continue
        buf.append(line)
        if line.endswith(";"):
            yield "\n".join(buf)
            buf = []
    if buf:
        yield "\n".join(buf)
