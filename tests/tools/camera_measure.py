"""Measures a `sinew render --view weights:JOINT --aa none` picture: the
pixels where the joint's weight is above about one half (the heat map's
red-to-yellow half: red clearly above blue), as a fraction of the picture,
and their bounding box's fraction of the picture's area and height; the
character's pixels (any weight: every heat colour is saturated, the
background grey) as a fraction, and how many lie on the picture's border.
Prints "pixels=F box=F height=F body=F edge=N cx=F hx=F" (cx: the character's
mean column over the width; hx: the same for the joint's pixels). Reads the PNG with zlib only (8-bit RGB
or RGBA, not interlaced, as sinew writes it)."""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), "8-bit RGB or RGBA only"
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, channels, rows


def main():
    width, height, channels, rows = read_png(sys.argv[1])
    count, x0, y0, x1, y1 = 0, width, height, -1, -1
    body, edge, sum_x, hot_x = 0, 0, 0, 0
    for y, line in enumerate(rows):
        for x in range(width):
            r, g, b = line[x * channels], line[x * channels + 1], line[x * channels + 2]
            if max(r, g, b) - min(r, g, b) > 30:
                body += 1
                sum_x += x
                if x in (0, width - 1) or y in (0, height - 1):
                    edge += 1
            if r > b + 12:
                count += 1
                hot_x += x
                x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
    area = width * height
    box = (x1 - x0 + 1) * (y1 - y0 + 1) / area if count else 0.0
    tall = (y1 - y0 + 1) / height if count else 0.0
    cx = sum_x / body / width if body else -1.0
    hx = hot_x / count / width if count else -1.0
    print("pixels=%.3f box=%.3f height=%.3f body=%.3f edge=%d cx=%.3f hx=%.3f"
          % (count / area, box, tall, body / area, edge, cx, hx))


if __name__ == "__main__":
    main()
