"""rewrite.py IN.onnx OUT.onnx CHARS.json: PP-OCRv4's recogniser, after onnxsim has fixed its input
to 1 x 3 x 48 x W (and folded the shape arithmetic), made into a graph Debian's OpenCV 4.6 DNN
runs, with the same output (within 1e-4 of ONNX Runtime's):
- Clip bounds given as attributes (OpenCV 4.6 reads only those);
- Gemm as MatMul + Add (its Gemm wants a 2-D input; here it is [1, N, C]);
- a [1, N, 1] operand of Sub/Div/Mul/Add (LayerNorm's mean and deviation) widened to [1, N, C]
  by a MatMul with ones (OpenCV 4.6 broadcasts only constants);
- a per-channel constant on [1, N, C] applied on an [N, C] reshape (ditto).
Everything else is kept. CHARS.json gets the model's classes after CTC's blank (class 0): its
`character` metadata, one entry a line, and a space last (PaddleOCR's use_space_char), as a
JSON array of strings."""

import json, sys, onnx, numpy as np
from onnx import numpy_helper, shape_inference, helper
src, dst, chars = sys.argv[1], sys.argv[2], sys.argv[3]
m = onnx.load(src)
shapes = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim]
          for v in list(shape_inference.infer_shapes(m).graph.value_info) + list(m.graph.input)}
g = m.graph
inits = {t.name: numpy_helper.to_array(t) for t in g.initializer}
consts = {n.output[0]: numpy_helper.to_array(n.attribute[0].t) for n in g.node if n.op_type == 'Constant'}
const = lambda name: inits.get(name, consts.get(name))
new = []; k = 0
def add_init(a, name):
    g.initializer.append(numpy_helper.from_array(a, name)); return name
for n in list(g.node):
    k += 1
    if n.op_type == 'Clip' and len(n.input) > 1:
        b = {key: float(const(nm).reshape(-1)[0]) for nm, key in zip(n.input[1:], ('min', 'max')) if nm}
        del n.input[1:]
        for key, v in b.items(): n.attribute.append(helper.make_attribute(key, v))
        new.append(n); continue
    if n.op_type == 'Gemm':
        at = {a.name: helper.get_attribute_value(a) for a in n.attribute}
        assert at.get('alpha', 1.0) == 1.0 and at.get('beta', 1.0) == 1.0 and not at.get('transA', 0)
        B = const(n.input[1]); B = B.T.copy() if at.get('transB', 0) else B
        mm = n.output[0] + '_mm'
        new.append(helper.make_node('MatMul', [n.input[0], add_init(B, f'gemmB_{k}')], [mm], name=n.name + '_mm'))
        new.append(helper.make_node('Add', [mm, n.input[2]], [n.output[0]], name=n.name + '_add')); continue
    if n.op_type in ('Sub', 'Div', 'Mul', 'Add') and len(n.input) == 2:
        a, b = n.input; sa, sb = shapes.get(a), shapes.get(b); cb = const(b)
        if cb is None and sa and sb and len(sa) == len(sb) and sa != sb and sb[-1] == 1 and sa[:-1] == sb[:-1]:
            wide = b + f'_wide{k}'
            new.append(helper.make_node('MatMul', [b, add_init(np.ones((1, sa[-1]), np.float32), f'ones_{k}')], [wide], name=f'Widen_{k}'))
            n.input[1] = wide; new.append(n); continue
        if sa and len(sa) == 3 and cb is not None and cb.size > 1 and cb.size == sa[-1]:
            x2, y2 = a + f'_2d{k}', n.output[0] + f'_2d{k}'
            new.append(helper.make_node('Reshape', [a, add_init(np.array([sa[0] * sa[1], sa[2]], np.int64), f'r2_{k}')], [x2], name=f'R2_{k}'))
            new.append(helper.make_node(n.op_type, [x2, b], [y2], name=n.name))
            new.append(helper.make_node('Reshape', [y2, add_init(np.array(sa, np.int64), f'r3_{k}')], [n.output[0]], name=f'R3_{k}'))
            continue
    new.append(n)
del g.node[:]; g.node.extend(new)
onnx.save(m, dst)
meta = {p.key: p.value for p in m.metadata_props}
classes = meta['character'].split('\n') + [' ']
with open(chars, 'w', encoding='utf-8') as f:
    json.dump(classes, f, ensure_ascii=False)
