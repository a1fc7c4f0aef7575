"""Compressed archives (gzip, bzip2, xz, Zstandard) read by every command as the plain text.

Each form must give output byte-identical to the plain archive, be recognised by
its first bytes whatever its name, stream in flat memory (a bomb included), fail
as one input error line naming the file (the games before kept), and be written
by ``-o FILE.gz`` and the like.
"""
from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
import random
import re
import shutil
import subprocess
import sys
import tracemalloc
import zlib
from pathlib import Path

import pytest

from notation.archive import input_name
import zstandard

from notation.parallel import runs as runner
from notation.save.files import AtomicFile
from notation.core import limits, registry
from notation.read import compression
from notation.read import text as text_stage
from notation.core.errors import InputError
from notation.read.reading import source_records
from notation.parallel.work import span_part
from notation.parallel.spans import spans

from conftest import HANG_BREAKER, SAMPLES, invoke, notation_exe

KINDS = ("gz", "bz2", "xz", "zst")

#: One invalid game among the samples, so that validate and select have both kinds to say.
BAD_GAME = '[Game "tilewe"]\n[Players "2"]\n\n1. Z9z-q99 *\n'


def compress(data: bytes, kind: str, level: int = 9) -> bytes:
    if kind == "gz":
        return gzip.compress(data, level, mtime=0)
    if kind == "bz2":
        return bz2.compress(data, level)
    if kind == "xz":
        return lzma.compress(data, preset=min(level, 6))  # preset 1: a 1 MiB dictionary
    return zstandard.ZstdCompressor(level=min(level, 19)).compress(data)


def decompress(data: bytes, kind: str) -> bytes:
    if kind == "gz":
        return gzip.decompress(data)
    if kind == "bz2":
        return bz2.decompress(data)
    if kind == "xz":
        return lzma.decompress(data)
    return zstandard.ZstdDecompressor().decompressobj().decompress(data)


@pytest.fixture(scope="module")
def archive() -> bytes:
    """The samples of three games and one invalid game, as one archive."""
    texts = [path.read_text(encoding="utf-8").rstrip("\n") + "\n"
             for game in ("tilewe", "flows", "philosophy")
             for path in sorted((SAMPLES / game).iterdir()) if path.suffix == f".{game}"]
    return "\n".join(texts[:3] + [BAD_GAME] + texts[3:]).encode("utf-8")


#: The run's closing summary says how long it took: the one thing that may differ.
SECONDS = re.compile(r" in [0-9.]+ s$", re.MULTILINE)


def seen(result, path: Path | None = None, plain: Path | None = None) -> tuple[int, str, str]:
    """A CLI run's exit code, stdout and stderr (its time left out; ``path`` named ``plain``)."""
    out, err = result.stdout, SECONDS.sub(" in T s", result.stderr)
    if path is not None:
        out, err = out.replace(str(path), str(plain)), err.replace(str(path), str(plain))
    return result.exit_code, out, err


def run_piped(args: list[str], data: bytes) -> tuple[int, str, str]:
    done = subprocess.run(notation_exe() + args, input=data, capture_output=True, timeout=HANG_BREAKER)
    return done.returncode, done.stdout.decode(), SECONDS.sub(" in T s", done.stderr.decode())


COMMANDS = [["validate", "-"], ["tags", "-"], ["select", "--valid", "-"], ["stats", "-"],
            ["stats", "--json", "-"]]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_standard_input_compressed_reads_as_plain(archive, kind, command):
    plain = seen(invoke(*command, input=archive))
    assert plain[1]
    assert seen(invoke(*command, input=compress(archive, kind))) == plain


@pytest.fixture(scope="module")
def piped_plain() -> dict[tuple[str, ...], tuple[int, str, str]]:
    """The plain archive's piped runs, each made once for all kinds (it is the same run)."""
    return {}


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_worker_processes_read_compressed_standard_input(archive, kind, piped_plain):
    """``--jobs 2`` on a pipe starts workers: the text they get is decompressed here."""
    for command in (["validate", "--jobs", "2", "-"], ["select", "--jobs", "2", "--valid", "-"],
                    ["stats", "--jobs", "2", "-"]):
        if tuple(command) not in piped_plain:
            piped_plain[tuple(command)] = run_piped(command, archive)
        assert run_piped(command, compress(archive, kind)) == piped_plain[tuple(command)], \
            command


