// The C++ side of text detection (the net run by ONNX Runtime, the rest by OpenCV): see
// include/text_detection.h.
#include "text_detection.h"

#include "flight.hpp"
#include "ort.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <new>
#include <string>
#include <vector>

struct pc_textdet {
    OrtNet net;
    int width;
    int height;
    cv::Mat blob;  // 1 x 3 x height x width, reused
};

extern "C" pc_textdet *pc_textdet_create(const uint8_t *onnx, size_t length, int width, int height, char *error,
                                         size_t error_length) {
    if (!onnx || length == 0 || width <= 0 || height <= 0 || width % 32 || height % 32) {
        pc_set_error(error, error_length, "bad arguments (empty model or an input size that is not a multiple of 32)");
        return nullptr;
    }
    auto *det = new (std::nothrow) pc_textdet();
    if (!det) {
        pc_set_error(error, error_length, "out of memory");
        return nullptr;
    }
    if (!pc_make_net(det->net, det->blob, onnx, length, 32, 32, height, width, error, error_length)) {
        delete det;
        return nullptr;
    }
    det->width = width;
    det->height = height;
    return det;
}

extern "C" int pc_textdet_resize(pc_textdet *det, int width, int height) {
    if (!det || width <= 0 || height <= 0 || width % 32 || height % 32) return -1;
    if (det->width == width && det->height == height) return 0;
    try {
        det->width = width;
        det->height = height;
        int shape[4] = {1, 3, height, width};
        det->blob.create(4, shape, CV_32F);
        return 0;
    } catch (const std::exception &) {
        return -1;
    }
}

extern "C" void pc_textdet_destroy(pc_textdet *det) {
    // While the process exits, a net is left to the system: its release would need the
    // runtime's globals.
    Flight flight;
    if (!flight.ok || !det) return;
    pc_ort_free(det->net);
    delete det;
}

// The detector's input before it is scaled to [-1, 1]: the image resized to the working size
// (area averaging when shrunk, bilinear when enlarged).
static cv::Mat pc_detector_input(const uint8_t *gray, int image_width, int image_height, size_t stride, int scaled_width,
                                 int scaled_height) {
    cv::Mat src(image_height, image_width, CV_8UC1, const_cast<uint8_t *>(gray), stride);
    if (scaled_width == image_width && scaled_height == image_height) return src;
    cv::Mat scaled;
    int interp = scaled_width < image_width ? cv::INTER_AREA : cv::INTER_LINEAR;
    cv::resize(src, scaled, cv::Size(scaled_width, scaled_height), 0, 0, interp);
    return scaled;
}

extern "C" float pc_scaled_edge_width(const uint8_t *gray, int image_width, int image_height, size_t stride, int scaled_width,
                                      int scaled_height) {
    if (!gray || image_width <= 0 || image_height <= 0 || scaled_width <= 0 || scaled_height <= 0) return -1;
    try {
        cv::Mat scaled = pc_detector_input(gray, image_width, image_height, stride, scaled_width, scaled_height);
        return pc_edge_width(scaled.ptr<uint8_t>(), scaled.cols, scaled.rows, scaled.step[0]);
    } catch (const std::exception &) {
        return -1;
    }
}

extern "C" float pc_edge_width(const uint8_t *gray, int width, int height, size_t stride) {
    if (!gray || width < 2 || height < 2) return 0;
    unsigned long levels[256] = {0}, step[256] = {0}, n = 0;
    for (int y = 0; y + 1 < height; y++) {
        const uint8_t *line = gray + y * stride, *next = line + stride;
        for (int x = 0; x + 1 < width; x++) {
            const int v = line[x];
            levels[v]++;
            step[std::abs(line[x + 1] - v)]++;
            step[std::abs(next[x] - v)]++;
            n++;
        }
    }
    int p2 = 0, p98 = 255;
    unsigned long c = 0;
    for (int i = 0; i < 256; i++) { c += levels[i]; if (c * 100 >= n * 2) { p2 = i; break; } }
    c = 0;
    for (int i = 0; i < 256; i++) { c += levels[i]; if (c * 100 >= n * 98) { p98 = i; break; } }
    if (p98 <= p2) return 0;
    const int floor = (p98 - p2 + 9) / 10;
    unsigned long edges = 0;
    for (int i = floor; i < 256; i++) edges += step[i];
    if (edges == 0) {
        // No step reaches a tenth of the contrast: the edges spread over more than 10 px,
        // at least the contrast over the steepest step there is.
        for (int i = floor - 1; i > 0; i--)
            if (step[i] > 0) return static_cast<float>(p98 - p2) / static_cast<float>(i);
        return 0;
    }
    int s90 = 255;
    c = 0;
    for (int i = floor; i < 256; i++) { c += step[i]; if (c * 10 >= edges * 9) { s90 = i; break; } }
    return static_cast<float>(p98 - p2) / static_cast<float>(s90 > 0 ? s90 : 1);
}

