"""Output files (issue 11, item 6) and pictures that read well on big boards (item 18).

Special files are written into or refused, never replaced; a symbolic link is followed (its
target written, the link kept); an empty file name is refused by name. Labels never run
together, the first file and rank are always labelled, markers stay on their square, and an
animation lasts at most 30 s by default.
"""

from __future__ import annotations

import io
import itertools
import os
import socket
import stat
import threading
from pathlib import Path

import pytest
from PIL import Image, ImageFont

import knightstour as kt
from knightstour.cli import _output, main
from knightstour.render import style
from knightstour.render.raster import write_gif
from knightstour.render.svg import tour_svg

# -- item 6: special files, links, empty names -----------------------------------------------


def test_symlink_is_followed_not_replaced(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    target = tmp_path / "real.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    assert main(["solve", "5x5", "--start", "a1", "-o", str(link)]) == 2  # exists: no --force
    assert "--force" in capsys.readouterr().err and target.read_text() == "old"
    assert (
        main(["solve", "5x5", "--start", "a1", "--format", "moves", "-o", str(link), "--force"])
        == 0
    )
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text().startswith("a1 ")
    # The same for a picture written through the renderer's own path handling.
    png_target = tmp_path / "real.png"
    png_target.write_bytes(b"old")
    png_link = tmp_path / "link.png"
    png_link.symlink_to(png_target)
    assert main(["solve", "5x5", "--png", str(png_link), "--force", "--size", "64"]) == 0
    assert png_link.is_symlink() and Image.open(png_target).format == "PNG"


def test_fifo_is_written_into(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert main(["solve", "5x5", "--start", "a1", "--format", "moves", "-o", str(fifo)]) == 0
    reader.join(10)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still a FIFO, not a regular file
    assert got and got[0].startswith(b"a1 ")


def test_device_is_written_into_never_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    # Replacing /dev/null would go through os.replace: make that fail loudly instead.
    def no_replace(*args: object) -> None:
        raise AssertionError(f"os.replace{args}")

    monkeypatch.setattr(os, "replace", no_replace)
    with _output.open_output("/dev/null", force=True) as f:
        f.write("tour\n")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    _output.check_target("/dev/null", force=False)  # nothing is overwritten: no --force needed


def test_socket_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "s.sock"
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(path))
        assert main(["solve", "5x5", "-o", str(path), "--force"]) == 2
        assert "socket" in capsys.readouterr().err
        assert stat.S_ISSOCK(os.lstat(path).st_mode)
    finally:
        sock.close()


@pytest.mark.parametrize("option", ["--svg", "--png", "--gif", "--svg-animated", "-o"])
def test_empty_file_names_are_refused(option: str, capsys: pytest.CaptureFixture) -> None:
    assert main(["solve", "5x5", option, ""]) == 2
    err = capsys.readouterr().err
    assert "empty file name" in err and "folder" not in err


# -- item 18: labels, markers, animation length ----------------------------------------------


def _file_label_gaps(lay: style.Layout) -> list[float]:
    """The gaps in pixels between neighbouring file labels, measured with the PNG's font."""
    font = ImageFont.load_default(size=round(lay.font))
    boxes = []
    for x, text in lay.file_labels():
        w = font.getlength(text)
        boxes.append((x - w / 2, x + w / 2))
    return [b[0] - a[1] for a, b in itertools.pairwise(boxes)]


@pytest.mark.parametrize("n", [8, 26, 30, 50, 60, 100, 150, 200])
def test_labels_never_run_together_and_a1_is_labelled(n: int) -> None:
    size = style.default_size(n, n)
    lay = style.layout(n, n, size)
    assert min(_file_label_gaps(lay), default=lay.font) >= 0.25 * lay.font  # a visible gap
    assert next(iter(lay.file_labels()))[1] == "a"
    assert next(iter(lay.rank_labels()))[1] == "1"


def test_start_marker_stays_on_its_square() -> None:
    tour = kt.solve("100x100", start="a1", method="warnsdorff")
    lay = style.layout(100, 100, style.default_size(100, 100))
    assert style.marker_radius(lay.square, "full") <= lay.square / 2
    svg = tour_svg(tour)
    assert '<text class="file" ' in svg and ">a</text>" in svg and ">1</text>" in svg


def test_gif_lasts_at_most_30_seconds_by_default() -> None:
    tour = kt.solve("30x30", start="a1", method="warnsdorff")  # 899 moves: 7.5 min at 500 ms
    buf = io.BytesIO()
    write_gif(tour, buf, size=120)
    im = Image.open(io.BytesIO(buf.getvalue()))
    total = 0
    for k in range(im.n_frames):
        im.seek(k)
        total += im.info["duration"]
    assert 15_000 <= total <= style.MAX_ANIMATION_MS
    # What is asked for is kept.
    buf = io.BytesIO()
    assert write_gif(tour, buf, size=120, frame_ms=20, moves_per_frame=100) == 1 + 9
    assert style.animation_timing(2499) == (20, 2)  # 50x50: 25 s of moves, not 21 minutes


def test_animated_svg_lasts_at_most_30_seconds_by_default() -> None:
    tour = kt.solve("30x30", start="a1", method="warnsdorff")
    svg = tour_svg(tour, animated=True)
    duration = int(svg.split("animation-duration:")[1].split("ms")[0])
    assert duration <= style.MAX_ANIMATION_MS


def test_help_says_how_long_animations_last(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    assert "at most 30 s" in " ".join(capsys.readouterr().out.split())


# -- issue 30, items 7 and 8: what stdout carries beside a picture or a file -------------------

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(("option", "magic"), [("--png", PNG_MAGIC), ("--svg", b"<svg ")])
def test_a_picture_to_stdout_is_its_bytes_alone(
    option: str, magic: bytes, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    """`solve 8x8 --png - > t.png`: the picture, no text tour before it (item 7)."""
    assert main(["solve", "8x8", option, "-", "--size", "64"]) == 0
    out, err = capsysbinary.readouterr()
    assert out.startswith(magic) and b"Open tour" not in out and err == b""
    if option == "--png":
        assert Image.open(io.BytesIO(out)).format == "PNG"


def test_a_picture_to_stdout_leaves_the_tour_to_a_file(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    tour = tmp_path / "tour.json"
    argv = ["solve", "6x6", "--png", "-", "--format", "json", "-o", str(tour), "--size", "64"]
    assert main(argv) == 0
    assert capsysbinary.readouterr().out.startswith(PNG_MAGIC)
    assert kt.Tour.from_dict(__import__("json").loads(tour.read_text())).board.spec == "6x6"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--png", "-", "--format", "text"], "--png - writes the picture alone to stdout"),
        (["--svg", "-", "--format", "moves"], "--svg - writes the picture alone to stdout"),
        (["--png", "-", "--output", "-"], "--png - writes the picture alone to stdout"),
        (["--png", "-", "--svg", "-"], "--svg - and --png - both write to stdout"),
        (
            ["--png", "out.jpg"],
            "--png: out.jpg ends in .jpg, but the picture is PNG: name the file .png",
        ),
        (
            ["--gif", "out.png"],
            "--gif: out.png ends in .png, but the picture is GIF: name the file .gif",
        ),
        (["--svg", "out.PNG"], "name the file .svg"),
    ],
)
def test_stdout_claimed_twice_or_a_misnamed_picture_is_refused(
    argv: list[str],
    words: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One line, exit 2, before any search; nothing written (item 7)."""
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "8x8", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and words in err
    assert list(tmp_path.iterdir()) == []


def test_a_picture_name_of_no_known_type_is_taken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("tour", "tour.final", "TOUR.PNG"):
        assert main(["solve", "5x5", "--png", str(tmp_path / name), "--size", "64"]) == 0
        assert Image.open(tmp_path / name).format == "PNG"
    capsys.readouterr()


@pytest.mark.parametrize(
    "outputs",
    [["--png", "t.png"], ["--svg", "t.svg", "--gif", "t.gif"], ["--output", "t.txt"]],
)
def test_a_picture_or_a_file_asked_for_gets_a_summary_not_the_whole_tour(
    outputs: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`solve 1000x1000 --png huge.png` printed 62,503 lines of moves too: one line now, saying
    what was found and which files were written (item 8)."""
    monkeypatch.chdir(tmp_path)
    size = [] if "--output" in outputs else ["--size", "64"]
    assert main(["solve", "8x8", "--closed", *outputs, *size]) == 0
    out = capsys.readouterr().out
    files = [p for p in outputs if not p.startswith("--")]
    assert out.splitlines() == [out.splitlines()[0]] and out.startswith(
        "Closed tour on 8x8 from a1 to "
    )
    assert out.rstrip().endswith(f"; wrote {', '.join(files)}") and "64 squares" in out
    assert all((tmp_path / f).stat().st_size > 0 for f in files)
    if "--output" in outputs:  # the default text format went to the file, whole
        assert (tmp_path / "t.txt").read_text().startswith("Closed tour on 8x8 from a1")


def test_an_explicit_format_still_prints_the_tour_beside_a_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    png = tmp_path / "t.png"
    assert main(["solve", "5x5", "--start", "a1", "--png", str(png), "--format", "moves"]) == 0
    out = capsys.readouterr().out
    assert out.split()[0] == "a1" and len(out.split()) == 25 and png.exists()
    assert (
        main(["solve", "5x5", "--start", "a1", "--png", str(png), "--force", "--format", "text"])
        == 0
    )
    assert "moves:" in capsys.readouterr().out


def test_library_show_follows_the_same_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "t.db")
    assert main(["generate", "5x5", "--count", "1", "--db", db, "-q"]) == 0
    capsys.readouterr()
    png = str(tmp_path / "t.png")
    assert main(["library", "show", "1", "--db", db, "--png", png]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("tour 1 of ") and line.endswith(f"; wrote {png}")
    assert main(["library", "show", "1", "--db", db, "--png", "out.jpg"]) == 2
    assert "name the file .png" in capsys.readouterr().err


def test_no_tour_is_said_once(capsys: pytest.CaptureFixture[str]) -> None:
    """ "no tour: no tour on 4x4" said it twice (issue 30, item 11)."""
    assert main(["solve", "4x4"]) == 1
    assert capsys.readouterr().out.startswith("no tour on 4x4: one of the four exceptions")
    assert main(["solve", "5x5", "--closed"]) == 1
    assert capsys.readouterr().out.startswith("no closed tour on 5x5: it has 25 squares")
    assert main(["exists", "5x5", "--start", "b1"]) == 1
    assert capsys.readouterr().out.startswith("no tour from b1 on 5x5: the board has 13")
    assert main(["solve", "4x4", "--png", "-"]) == 1  # stdout was for the picture: stderr
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("no tour on 4x4")
