"""classes.py MODEL.onnx CLASSES.json: the classes of PP-OCRv4's recogniser after CTC's blank
(class 0), as a JSON array of strings: the model's `character` metadata, one entry a line, and a
space last (PaddleOCR's use_space_char). Needs Debian's python3-onnx."""

import json, sys, onnx
src, out = sys.argv[1], sys.argv[2]
meta = {p.key: p.value for p in onnx.load(src).metadata_props}
if 'character' not in meta:
    sys.exit(f'classes.py: {src} has no `character` metadata: not the recogniser this project installs')
with open(out, 'w', encoding='utf-8') as f:
    json.dump(meta['character'].split('\n') + [' '], f, ensure_ascii=False)