extern "C" int pc_textdet_run(pc_textdet *det, const uint8_t *gray, int image_width, int image_height, size_t stride,
                              int scaled_width, int scaled_height, float sharpen_edge, float sharpen_amount, float least_spread,
                              float *edge_width, float *map, char *error, size_t error_length) {
    if (!det || !gray || !map || image_width <= 0 || image_height <= 0 || scaled_width <= 0 || scaled_height <= 0 ||
        scaled_width > det->width || scaled_height > det->height) {
        pc_set_error(error, error_length, "bad arguments (empty image or a scaled size over the net's input)");
        return -1;
    }
    Flight flight;
    if (!flight.ok) {
        pc_set_error(error, error_length, "the process is exiting");
        return -1;
    }
    try {
        cv::Mat scaled = pc_detector_input(gray, image_width, image_height, stride, scaled_width, scaled_height);
        if (edge_width) *edge_width = 0;
        if (sharpen_edge > 0) {
            const float spread =
                std::max(least_spread, pc_edge_width(scaled.ptr<uint8_t>(), scaled.cols, scaled.rows, scaled.step[0]));
            if (edge_width) *edge_width = spread;
            if (spread > sharpen_edge || least_spread > 0) {
                cv::Mat soft, sharp;
                cv::GaussianBlur(scaled, soft, cv::Size(0, 0), spread / 2);
                // scaled + amount * (scaled - soft), saturated to 0...255.
                cv::addWeighted(scaled, 1 + sharpen_amount, soft, -sharpen_amount, 0, sharp);
                scaled = sharp;
            }
        }
        pc_fill_blob(scaled, det->blob, det->width, det->height);
        const int64_t shape[4] = {1, 3, det->height, det->width};
        OrtOutput out;
        std::string why;
        if (!pc_ort_run(det->net, det->blob.ptr<float>(), shape, 4, out, why)) {
            pc_set_error(error, error_length, why.c_str());
            return -1;
        }
        const int plane = det->width * det->height;
        size_t total = 1;
        for (int64_t d : out.shape) total *= static_cast<size_t>(d);
        if (total != static_cast<size_t>(plane)) {
            pc_set_error(error, error_length, "the network's output is not one map of its input size");
            return -1;
        }
        std::memcpy(map, out.data, sizeof(float) * plane);
        return 0;
    } catch (const std::exception &e) {
        pc_set_error(error, error_length, e.what());
        return -1;
    }
}

// Corners of a rotated rectangle, clockwise from the top-left (as PaddleOCR's get_mini_boxes
// orders them: the two leftmost points, the upper one first, then the two rightmost).
static void ordered_corners(const cv::RotatedRect &r, pc_text_box &box) {
    cv::Point2f p[4];
    r.points(p);
    std::sort(p, p + 4, [](const cv::Point2f &a, const cv::Point2f &b) { return a.x < b.x; });
    cv::Point2f tl, bl, tr, br;
    if (p[0].y <= p[1].y) { tl = p[0]; bl = p[1]; } else { tl = p[1]; bl = p[0]; }
    if (p[2].y <= p[3].y) { tr = p[2]; br = p[3]; } else { tr = p[3]; br = p[2]; }
    const cv::Point2f q[4] = {tl, tr, br, bl};
    for (int i = 0; i < 4; i++) {
        box.x[i] = q[i].x;
        box.y[i] = q[i].y;
    }
}