@pytest.mark.parametrize("kind", KINDS)
def test_files_compressed_read_as_plain(archive, kind, tmp_path):
    """Named files: the same output but for the name; a wrong name changes nothing."""
    plain = tmp_path / "all.tilewe"
    plain.write_bytes(archive)
    packed = tmp_path / f"all.tilewe.{kind}"
    packed.write_bytes(compress(archive, kind))
    renamed = tmp_path / "other.tilewe"  # compressed, under a name that does not say so
    renamed.write_bytes(packed.read_bytes())
    for command in (["validate"], ["tags"], ["select", "--invalid"], ["stats", "--json"]):
        expected = seen(invoke(*command, str(plain)))
        for path in (packed, renamed):
            assert seen(invoke(*command, str(path)), path, plain) == expected, (command, path)


@pytest.mark.parametrize("kind", KINDS)
def test_runner_in_processes_and_spans_give_the_same_outcomes(archive, kind, tmp_path):
    """The runner's batches in two processes, and a Dask worker's span, read a compressed
    file as the plain one; a compressed file is one span, never cut in its bytes."""
    plain = tmp_path / "all.tilewe"
    plain.write_bytes(archive)
    packed = tmp_path / f"all.tilewe.{kind}"
    packed.write_bytes(compress(archive, kind))

    def named(outcomes, path):
        return [json.dumps(o.to_json(), sort_keys=True).replace(str(path), "F") for o in outcomes]

    expected = named(runner.outcomes([str(plain)], runner.VALIDATE), plain)
    assert len(expected) > 30
    in_pool = list(runner.outcomes([str(packed)], runner.VALIDATE, jobs=2, target=2048))
    assert named(in_pool, packed) == expected
    (span,) = spans(packed)
    assert span.streamed and span.start == 0 and span.end == packed.stat().st_size
    part = span_part(span, runner.VALIDATE)
    assert part.input_error is None
    assert named(part.outcomes, packed) == expected


def test_plain_file_under_a_compression_name_reads_as_plain(archive, tmp_path):
    path = tmp_path / "x.tilewe.gz"
    path.write_bytes(archive)
    result = invoke("validate", str(path))
    assert result.exit_code == 1 and f"{path}: game 1: ok" in result.stdout
    assert "38 valid, 1 invalid" in result.stderr


def test_the_game_is_named_under_the_compression_suffix(tmp_path):
    assert registry.by_extension("dir/x.tilewe.gz").name == "tilewe"
    assert registry.by_extension("x.flows.ZST").name == "flows"
    assert registry.by_extension("x.gz") is None
    text = (SAMPLES / "tilewe" / "random-2p.tilewe").read_text(encoding="utf-8")
    untagged = "\n".join(line for line in text.splitlines() if not line.startswith("[Game "))
    for kind in KINDS:
        path = tmp_path / f"x.tilewe.{kind}"
        path.write_bytes(compress(untagged.encode(), kind))
        result = invoke("validate", str(path))
        assert result.exit_code == 0 and "game 1: ok" in result.output, result.output


def test_folder_walks_find_compressed_records(archive, tmp_path):
    (tmp_path / "a.tilewe.gz").write_bytes(compress(archive, "gz"))
    (tmp_path / "b.flows.zst").write_bytes(compress(archive, "zst"))
    (tmp_path / "notes.gz").write_bytes(compress(b"not a record\n", "gz"))
    result = invoke("tags", str(tmp_path))
    assert result.exit_code == 0
    files = {line.split(":")[0] for line in result.output.splitlines()}
    assert files == {str(tmp_path / "a.tilewe.gz"), str(tmp_path / "b.flows.zst")}


def big_archive(archive: bytes, copies: int) -> bytes:
    return b"\n".join([archive] * copies)


