#!/usr/bin/env python3
"""Compare two exports in the "Export format for comparisons" of
docs/DESIGN.md (for example `sinew export` against gltf_reference.py).

    compare_export.py A.json B.json [--tol-rel 1e-5] [--diag D]
                      [--tol-normals 1e-4]

Checks that both files have the same times, the same instances (mesh,
primitive, node, in the same order) and vertex counts, that every position
coordinate differs by at most tol_rel x D, where D is the bounding-box
diagonal of A's positions at its first time (or --diag), and, where both
files have normals for an instance, that every normal coordinate differs by
at most --tol-normals. Prints one line per instance with its largest error
and the ratio to the tolerance; exits 1 on any mismatch, 0 otherwise,
2 on unreadable input.
"""

import argparse
import json
import math
import sys
import warnings

import numpy as np

TIME_TOL = 1e-6  # relative (absolute below 1 s): exports may keep times in float


BIG_ARRAY = 4096  # bytes: flat arrays at least this long are parsed with numpy


def _parse_number_arrays(data):
    """Replace long flat arrays (no nested brackets) in the JSON bytes by
    placeholders, parsed with numpy: far faster and smaller than Python
    lists of floats."""
    arrays = []
    out = []
    pos = 0
    start = data.find(b"[")
    while start >= 0:
        nxt_open = data.find(b"[", start + 1)
        close = data.find(b"]", start + 1)
        if close < 0:
            break
        if (nxt_open < 0 or close < nxt_open) and close - start >= BIG_ARRAY:
            inner = data[start + 1:close]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                a = np.fromstring(inner, sep=",")
            if a.size != inner.count(b",") + 1:  # not plain numbers: let json decide
                a = np.array(json.loads(data[start:close + 1]), dtype=np.float64)
            out.append(data[pos:start])
            out.append(b'{"__array__": %d}' % len(arrays))
            arrays.append(a)
            pos = close + 1
            start = data.find(b"[", pos)
        else:
            start = nxt_open
    out.append(data[pos:])
    return b"".join(out), arrays


