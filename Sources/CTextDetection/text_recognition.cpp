// The C++ side of line recognition (the net run by ONNX Runtime, the crop by OpenCV): see
// include/text_recognition.h.
#include "text_recognition.h"

#include "flight.hpp"
#include "ort.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <new>
#include <string>

struct pc_textrec {
    OrtNet net;
    int width;     // the widest input it takes
    cv::Mat blob;  // 1 x 3 x 48 x (this run's input width), reused
};

extern "C" pc_textrec *pc_textrec_create(const uint8_t *onnx, size_t length, int width, char *error, size_t error_length) {
    if (!onnx || length == 0 || width <= 0 || width % 8) {
        pc_set_error(error, error_length, "bad arguments (empty model or a width that is not a multiple of 8)");
        return nullptr;
    }
    auto *rec = new (std::nothrow) pc_textrec();
    if (!rec) {
        pc_set_error(error, error_length, "out of memory");
        return nullptr;
    }
    if (!pc_make_net(rec->net, rec->blob, onnx, length, PC_TEXTREC_HEIGHT, width, PC_TEXTREC_HEIGHT, width, error,
                     error_length)) {
        delete rec;
        return nullptr;
    }
    rec->width = width;
    return rec;
}

extern "C" void pc_textrec_destroy(pc_textrec *rec) {
    Flight flight;
    if (!flight.ok || !rec) return;
    pc_ort_free(rec->net);
    delete rec;
}

extern "C" int pc_textrec_run(pc_textrec *rec, const uint8_t *gray, int image_width, int image_height, size_t stride, int x,
                              int y, int box_width, int box_height, int input_width, int32_t *classes,
                              float *probabilities, int capacity, int *scaled_width, char *error, size_t error_length) {
    if (!rec || !classes || !probabilities || !scaled_width || capacity <= 0 ||
        !pc_box_inside(gray, image_width, image_height, x, y, box_width, box_height)) {
        pc_set_error(error, error_length, "bad arguments (empty image or a box outside it)");
        return -1;
    }
    if (input_width <= 0 || input_width % 8 || input_width > rec->width) {
        pc_set_error(error, error_length, "bad input width (not a multiple of 8, or wider than the recogniser was made for)");
        return -1;
    }
    Flight flight;
    if (!flight.ok) {
        pc_set_error(error, error_length, "the process is exiting");
        return -1;
    }
    try {
        const int h = PC_TEXTREC_HEIGHT, W = input_width;
        int dims[4] = {1, 3, h, W};
        rec->blob.create(4, dims, CV_32F);
        // PaddleOCR's resize_norm_img: 48 high, the width the shape asks (rounded up), at most W.
        const int sw = pc_fill_line_blob(gray, image_width, image_height, stride, x, y, box_width, box_height, rec->blob, W, h);
        const int64_t shape[4] = {1, 3, h, W};
        OrtOutput out;
        std::string why;
        if (!pc_ort_run(rec->net, rec->blob.ptr<float>(), shape, 4, out, why)) {
            pc_set_error(error, error_length, why.c_str());
            return -1;
        }
        // [1, T, C]: per step, the classes' probabilities (the graph ends in a softmax).
        if (out.shape.size() != 3 || out.shape[0] != 1) {
            pc_set_error(error, error_length, "the network's output is not [1, steps, classes]");
            return -1;
        }
        const int steps = static_cast<int>(out.shape[1]), n = static_cast<int>(out.shape[2]);
        const float *p = out.data;
        for (int t = 0; t < std::min(steps, capacity); t++) {
            const float *row = p + static_cast<size_t>(t) * n;
            const int best = static_cast<int>(std::max_element(row, row + n) - row);
            classes[t] = best;
            probabilities[t] = row[best];
        }
        *scaled_width = sw;
        return std::min(steps, capacity);
    } catch (const std::exception &e) {
        pc_set_error(error, error_length, e.what());
        return -1;
    }
}