def noisy_archive(archive: bytes, copies: int) -> bytes:
    """Copies of the archive, each after a comment of random letters: text that does not
    compress to almost nothing, so that a cut file has whole blocks before the cut."""
    noise = random.Random(22)
    return b"\n".join(b"{%s}\n" % noise.randbytes(3000).hex().encode() + archive
                      for _ in range(copies))


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_truncated_archive_is_one_input_error_after_the_games_before(archive, kind, tmp_path):
    data = noisy_archive(archive, 30)
    packed = compress(data, kind, level=1)  # bzip2 level 1: 100 kB blocks, a few of them
    path = tmp_path / f"cut.tilewe.{kind}"
    path.write_bytes(packed[:len(packed) * 2 // 3])
    result = invoke("validate", str(path))
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith(f"{path}: error:")]
    assert errors == [f"{path}: error: the {compression.TITLES[compression.SUFFIXES['.' + kind]]} "
                      f"archive is cut short (truncated)"]
    checked = result.output.count(": ok, ")
    assert 0 < checked < 30 * 30, "the games before the cut are kept, the rest are not read"
    assert "Traceback" not in result.output


@pytest.mark.parametrize("kind", KINDS)
def test_corrupt_archive_is_one_input_error(archive, kind, tmp_path):
    packed = bytearray(compress(big_archive(archive, 5), kind))
    middle = len(packed) // 2
    packed[middle:middle + 64] = bytes(b ^ 0x5A for b in packed[middle:middle + 64])
    path = tmp_path / f"bad.tilewe.{kind}"
    path.write_bytes(bytes(packed))
    result = invoke("stats", str(path))
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith(f"{path}: error:")]
    assert len(errors) == 1
    assert "corrupt" in errors[0] or "cut short" in errors[0], errors[0]
    assert "Traceback" not in result.output


def test_garbage_after_a_gzip_member_is_an_input_error(archive, tmp_path):
    path = tmp_path / "tail.tilewe.gz"
    path.write_bytes(compress(archive, "gz") + b"garbage!")
    result = invoke("validate", str(path))
    assert result.exit_code == 2
    assert f"{path}: error: corrupt gzip archive" in result.output


def test_zstandard_without_its_package_says_how_to_install(archive, tmp_path, monkeypatch):
    path = tmp_path / "x.tilewe.zst"
    path.write_bytes(compress(archive, "zst"))
    present = compression.codec
    monkeypatch.setattr(compression, "codec",
                        lambda name: None if name == "zstandard" else present(name))
    result = invoke("validate", str(path))
    assert result.exit_code == 2
    assert result.output.strip() == (f"{path}: error: is a Zstandard archive; reading it needs "
                                     f"the zstandard package: pip install 'game-notation[data]'")
    out = tmp_path / "out.tilewe.zst"
    result = invoke("select", str(tmp_path / "none.tilewe"), "-o", str(out))
    assert result.exit_code == 2 and "pip install 'game-notation[data]'" in result.output
    assert not out.exists()


def test_multi_member_and_multi_frame_streams_read_whole(archive, tmp_path):
    """Concatenated members (``cat a.gz b.gz``), Zstandard frames and a skippable frame."""
    half = len(archive) // 2
    cut = archive.rindex(b"\n[Game", 0, half) + 1
    first, second = archive[:cut], archive[cut:]
    skippable = (0x184D2A53).to_bytes(4, "little") + (3).to_bytes(4, "little") + b"abc"
    plain = invoke("validate", "-", input=archive).stdout
    for kind in KINDS:
        data = compress(first, kind) + compress(second, kind)
        if kind == "zst":
            data = skippable + data + skippable
        assert invoke("validate", "-", input=data).stdout == plain, kind


def test_zstandard_frames_follow_checksums_and_content_sizes():
    frames = compression.ZstdFrames()
    packer = zstandard.ZstdCompressor(write_checksum=True, write_content_size=True)
    data = packer.compress(os.urandom(300_000)) + packer.compress(b"")
    for step in range(0, len(data), 777):  # fed in pieces that cut its headers anywhere
        frames.feed(data[step:step + 777])
        assert frames.whole == (step + 777 >= len(data))
    frames.feed(b"\x28\xb5\x2f")  # the start of another frame's magic
    assert not frames.whole


