#!/usr/bin/env python3
"""One RapidOCR peer of scripts/bench-peers.sh, run by the python of that peer's venv.

  peer-ocr.py ENGINE IMGDIR LIST OUT JOBS
ENGINE: v4 (rapidocr-onnxruntime 1.4, PP-OCRv4) or v6 (rapidocr 3.10, PP-OCRv6 small).
Reads the images named in LIST (one a line, relative to IMGDIR) in JOBS processes, each with
its own engine on one ONNX Runtime thread (intra- and inter-op; the caller sets
OMP_THREAD_LIMIT=1), images handed out one at a time. Writes OUT/<n>.txt for the n-th name:
the boxes grouped into text rows (same row when vertical centres overlap), left to right,
one line per row. An image an engine cannot read is written empty (scored as read empty,
as pricecam's is). Models are loaded before the clock starts (3.10 loads them lazily, on
the first image: here explicitly, first). Prints "WALL_MS CPU_MS": wall from when every
process is ready to the last image done; CPU (user + system, all threads) summed over the
processes.
"""
import multiprocessing as mp
import os
import sys
import time


def load(engine):
    """A function: image path -> [(box, text)], box a list of (x, y) points."""
    if engine == "v4":
        from rapidocr_onnxruntime import RapidOCR
        ocr = RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1)

        def read(path):
            result, _ = ocr(path)
            return [(box, text) for box, text, _ in (result or [])]
        return read
    if engine == "v6":
        from rapidocr import RapidOCR
        ocr = RapidOCR(params={"EngineConfig.onnxruntime.intra_op_num_threads": 1,
                               "EngineConfig.onnxruntime.inter_op_num_threads": 1,
                               "Global.log_level": "error"})
        ocr._load_det_model(), ocr._load_cls_model(), ocr._load_rec_model()

        def read(path):
            out = ocr(path)  # RapidOCROutput; boxes/txts None when nothing was found
            boxes, txts = getattr(out, "boxes", None), getattr(out, "txts", None)
            if boxes is None or txts is None:
                return []
            return list(zip(boxes.tolist(), txts))
        return read
    raise SystemExit(f"peer-ocr: unknown engine {engine!r} (v4 or v6)")


def rows(found):
    boxes = []
    for box, text in found:
        ys = [p[1] for p in box]
        xs = [p[0] for p in box]
        boxes.append((min(ys), max(ys), min(xs), text))
    boxes.sort()
    out = []
    for top, bottom, left, text in boxes:
        mid = (top + bottom) / 2
        for row in out:
            if row["top"] <= mid <= row["bottom"]:
                row["items"].append((left, text))
                break
        else:
            out.append({"top": top, "bottom": bottom, "items": [(left, text)]})
    return [" ".join(t for _, t in sorted(row["items"])) for row in out]


def worker(engine, imgdir, outdir, tasks, results, ready):
    try:
        read = load(engine)
    except BaseException:
        ready.abort()
        raise
    ready.wait(timeout=900)
    start, cpu = time.monotonic(), time.process_time()
    while (task := tasks.get()) is not None:
        i, name = task
        try:
            found = read(os.path.join(imgdir, name))
        except Exception as e:  # one unreadable image is scored as read empty
            print(f"bench-peers: rapidocr {engine}: {name}: {e}", file=sys.stderr)
            found = []
        with open(os.path.join(outdir, f"{i}.txt"), "w") as f:
            f.writelines(line + "\n" for line in rows(found))
    results.put((start, time.monotonic(), time.process_time() - cpu))


def main():
    engine, imgdir, listfile, outdir, jobs = sys.argv[1:]
    names = [n for n in open(listfile).read().split("\n") if n]
    jobs = max(1, min(int(jobs), len(names)))
    ctx = mp.get_context("fork")  # the engines are loaded in the children only
    tasks, results, ready = ctx.Queue(), ctx.Queue(), ctx.Barrier(jobs)
    for task in enumerate(names):
        tasks.put(task)
    for _ in range(jobs):
        tasks.put(None)
    procs = [ctx.Process(target=worker, args=(engine, imgdir, outdir, tasks, results, ready))
             for _ in range(jobs)]
    for p in procs:
        p.start()
    done = []
    while len(done) < jobs:
        try:
            done.append(results.get(timeout=1))
        except Exception:
            if any(p.exitcode not in (None, 0) for p in procs):
                for p in procs:
                    p.kill()
                raise SystemExit(f"peer-ocr: a {engine} process failed")
    for p in procs:
        p.join()
    wall = max(end for _, end, _ in done) - min(start for start, _, _ in done)
    print(int(wall * 1000), int(sum(cpu for _, _, cpu in done) * 1000))


if __name__ == "__main__":
    main()