def load(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
        data, arrays = _parse_number_arrays(data)
        doc = json.loads(data.decode("utf-8"))
    except OSError as e:
        raise SystemExit("error: cannot read %s: %s" % (path, e.strerror))
    except ValueError as e:
        raise SystemExit("error: %s is not valid JSON: %s" % (path, e))
    if not isinstance(doc, dict) or not isinstance(doc.get("primitives"), list) \
            or not isinstance(doc.get("times"), list):
        raise SystemExit("error: %s: expected an object with 'times' and 'primitives'" % path)
    for inst in doc["primitives"]:
        for key in ("positions_by_time", "normals_by_time"):
            v = inst.get(key) if isinstance(inst, dict) else None
            if isinstance(v, list):
                inst[key] = [arrays[x["__array__"]] if isinstance(x, dict) and "__array__" in x else x
                             for x in v]
    return doc


def frames(inst, key, path, nt):
    """(nt, 3V) float array of positions_by_time / normals_by_time."""
    v = inst.get(key)
    if v is None:
        return None
    try:
        rows = [np.asarray(x, dtype=np.float64) for x in v]
        if any(r.ndim != 1 for r in rows) or len({len(r) for r in rows}) > 1:
            raise ValueError
        a = np.stack(rows) if rows else np.zeros((0, 0))
    except (ValueError, TypeError):
        raise SystemExit("error: %s: %s of node %s is not a list of flat number arrays of one length"
                         % (path, key, inst.get("node_index")))
    n = inst.get("vertex_count", 0)
    if a.size == 0 and n == 0:
        a = np.zeros((nt, 0))
    if a.ndim != 2 or a.shape != (nt, 3 * n):
        raise SystemExit("error: %s: %s of node %s has shape %s, expected (%d, %d)"
                         % (path, key, inst.get("node_index"), a.shape, nt, 3 * n))
    return a


def ident(inst):
    return (inst.get("mesh_index"), inst.get("primitive_index"), inst.get("node_index"))


def main(argv=None):
    ap = argparse.ArgumentParser(description="compare two position/normal exports")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--tol-rel", type=float, default=1e-5,
                    help="position tolerance as a fraction of the bounding-box diagonal (default 1e-5)")
    ap.add_argument("--diag", type=float, default=None,
                    help="bounding-box diagonal to use (default: from A's first time)")
    ap.add_argument("--tol-normals", type=float, default=1e-4,
                    help="absolute tolerance per normal coordinate (default 1e-4)")
    args = ap.parse_args(argv)

    A = load(args.a)
    B = load(args.b)
    failures = []

    ta = np.array(A["times"], dtype=np.float64)
    tb = np.array(B["times"], dtype=np.float64)
    if ta.shape != tb.shape:
        print("FAIL: %d times in %s, %d in %s" % (len(ta), args.a, len(tb), args.b))
        return 1
    dt = np.abs(ta - tb)
    bad = dt > TIME_TOL * np.maximum(1.0, np.abs(ta))
    if bad.any():
        i = int(np.argmax(bad))
        print("FAIL: times differ: time %d is %r in A, %r in B" % (i, ta[i], tb[i]))
        return 1
    nt = len(ta)

    ia = [ident(x) for x in A["primitives"]]
    ib = [ident(x) for x in B["primitives"]]
    if ia != ib:
        only_a = [x for x in ia if x not in ib]
        only_b = [x for x in ib if x not in ia]
        msg = "FAIL: instances (mesh, primitive, node) differ"
        if only_a:
            msg += "; only in A: %s" % only_a[:10]
        if only_b:
            msg += "; only in B: %s" % only_b[:10]
        if not only_a and not only_b:
            msg += "; same set, different order"
        print(msg)
        return 1

    for x, y in zip(A["primitives"], B["primitives"]):
        if x.get("vertex_count") != y.get("vertex_count"):
            failures.append("mesh %s primitive %s node %s: vertex_count %s in A, %s in B"
                            % (ident(x) + (x.get("vertex_count"), y.get("vertex_count"))))
    if failures:
        for f in failures:
            print("FAIL: " + f)
        return 1

    for key in ("method", "loop"):
        if key in A and key in B and A[key] != B[key]:
            print("note: %s is %r in A, %r in B" % (key, A[key], B[key]))
    for x, y in zip(A["primitives"], B["primitives"]):
        if "skinned" in x and "skinned" in y and x["skinned"] != y["skinned"]:
            print("note: node %s mesh %s prim %s: skinned is %r in A, %r in B"
                  % (ident(x) + (x["skinned"], y["skinned"])))

    pos_a = [frames(x, "positions_by_time", args.a, nt) for x in A["primitives"]]
    pos_b = [frames(x, "positions_by_time", args.b, nt) for x in B["primitives"]]
    if any(p is None for p in pos_a + pos_b):
        print("FAIL: an instance has no positions_by_time")
        return 1

    if args.diag is not None:
        diag = args.diag
    else:
        lo = np.full(3, np.inf)
        hi = np.full(3, -np.inf)
        for p in pos_a:
            if p.shape[1] and nt:
                q = p[0].reshape(-1, 3)
                q = q[np.all(np.isfinite(q), axis=1)]
                if len(q):
                    lo = np.minimum(lo, q.min(axis=0))
                    hi = np.maximum(hi, q.max(axis=0))
        diag = float(np.linalg.norm(hi - lo)) if np.all(hi >= lo) else 0.0
    if not diag > 0 or not math.isfinite(diag):
        print("note: bounding-box diagonal is %r; using 1" % diag)
        diag = 1.0
    tol = args.tol_rel * diag
    print("times %d, instances %d, diagonal %.6g, position tolerance %.3g (%.3g x diagonal)"
          % (nt, len(ia), diag, tol, args.tol_rel))

    worst = 0.0
    for x, y, pa, pb in zip(A["primitives"], B["primitives"], pos_a, pos_b):
        mesh, prim, node = ident(x)
        nv = x.get("vertex_count", 0)
        line = "node %s mesh %s prim %s (%d vertices):" % (node, mesh, prim, nv)
        if pa.size:
            d = np.abs(pa - pb)
            nonfinite = ~np.isfinite(d)
            # identical non-finite values (e.g. both inf) are not a difference
            same = nonfinite & ((pa == pb) | (np.isnan(pa) & np.isnan(pb)))
            d[same] = 0.0
            d[nonfinite & ~same] = np.inf
            k = int(np.argmax(d))
            err = float(d.flat[k])
            ti, ci = divmod(k, pa.shape[1])
            ratio = err / tol
            worst = max(worst, ratio)
            line += " max |dpos| %.3g (%.3g of tolerance) at t=%g vertex %d" % (err, ratio, ta[ti], ci // 3)
            if not err <= tol:
                failures.append("node %s mesh %s prim %s: position error %.6g > %.6g at t=%g vertex %d "
                                "(A %s, B %s)" % (node, mesh, prim, err, tol, ta[ti], ci // 3,
                                                  pa[ti, ci // 3 * 3:ci // 3 * 3 + 3].tolist(),
                                                  pb[ti, ci // 3 * 3:ci // 3 * 3 + 3].tolist()))
        else:
            line += " no vertices"
        na = frames(x, "normals_by_time", args.a, nt)
        nb = frames(y, "normals_by_time", args.b, nt)
        if na is not None and nb is not None and na.size:
            d = np.abs(na - nb)
            d[~np.isfinite(d)] = np.inf
            k = int(np.argmax(d))
            err = float(d.flat[k])
            ti, ci = divmod(k, na.shape[1])
            line += "; max |dnormal| %.3g (%.3g of %.3g)" % (err, err / args.tol_normals, args.tol_normals)
            if not err <= args.tol_normals:
                failures.append("node %s mesh %s prim %s: normal error %.6g > %.6g at t=%g vertex %d "
                                "(A %s, B %s)" % (node, mesh, prim, err, args.tol_normals, ta[ti], ci // 3,
                                                  na[ti, ci // 3 * 3:ci // 3 * 3 + 3].tolist(),
                                                  nb[ti, ci // 3 * 3:ci // 3 * 3 + 3].tolist()))
        elif (na is None) != (nb is None):
            line += "; normals only in %s (not compared)" % ("A" if na is not None else "B")
        print(line)

    if failures:
        for f in failures:
            print("FAIL: " + f)
        print("FAIL: %d mismatch(es) between %s and %s" % (len(failures), args.a, args.b))
        return 1
    print("OK: all positions within %.3g x diagonal (worst %.3g of tolerance)" % (args.tol_rel, worst))
    return 0


if __name__ == "__main__":
    sys.exit(main())