def peak_reading(path: Path) -> int:
    tracemalloc.start()
    try:
        count = sum(1 for _ in source_records(path, headers=True))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count
    return peak


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_memory_stays_flat_on_a_large_compressed_archive(archive, kind, tmp_path):
    """Peak memory while reading 13x the text is about that of 1x, and far below the text.

    The small archive (25 copies, 0.5 MB) is past where the peak stops growing (measured
    from there to 325 copies: within 12% for every kind); the large one holds 300 copies
    more, as many as 400 held more than 100: memory kept for each copy shows as much.
    Both are measured once a first reading has made its imports and caches (they would
    count in the small one's peak, and hide growth)."""
    small, large = tmp_path / f"small.tilewe.{kind}", tmp_path / f"large.tilewe.{kind}"
    small.write_bytes(compress(big_archive(archive, 25), kind, level=1))
    text = big_archive(archive, 325)
    large.write_bytes(compress(text, kind, level=1))
    assert sum(1 for _ in source_records(small, headers=True))  # imports and caches first
    peak_small, peak_large = peak_reading(small), peak_reading(large)
    assert peak_large < peak_small * 1.25 + (256 << 10), (peak_small, peak_large)
    assert peak_large < len(text) // 2, (peak_large, len(text))


def test_a_decompression_bomb_is_refused_in_bounded_memory(tmp_path, monkeypatch):
    """One endless line of zeros, 32 MB from 32 kB: refused past the line bound, never held."""
    monkeypatch.setattr(compression, "MAX_LINE_BYTES", 1 << 20)
    path = tmp_path / "bomb.tilewe.gz"
    path.write_bytes(gzip.compress(b'[Game "tilewe"]\n\n' + bytes(32 << 20), 9))
    assert path.stat().st_size < 64 << 10
    tracemalloc.start()
    try:
        with pytest.raises(InputError, match="longer than 1,048,576 bytes"):
            for _ in source_records(path):
                pass
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, peak


#: The command line with :data:`~notation.core.limits.MAX_GAME_CHARS` set to ``argv[1]``
#: (the limit is the module's constant, read where a game is gathered).
LIMITED = ("import sys; from notation.core import limits; "
           "limits.MAX_GAME_CHARS = int(sys.argv[1]); "
           "sys.argv = ['notation', *sys.argv[2:]]; "
           "from notation.cli.entry import main; main()")