extern "C" int pc_db_boxes(const float *map, int width, int height, int valid_width, int valid_height, float threshold,
                           float box_threshold, float unclip_ratio, float min_size, pc_text_box *boxes, int capacity) {
    if (!map || width <= 0 || height <= 0 || valid_width <= 0 || valid_height <= 0 || valid_width > width ||
        valid_height > height || capacity < 0 || (capacity > 0 && !boxes)) {
        return -1;
    }
    Flight flight;
    if (!flight.ok) return -1;
    try {
        cv::Mat full(height, width, CV_32F, const_cast<float *>(map));
        cv::Mat prob = full(cv::Rect(0, 0, valid_width, valid_height));
        cv::Mat mask = prob > threshold;  // 255 where text
        cv::dilate(mask, mask, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2, 2)));
        std::vector<std::vector<cv::Point>> contours;
        cv::findContours(mask, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
        std::vector<pc_text_box> found;
        for (const auto &contour : contours) {
            if (contour.size() < 3) {
                continue;
            }
            cv::RotatedRect r = cv::minAreaRect(contour);
            if (std::min(r.size.width, r.size.height) < min_size) {
                continue;
            }
            // Mean probability inside the contour, over the contour's bounding rectangle.
            cv::Rect bounds = cv::boundingRect(contour) & cv::Rect(0, 0, valid_width, valid_height);
            if (bounds.empty()) {
                continue;
            }
            cv::Mat inside = cv::Mat::zeros(bounds.size(), CV_8UC1);
            std::vector<std::vector<cv::Point>> shifted(1);
            for (const auto &p : contour) {
                shifted[0].push_back(p - bounds.tl());
            }
            cv::fillPoly(inside, shifted, cv::Scalar(1));
            float score = static_cast<float>(cv::mean(prob(bounds), inside)[0]);
            if (score < box_threshold) {
                continue;
            }
            // Unclip: the shrunk text kernel grown back by D = A * r / L (DB's offset of a
            // polygon, which for a rectangle adds D on every side).
            const float w = r.size.width, h = r.size.height;
            const float d = w * h * unclip_ratio / (2 * (w + h));
            cv::RotatedRect grown(r.center, cv::Size2f(w + 2 * d, h + 2 * d), r.angle);
            if (std::min(grown.size.width, grown.size.height) < min_size + 2) {
                continue;
            }
            pc_text_box box;
            ordered_corners(grown, box);
            box.score = score;
            found.push_back(box);
        }
        std::stable_sort(found.begin(), found.end(),
                         [](const pc_text_box &a, const pc_text_box &b) { return a.score > b.score; });
        const int n = static_cast<int>(found.size());
        for (int i = 0; i < std::min(n, capacity); i++) {
            boxes[i] = found[i];
        }
        return n;
    } catch (const std::exception &) {
        return -1;
    }
}

namespace {

/// The rim levels' quartiles of a box (its outermost rows and columns: the ground around
/// the text, which the detector's boxes carry as a margin).
void rim_quartiles(const cv::Mat &crop, int &low, int &high) {
    std::vector<uint8_t> rim;
    const int h = crop.rows, w = crop.cols;
    for (int r = 0; r < h; r++) {
        const uint8_t *row = crop.ptr<uint8_t>(r);
        for (int c = 0; c < w; c++) {
            if (r == 0 || r == h - 1 || c == 0 || c == w - 1) rim.push_back(row[c]);
        }
    }
    std::sort(rim.begin(), rim.end());
    low = rim[rim.size() / 4];
    high = rim[rim.size() * 3 / 4];
}

}  // namespace

/// A box whose ground is lit unevenly (a shadow's edge across it: the quarter of its rim at
/// the darkest is under `uneven_ground` of the lightest quarter's level) divided by its
/// ground, which is the box closed with a square as tall as the box (wider than any stroke),
/// so the shadowed paper is as light as the lit and Otsu's one threshold parts ink from paper
/// on both sides. Empty when the ground is even (most boxes: measured as they are). Dark text
/// on light ground is assumed there (a light text's box is left lighter than its ground).
/// 0.75: a quarter darker, as `PageReader.surroundShade` tells another sheet from the paper;
/// paper under even light varies by a few percent, a cast shadow halves it or more.
static constexpr double uneven_ground = 0.75;

static cv::Mat evened_ground(const cv::Mat &crop) {
    int low = 0, high = 0;
    rim_quartiles(crop, low, high);
    if (high <= 0 || low >= uneven_ground * high) return cv::Mat();
    const int k = std::max(3, crop.rows | 1);
    cv::Mat ground;
    cv::morphologyEx(crop, ground, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(k, k)));
    cv::Mat even;
    cv::divide(crop, cv::max(ground, 1), even, 255.0, CV_8U);
    return even;
}

