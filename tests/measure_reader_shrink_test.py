#!/usr/bin/env python3
"""scripts/measure_reader.py's picture shrink (png_shrunk, for `geometry3k --long-side`), on a PNG
written by hand: 4 x 2 RGBA pixels, its rows filtered None and Up, shrunk to 2 px on its longer side.
Each output pixel is the mean of the four source pixels whose centres fall in it, a transparent pixel
counting as white (values worked by hand).

Usage: measure_reader_shrink_test.py SOURCE_DIR"""
import importlib.util
import os
import struct
import sys
import tempfile
import zlib

spec = importlib.util.spec_from_file_location(
    "measure_reader", os.path.join(sys.argv[1], "scripts", "measure_reader.py"))
measure = importlib.util.module_from_spec(spec)
spec.loader.exec_module(measure)


def chunk(kind, payload):
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def png_bytes(data):
    """The PNG bytes of 8-bit RGBA rows; the first row filtered None, the second Up."""
    first, second = bytes(data[0]), bytes(data[1])
    up = bytes((b - a) & 255 for a, b in zip(first, second))
    raw = b"\0" + first + b"\2" + up
    header = struct.pack(">IIBBBBB", len(first) // 4, len(data), 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def pixels(path):
    """The RGB pixels of an unfiltered 8-bit RGB PNG (as png_shrunk writes it)."""
    data = open(path, "rb").read()
    width, height = struct.unpack(">II", data[16:24])
    raw = zlib.decompress(measure.png_idat(data))
    stride = 3 * width
    return [[tuple(raw[y * (stride + 1) + 1 + 3 * x:y * (stride + 1) + 4 + 3 * x]) for x in range(width)]
            for y in range(height)]


# Left half: black, black, 100 gray, a transparent pixel (white): mean (0+0+100+255)/4 = 88.75 -> 89.
# Right half: red, red, red at alpha 0 (white), blue: R (255+255+255+0)/4 = 191.25 -> 191,
# G (0+0+255+0)/4 = 63.75 -> 64, B (0+0+255+255)/4 = 127.5 -> 128 (Python rounds half to even: 128).
rows = [[0, 0, 0, 255, 0, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255],
        [100, 100, 100, 255, 9, 9, 9, 0, 255, 0, 0, 0, 0, 0, 255, 255]]
with tempfile.TemporaryDirectory() as folder:
    source, target = os.path.join(folder, "in.png"), os.path.join(folder, "out.png")
    open(source, "wb").write(png_bytes(rows))
    scale = measure.png_shrunk(source, target, 2)
    got = pixels(target)
want = [[(89, 89, 89), (191, 64, 128)]]
ok = scale == 0.5 and got == want
print(("ok    " if ok else "FAIL  ") + f"shrunk to 2 px: scale {scale}, pixels {got}")
sys.exit(0 if ok else 1)