def bounded(address_space: int, cpu: int = 300):
    """``preexec_fn`` for a child held to ``address_space`` bytes (RLIMIT_AS) and ``cpu``
    seconds of CPU (a hang breaker, never a measure)."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    return limit


def run_bounded(args: list[str], address_space: int, game_chars: int | None = None):
    """``notation ARGS`` in a child under ``address_space`` (``game_chars``: the game limit
    lowered for it)."""
    command = (notation_exe() if game_chars is None
               else [sys.executable, "-c", LIMITED, str(game_chars)])
    return subprocess.run(command + args, capture_output=True, text=True, timeout=HANG_BREAKER,
                          preexec_fn=bounded(address_space), env=dict(os.environ, NO_COLOR="1"))


def blank_game(folder: Path, members: int) -> Path:
    """A ``.gz`` of one game of ``members`` times 64 MiB of blank lines, written member by
    member (the same member again and again: one stream to its reader, never held here)."""
    path = folder / f"blank-{members}.tilewe.gz"
    blanks = b"\n" * (64 << 20)
    with open(path, "wb") as out:
        out.write(gzip.compress(b'[Game "tilewe"]\n' + blanks, 6, mtime=0))
        more = gzip.compress(blanks, 6, mtime=0)
        for _ in range(members - 1):
            out.write(more)
        out.write(gzip.compress(b"1. W5n-a1a1\n", mtime=0))
    return path


@pytest.fixture(scope="module")
def blank_games(tmp_path_factory) -> dict[str, Path]:
    """1.5 GiB of blank lines in a 1.6 MB file (worker processes start for it), and 128 MiB
    in a 130 kB one (read in one process)."""
    folder = tmp_path_factory.mktemp("bomb")
    return {"large": blank_game(folder, 24), "small": blank_game(folder, 2)}


@pytest.mark.slow
def test_a_game_of_blank_lines_is_refused_in_bounded_memory(blank_games):
    """``tags`` of one game of 1.5 GiB of blank lines (a game is read whole) under a 512 MiB
    address space: refused in one line naming the limit once the game passes it, exit 2."""
    blank_game = blank_games["large"]
    done = run_bounded(["tags", str(blank_game)], 512 << 20)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr[-2000:]
    assert done.stderr == (f"{blank_game}: error: the game from line 1 runs past "
                           f"{limits.MAX_GAME_CHARS:,} characters (MAX_GAME_CHARS); not read\n")


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    ["validate"], ["validate", "--jobs", "2"], ["stats"], ["select", "--valid"],
    ["select", "--tag", "Event=x"], ["cat"],
    ["fmt", "--check"], ["dedupe"], ["strip", "-C"], ["replay"],
    ["export", "--to", "csv", "-o", "OUT"]], ids=" ".join)
def test_every_command_refuses_an_over_long_game(blank_games, command, tmp_path):
    """Every reader gathers a game through the same limit (lowered here to 8 MiB, so that
    each command reads little; 256 MiB of address space): in one process, in worker
    processes' batches (``--jobs 2`` of the large file), and skimming (``--tag``)."""
    blank_game = blank_games["large" if "--jobs" in command else "small"]
    args = [str(tmp_path / "out") if arg == "OUT" else arg for arg in command]
    done = run_bounded([*args, str(blank_game)], 256 << 20, game_chars=8 << 20)
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.splitlines()[-1:] == [
        f"{blank_game}: error: the game from line 1 runs past 8,388,608 characters "
        f"(MAX_GAME_CHARS); not read"], done.stderr[-2000:]


def test_a_line_longer_than_a_game_may_be_is_refused_before_it_is_held(monkeypatch):
    """A plain file of one endless line (no compression and its line bound): refused by the
    game limit while its parts are gathered."""
    monkeypatch.setattr(limits, "MAX_GAME_CHARS", 1 << 20)
    blocks = iter(lambda: "x" * (64 << 10), None)  # endless
    with pytest.raises(InputError, match=r"^big: error: a line runs past 1,048,576 "
                                         r"characters, more than a game may hold"):
        for _ in text_stage.chunks(blocks, "big"):
            pass


def xz_result(data: bytes) -> tuple[int, list[str]]:
    """``validate``'s exit code and input errors for an xz file of ``data``."""
    result = invoke("validate", "-", input=data)
    return result.exit_code, [line for line in result.output.splitlines()
                              if line.startswith("<stdin>: error:")]