/// The measures of `pc_measure_glyphs` on `crop` (a box's pixels, upright).
static void measure_crop(const cv::Mat &crop, pc_glyph_stats *out) {
    const int box_width = crop.cols, box_height = crop.rows;
    cv::Mat even = evened_ground(crop);
    cv::Mat dark;  // 255 where darker than Otsu's threshold
    cv::threshold(even.empty() ? crop : even, dark, 0, 255, cv::THRESH_BINARY_INV | cv::THRESH_OTSU);
    long rim = 0, rimDark = 0;
    for (int r = 0; r < box_height; r++) {
        const uint8_t *row = dark.ptr<uint8_t>(r);
        const bool edge = r == 0 || r == box_height - 1;
        for (int c = 0; c < box_width; c++) {
            if (edge || c == 0 || c == box_width - 1) {
                rim++;
                rimDark += row[c] != 0;
            }
        }
    }
    out->light_on_dark = rimDark * 2 > rim ? 1 : 0;
    cv::Mat ink = out->light_on_dark ? (255 - dark) : dark;
    cv::Mat labels, stats, centroids;
    const int n = cv::connectedComponentsWithStats(ink, labels, stats, centroids, 8, CV_32S);
    std::vector<int> heights;
    double fill = 0;
    int glyphs = 0;
    for (int i = 1; i < n; i++) {
        const int w = stats.at<int>(i, cv::CC_STAT_WIDTH), h = stats.at<int>(i, cv::CC_STAT_HEIGHT);
        const int area = stats.at<int>(i, cv::CC_STAT_AREA);
        // Too small for a glyph (dots, fine print), or the ground's frame.
        if (h * 10 < box_height * 3 || (h >= box_height && w * 10 >= box_width * 9)) {
            continue;
        }
        heights.push_back(h);
        fill += static_cast<double>(area) / (static_cast<double>(w) * h);
        // Blurred glyphs touch: a wide component counts as the glyphs its width holds.
        glyphs += w * 10 > h * 12 ? std::max(1, static_cast<int>(std::lround(w / (0.7 * h)))) : 1;
    }
    out->glyphs = glyphs;
    if (heights.empty()) {
        out->glyph_height = 0;
        out->fill = 0;
        return;
    }
    std::nth_element(heights.begin(), heights.begin() + heights.size() / 2, heights.end());
    out->glyph_height = heights[heights.size() / 2];
    out->fill = static_cast<float>(fill / heights.size());
}

extern "C" int pc_measure_glyphs(const uint8_t *gray, int width, int height, size_t stride, int x, int y, int box_width,
                                 int box_height, pc_glyph_stats *out) {
    if (!gray || !out || width <= 0 || height <= 0 || box_width < 3 || box_height < 3 || x < 0 || y < 0 ||
        x + box_width > width || y + box_height > height) {
        return -1;
    }
    Flight flight;
    if (!flight.ok) return -1;
    try {
        cv::Mat image(height, width, CV_8UC1, const_cast<uint8_t *>(gray), stride);
        measure_crop(image(cv::Rect(x, y, box_width, box_height)), out);
        return 0;
    } catch (const std::exception &) {
        return -1;
    }
}

extern "C" int pc_measure_glyphs_turned(const uint8_t *gray, int width, int height, size_t stride, const float *x,
                                        const float *y, pc_glyph_stats *out) {
    if (!gray || !out || !x || !y || width <= 0 || height <= 0) return -1;
    const double length = std::hypot(x[1] - x[0], y[1] - y[0]), thickness = std::hypot(x[3] - x[0], y[3] - y[0]);
    const int patch_width = static_cast<int>(std::lround(length)), patch_height = static_cast<int>(std::lround(thickness));
    if (patch_width < 3 || patch_height < 3) return -1;
    Flight flight;
    if (!flight.ok) return -1;
    try {
        cv::Mat image(height, width, CV_8UC1, const_cast<uint8_t *>(gray), stride);
        const cv::Point2f from[3] = {{x[0], y[0]}, {x[1], y[1]}, {x[3], y[3]}};
        const cv::Point2f to[3] = {{0, 0}, {static_cast<float>(patch_width), 0}, {0, static_cast<float>(patch_height)}};
        cv::Mat patch;
        cv::warpAffine(image, patch, cv::getAffineTransform(from, to), cv::Size(patch_width, patch_height), cv::INTER_LINEAR,
                       cv::BORDER_REPLICATE);
        measure_crop(patch, out);
        return 0;
    } catch (const std::exception &) {
        return -1;
    }
}
