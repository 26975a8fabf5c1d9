// An ONNX model's first graph input given one exact shape.
//
// The detector's graph declares its image input as N x 3 x H x W with named (unknown)
// dimensions. A net here serves one input size (text_detection.h), so its model is given
// that size. Written for OpenCV 4.6's importer, which without shapes made slow broadcasting
// layers (docs/benchmarks/2026-11-26-fixed-input.md); with ONNX Runtime, which runs the nets
// since 2026-11-29, the pass costs the same either way and making a session takes 30 ms
// instead of 75 (its shape inference has nothing left to propagate).
#ifndef PRICECAM_FIXED_INPUT_HPP
#define PRICECAM_FIXED_INPUT_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

/// The serialized ONNX model `onnx` (`length` bytes) with its graph's first input given
/// the shape `dims`; every other byte as it was. Empty when the bytes are not an ONNX
/// model whose first input is a tensor of as many dimensions.
std::string pc_fixed_input(const uint8_t *onnx, size_t length, const std::vector<int64_t> &dims);

#endif
