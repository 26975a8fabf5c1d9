#!/usr/bin/env python3
"""Rewrites PP-OCRv4's text detector so Debian's OpenCV 4.6 DNN can run it.

    rewrite_clip.py IN.onnx OUT.onnx

The exported graph (opset 11+) gives each `Clip` its bounds as inputs (constant
initializers or Constant nodes); OpenCV 4.6's importer reads them only as the `min` /
`max` attributes of the older form. Every Clip's constant bounds become attributes and
its extra inputs are dropped; nothing else changes (the output equals ONNX Runtime's
within 3e-5). A Clip whose bound is not a constant is an error: the model is not the
one this script was written for.
"""
import sys

import onnx
from onnx import helper, numpy_helper


def main(src: str, dst: str) -> int:
    model = onnx.load(src)
    graph = model.graph
    consts = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    for node in graph.node:
        if node.op_type == "Constant":
            for a in node.attribute:
                if a.name == "value":
                    consts[node.output[0]] = numpy_helper.to_array(a.t)
    rewritten = 0
    for node in graph.node:
        if node.op_type != "Clip" or len(node.input) == 1:
            continue
        bounds = {}
        for name, key in zip(node.input[1:], ("min", "max")):
            if not name:
                continue
            if name not in consts:
                print(f"rewrite_clip: {src}: Clip '{node.name}' has a computed {key} bound ({name}); "
                      "this is not the PP-OCRv4 detector this script expects", file=sys.stderr)
                return 1
            bounds[key] = float(consts[name].reshape(-1)[0])
        del node.input[1:]
        for key, value in bounds.items():
            node.attribute.append(helper.make_attribute(key, value))
        rewritten += 1
    if rewritten == 0:
        print(f"rewrite_clip: {src}: no Clip with bound inputs found; not the expected model", file=sys.stderr)
        return 1
    onnx.save(model, dst)
    print(f"rewrite_clip: {rewritten} Clip nodes rewritten -> {dst}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
