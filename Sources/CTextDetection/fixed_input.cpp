// An ONNX model's first graph input given one exact shape: see fixed_input.hpp.
#include "fixed_input.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace {

// Protocol Buffers wire format, as much of it as an ONNX file uses
// (https://protobuf.dev/programming-guides/encoding/).
enum Wire { varint = 0, fixed64 = 1, delimited = 2, fixed32 = 5 };

bool read_varint(const uint8_t *&p, const uint8_t *end, uint64_t &value) {
    value = 0;
    for (int shift = 0; shift < 64 && p < end; shift += 7) {
        uint8_t b = *p++;
        value |= uint64_t(b & 0x7f) << shift;
        if (!(b & 0x80)) return true;
    }
    return false;
}

void write_varint(std::string &out, uint64_t value) {
    while (value >= 0x80) {
        out.push_back(char((value & 0x7f) | 0x80));
        value >>= 7;
    }
    out.push_back(char(value));
}

// One field of a message: its number, wire type, the bytes of the whole field (key
// included) and, for a length-delimited one, its payload.
struct Field {
    uint32_t number;
    int wire;
    const uint8_t *begin, *end;
    const uint8_t *payload, *payload_end;
    uint64_t value;  // a varint field's value
};

// The fields of a message, in order; false when the bytes are not a well-formed message.
bool fields(const uint8_t *p, const uint8_t *end, std::vector<Field> &out) {
    while (p < end) {
        Field f{};
        f.begin = p;
        uint64_t key;
        if (!read_varint(p, end, key)) return false;
        f.number = uint32_t(key >> 3);
        f.wire = int(key & 7);
        switch (f.wire) {
        case varint:
            if (!read_varint(p, end, f.value)) return false;
            break;
        case fixed64:
            if (end - p < 8) return false;
            p += 8;
            break;
        case fixed32:
            if (end - p < 4) return false;
            p += 4;
            break;
        case delimited: {
            uint64_t n;
            if (!read_varint(p, end, n) || n > uint64_t(end - p)) return false;
            f.payload = p;
            f.payload_end = p + n;
            p += n;
            break;
        }
        default:
            return false;
        }
        f.end = p;
        out.push_back(f);
    }
    return true;
}

void append_delimited(std::string &out, uint32_t number, const std::string &payload) {
    write_varint(out, (uint64_t(number) << 3) | delimited);
    write_varint(out, payload.size());
    out += payload;
}

// Field numbers of onnx.proto.
constexpr uint32_t model_graph = 7;
constexpr uint32_t graph_input = 11;
constexpr uint32_t value_info_type = 2;
constexpr uint32_t type_tensor = 1;
constexpr uint32_t tensor_shape = 2;
constexpr uint32_t shape_dim = 1;
constexpr uint32_t dim_value = 1;

// The message `p`..`end` with its first length-delimited field `number` replaced by what
// `rewrite` makes of that field's payload, every other byte as it was; empty when the bytes
// are not a message, there is no such field, or `rewrite` returns empty.
template <typename Rewrite>
std::string rewrite_first(const uint8_t *p, const uint8_t *end, uint32_t number, Rewrite rewrite) {
    std::vector<Field> all;
    if (!fields(p, end, all)) return {};
    std::string out;
    out.reserve(size_t(end - p) + 64);
    bool done = false;
    for (const Field &f : all) {
        if (done || f.number != number || f.wire != delimited) {
            out.append(reinterpret_cast<const char *>(f.begin), f.end - f.begin);
            continue;
        }
        std::string payload = rewrite(f.payload, f.payload_end);
        if (payload.empty()) return {};
        append_delimited(out, number, payload);
        done = true;
    }
    return done ? out : std::string();
}

// A tensor shape of `dims`, when the one it replaces has as many dimensions.
std::string fixed_shape(const uint8_t *p, const uint8_t *end, const std::vector<int64_t> &dims) {
    std::vector<Field> shape;
    if (!fields(p, end, shape)) return {};
    size_t count = 0;
    for (const Field &d : shape) count += d.number == shape_dim;
    if (count != dims.size()) return {};
    std::string out;
    for (int64_t v : dims) {
        std::string dim;
        write_varint(dim, (uint64_t(dim_value) << 3) | varint);
        write_varint(dim, uint64_t(v));
        append_delimited(out, shape_dim, dim);
    }
    return out;
}

}  // namespace

std::string pc_fixed_input(const uint8_t *onnx, size_t length, const std::vector<int64_t> &dims) {
    using Bytes = const uint8_t *;
    // model.graph.input[0] (the image: weights, in files that list them as inputs too, come
    // after it).type.tensor_type.shape
    return rewrite_first(onnx, onnx + length, model_graph, [&](Bytes p, Bytes e) {
        return rewrite_first(p, e, graph_input, [&](Bytes p, Bytes e) {
            return rewrite_first(p, e, value_info_type, [&](Bytes p, Bytes e) {
                return rewrite_first(p, e, type_tensor, [&](Bytes p, Bytes e) {
                    return rewrite_first(p, e, tensor_shape, [&](Bytes p, Bytes e) { return fixed_shape(p, e, dims); });
                });
            });
        });
    });
}
