"""Compares two `sinew render` pictures of the same frame, one with the
snow's footprints and one with --no-footprints: the pixels the trail
changed are those where the feet pressed the snow. Prints
"track=N darker=N brighter=N max=F mean=F": N pixels whose luma (0..1)
differs by more than 0.04, how many of them are darker and brighter with
the footprints, the largest and the mean luma drop over the track.
Reads the PNGs with camera_measure.read_png (zlib only)."""
import sys

from camera_measure import read_png


def luma(p):
    return (0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]) / 255.0


def main():
    w1, h1, c1, a = read_png(sys.argv[1])
    w2, h2, c2, b = read_png(sys.argv[2])
    assert (w1, h1) == (w2, h2), "pictures of different sizes"
    track = darker = brighter = 0
    drop_max = drop_sum = 0.0
    for y in range(h1):
        for x in range(w1):
            d = luma(b[y][x * c2:x * c2 + 3]) - luma(a[y][x * c1:x * c1 + 3])  # with footprints − without
            if abs(d) > 0.04:
                track += 1
                if d < 0:
                    darker += 1
                    drop_sum += -d
                    drop_max = max(drop_max, -d)
                else:
                    brighter += 1
    mean = drop_sum / darker if darker else 0.0
    print("track=%d darker=%d brighter=%d max=%.3f mean=%.3f" % (track, darker, brighter, drop_max, mean))


main()