def test_xz_stream_padding_is_read_and_anything_else_after_a_stream_refused(archive):
    """The .xz format (2.2), as ``xz -t`` reads it: after each stream, stream padding of null
    bytes in a multiple of four, then another stream or the end; anything else is an
    error. The standard library's reader refused padding as a cut, and took any other
    bytes after a stream, a second stream after padding too, for the end."""
    cut = archive.rindex(b"\n[Game", 0, len(archive) // 2) + 1
    first, second = compress(archive[:cut], "xz"), compress(archive[cut:], "xz")
    whole = first + second
    plain = invoke("validate", "-", input=archive).stdout
    for padded in (whole + bytes(4), first + bytes(4) + second, first + bytes(8) + second
                   + bytes(12)):
        assert invoke("validate", "-", input=padded).stdout == plain
    corrupt = "<stdin>: error: corrupt xz archive: "
    refused = {
        whole + bytes(3): "stream padding of 3 null bytes (not a multiple of 4)",
        first + bytes(5) + second: "stream padding of 5 null bytes (not a multiple of 4)",
        whole + b"junk": "data after a stream is neither padding nor a stream",
        whole + bytes(4) + b"garbage!": "data after a stream is neither padding nor a stream",
        first + b"\n" + second: "data after a stream is neither padding nor a stream"}
    for data, reason in refused.items():
        assert xz_result(data) == (2, [corrupt + reason]), reason
    assert xz_result(whole + bytes(4) + second[:4]) == (
        2, ["<stdin>: error: the xz archive is cut short (truncated)"])
    if shutil.which("xz"):  # the reference tool agrees, case by case
        for data, fine in [(whole + bytes(4), True), (first + bytes(4) + second, True),
                           *((data, False) for data in refused)]:
            done = subprocess.run(["xz", "-t"], input=data, capture_output=True)
            assert (done.returncode == 0) == fine


def xz_declaring(data: bytes, dictionary: int) -> bytes:
    """``data`` as an xz stream whose block header declares the LZMA2 dictionary size
    code ``dictionary`` (37: 1.5 GiB), its header's CRC32 made again: compressed with a
    1 MiB dictionary, so it takes no memory to make."""
    packed = bytearray(lzma.compress(data, preset=1))
    header = slice(12, 12 + (packed[12] + 1) * 4)  # after the stream header
    block = packed[header]
    at = block.index(b"\x21\x01") + 2  # LZMA2, one byte of properties: the dictionary
    block[at] = dictionary
    block[-4:] = zlib.crc32(bytes(block[:-4])).to_bytes(4, "little")
    packed[header] = block
    return bytes(packed)


@pytest.mark.slow
def test_an_xz_dictionary_past_the_memory_limit_is_refused_in_one_line(tmp_path):
    """An xz file that declares a 1.5 GiB dictionary, read under a 1 GiB address space: the
    decoder is held to MAX_XZ_MEMORY and refuses it (it was given it: an internal error,
    out of memory). ``xz -9``'s 64 MiB dictionary still reads there."""
    record = b'[Game "tilewe"]\n\n1. W5n-a1a1\n'
    huge = tmp_path / "huge.tilewe.xz"
    huge.write_bytes(xz_declaring(record, 37))
    done = run_bounded(["validate", str(huge)], 1 << 30)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr[-2000:]
    assert done.stderr == (f"{huge}: error: the xz archive needs more than 256 MiB of memory "
                           f"to decompress (a dictionary that large; MAX_XZ_MEMORY); not read\n")
    nine = tmp_path / "nine.tilewe.xz"
    nine.write_bytes(lzma.compress(record, preset=9 | lzma.PRESET_EXTREME))
    done = run_bounded(["validate", str(nine)], 1 << 30)
    assert (done.returncode, done.stdout) == (0, f"{nine}: game 1: ok, 1 ply\n"), done.stderr


@pytest.mark.parametrize("kind", KINDS)
def test_output_written_compressed_round_trips(archive, kind, tmp_path):
    source = tmp_path / "all.tilewe"
    source.write_bytes(archive)
    for command in (["select", "--valid"], ["cat"]):
        plain_out = tmp_path / "plain.tilewe"
        packed_out = tmp_path / f"packed.tilewe.{kind}"
        assert invoke(*command, str(source), "-o", str(plain_out)).exit_code in (0, 1)
        assert invoke(*command, str(source), "-o", str(packed_out)).exit_code in (0, 1)
        assert decompress(packed_out.read_bytes(), kind) == plain_out.read_bytes(), command
        assert compression.kind_of(packed_out.read_bytes()) == compression.SUFFIXES["." + kind]


def test_a_file_rewritten_in_place_keeps_its_compression(tmp_path):
    text = (SAMPLES / "tilewe" / "random-2p.tilewe").read_text(encoding="utf-8")
    messy = text.replace("\n1.", "\n\n\n1.")
    path = tmp_path / "x.tilewe.xz"
    path.write_bytes(compress(messy.encode(), "xz"))
    assert invoke("fmt", "--in-place", str(path)).exit_code == 0
    packed = path.read_bytes()
    assert compression.kind_of(packed) == compression.XZ
    expected = invoke("fmt", "-", input=messy).output
    assert decompress(packed, "xz").decode() == expected


@pytest.mark.parametrize("kind", KINDS)
def test_a_suspended_compressed_file_goes_on_in_a_new_stream(kind, tmp_path):
    """split's pieces are closed and reopened: each reopening adds a stream, read as one."""
    path = tmp_path / f"piece.tilewe.{kind}"
    with AtomicFile(str(path), create=True) as out:
        out.write("one\n")
        out.suspend()
        out.write("two\n")
        out.suspend()
        out.commit()
    assert _read_all(path) == b"one\ntwo\n"


def _read_all(path: Path) -> bytes:
    with open(path, "rb") as raw:
        stream = compression.decompressed(raw.read(compression.MAGIC_BYTES), raw, str(path))
        parts = []
        while block := stream.read(1 << 16):
            parts.append(block)
    return b"".join(parts)


def test_kinds_are_known_by_their_first_bytes_only():
    for kind in KINDS:
        assert compression.kind_of(compress(b"x", kind)) == compression.SUFFIXES["." + kind]
    for plain in (b"", b"[Game", b"BZh", b"BZh0", b"\x1f", b"\x1f\x8b\x00", b'{"game"'):
        assert compression.kind_of(plain) is None
    assert compression.plain_name("a/x.tilewe.BZ2") == "a/x.tilewe"
    assert compression.plain_name("x.tilewe") == "x.tilewe"


def test_compressed_files_keep_their_format_and_their_names(tmp_path):
    """A Pentobi file gzipped is still a Pentobi file (and never rewritten in place in the
    game's own notation); split names its pieces after the record kind, not the gzip."""
    sgf = tmp_path / "club.blksgf"
    sgf.write_text("(;GM[Blokus];1[a18,a19,a20];2[t20])")
    packed = tmp_path / "club.blksgf.gz"
    packed.write_bytes(gzip.compress(sgf.read_bytes()))
    assert invoke("validate", str(packed)).output == f"{packed}: game 1: ok, 2 plies\n"
    refused = invoke("fmt", "-i", str(packed))
    assert refused.exit_code == 2 and "a blksgf file" in refused.output
    assert input_name("games/x.tilewe.gz") == ("x", ".tilewe.gz")
    assert input_name("x.tilewe") == ("x", ".tilewe")


@pytest.mark.parametrize("kind", ["plain", "gz", "xz"])
def test_batches_move_progress_by_input_bytes_to_the_file_size(tmp_path: Path, kind: str):
    """Progress is measured against the file's size on disk, so batches of a compressed
    file count the compressed bytes read for them, not their decompressed text (which
    ran past 100%): together exactly the file's size, each batch its share. Their text is
    the games' (the blank lines between games are in none)."""
    from notation.parallel.batch import batches
    text = (SAMPLES / "tilewe" / "random-4p-three-games.tilewe").read_text(encoding="utf-8")
    plain = ("\n".join([text] * 120)).encode("utf-8")  # several batches of 256 KB
    path = tmp_path / f"many.tilewe{'' if kind == 'plain' else '.' + kind}"
    path.write_bytes({"plain": lambda b: b, "gz": gzip.compress, "xz": lzma.compress}[kind](plain))
    found = list(batches(str(path), target=64 << 10))
    assert len(found) > 3
    assert all(b.read is not None and b.read >= 0 for b in found)
    assert sum(b.progress for b in found) == path.stat().st_size
    assert sum(b.size for b in found) == len(re.sub(r"(?<=\n)\n+(?=\[)", "",
                                                    plain.decode("utf-8")))


def test_no_codec_is_imported_until_a_compressed_file_is_met():
    """Start-up: the codecs (zstandard alone costs 16 ms) load with the first compressed file."""
    code = ("import sys, notation.cli.main; "
            "print(sorted(m for m in ('zstandard', 'gzip') if m in sys.modules))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True)
    assert found.stdout.strip() == "[]"
