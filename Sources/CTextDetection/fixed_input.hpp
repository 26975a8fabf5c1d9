// An ONNX model's first graph input given one exact shape, for OpenCV 4.6's importer.
//
// The detector's graph declares its image input as N x 3 x H x W with named (unknown)
// dimensions. Given no shapes, OpenCV 4.6's importer cannot tell a channel-wise product
// (the neck's squeeze-and-excitation `Mul` of an H x W map by a 1 x 1 one) from an
// element-wise one: it makes an `Eltwise` layer that broadcasts slowly (42 ms of 500 on
// one 1600 x 896 pass) where, with shapes known, it makes a `Scale` layer (2 ms). A net
// here serves one input size anyway (text_detection.h), so its model is given that size:
// the same map to the last bit, the pass 9-13% faster (docs/benchmarks/2026-11-26-fixed-input.md).
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
