// A C face for the learned text detector (a DB network run by ONNX Runtime, see
// onnx_runtime.h) and for DB post-processing (OpenCV), so Swift never touches C++ or OpenCV types. One owner per
// `pc_textdet` (not thread-safe: one per worker); post-processing is a pure function.
#ifndef PRICECAM_TEXT_DETECTION_H
#define PRICECAM_TEXT_DETECTION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pc_textdet pc_textdet;

/// Loads an ONNX DB detector from `onnx` (`length` bytes), ready for inputs of `width` x
/// `height` (multiples of 32; `pc_textdet_resize` changes the size: ONNX Runtime sizes each
/// layer from the input it is given, so one net runs every size). The first net made sets
/// OpenCV's thread count to one (parallelism comes from one detector per worker; each net
/// runs on one thread). Needs pc_ort_load first. NULL on failure, with the reason in `error`
/// (`error_length` bytes, NUL-terminated).
pc_textdet *pc_textdet_create(const uint8_t *onnx, size_t length, int width, int height, char *error,
                              size_t error_length);
/// Makes `det` take `width` × `height` inputs (multiples of 32) from its next run on; 0,
/// or -1 for a bad size.
int pc_textdet_resize(pc_textdet *det, int width, int height);
void pc_textdet_destroy(pc_textdet *det);

/// Runs the net on an 8-bit gray image (`stride` bytes per row): the image is resized
/// to `scaled_width` x `scaled_height` (at most the net's input size), given as three
/// equal channels scaled to [-1, 1] and placed at the top left of the net's input,
/// the rest 0. Writes the text probability map (the net's input size, row-major) to
/// `map` (`width * height` floats of the net's size). When `sharpen_edge` > 0 and the
/// resized image's edges spread over more than `sharpen_edge` px (`pc_edge_width`), it is
/// unsharp masked first: `sharpen_amount` of its difference from a Gaussian blur of sigma
/// half that spread added back. `least_spread` > 0 (with `sharpen_edge` > 0): the input is
/// known to be blurred from elsewhere (its text's own edges, where the whole image's say
/// little) and is sharpened by the larger of that spread and the one measured. `edge_width`
/// (may be NULL) receives the spread taken (0 when not measured). 0 on success, else -1 with
/// the reason in `error`.
int pc_textdet_run(pc_textdet *det, const uint8_t *gray, int image_width, int image_height, size_t stride,
                   int scaled_width, int scaled_height, float sharpen_edge, float sharpen_amount, float least_spread,
                   float *edge_width, float *map, char *error, size_t error_length);

/// The spread of an 8-bit gray image's edges in px: its contrast (p98 - p2 of the gray
/// levels) over its steep steps (p90 of the absolute horizontal and vertical neighbour
/// differences of at least a tenth of the contrast). Sharp print steps from paper to ink in
/// 1-2 px, a blurred one over many. 0 without contrast.
float pc_edge_width(const uint8_t *gray, int width, int height, size_t stride);

/// `pc_edge_width` of an 8-bit gray image resized to `scaled_width` x `scaled_height` the way
/// `pc_textdet_run` resizes its input: the spread it would measure there, without running the
/// net. -1 for bad arguments.
float pc_scaled_edge_width(const uint8_t *gray, int image_width, int image_height, size_t stride, int scaled_width,
                           int scaled_height);

/// A detected text box: four corners (clockwise from the top left of the rotated
/// rectangle, in map pixels) and its mean probability.
typedef struct {
    float x[4];
    float y[4];
    float score;
} pc_text_box;

/// What the ink inside one box of an 8-bit gray image says about its text.
typedef struct {
    int glyph_height;   // median height of the glyph-like ink components, pixels (0: none found)
    int glyphs;         // how many there are
    int light_on_dark;  // 1 when the text is lighter than its ground
    float fill;         // mean share of each glyph's box that is ink
} pc_glyph_stats;

/// Measures the text in the box `x, y, box_width, box_height` of `gray`: the box is
/// binarised by Otsu's threshold (after dividing it by its ground when a shadow's edge
/// crosses it: its rim's darker quarter under 0.75 of its lighter); the side that holds most of the box's rim is the ground
/// (the detector's boxes carry a margin), the other the ink; ink components at least 0.3
/// of the box's height count as glyphs (a wide one as the glyphs its width holds: blurred
/// glyphs touch), but for one spanning the box (a frame). 0 on
/// success, -1 on bad arguments.
int pc_measure_glyphs(const uint8_t *gray, int width, int height, size_t stride, int x, int y, int box_width, int box_height,
                      pc_glyph_stats *out);

/// `pc_measure_glyphs` on a turned box, its corners `x[i], y[i]` clockwise from its top left
/// (`pc_text_box`'s, in `gray`'s pixels): the box is first turned upright, its top edge
/// along the rows, into a patch as long and as thick as the box (bilinear, the image's edge
/// repeated outside it), so its glyphs are measured against the box's thickness, not the
/// height of the upright rectangle around a leaning line. 0 on success, -1 on bad arguments.
int pc_measure_glyphs_turned(const uint8_t *gray, int width, int height, size_t stride, const float *x, const float *y,
                             pc_glyph_stats *out);

/// DB post-processing on a probability map (`width` x `height`, row-major), within its
/// top-left `valid_width` x `valid_height` part: pixels over `threshold` form the text
/// mask, dilated by a 2 x 2 square (the model's inference setting: it joins the kernels of
/// one word's glyphs); each contour's minimum-area rectangle is kept when its shorter side is
/// at least `min_size` and the map's mean inside the contour's rectangle is at least
/// `box_threshold`; the rectangle is then grown by `area * unclip_ratio / perimeter`
/// on every side (DB's unclip of a rectangle) and kept when its shorter side is at
/// least `min_size + 2`. Writes at most `capacity` boxes, the highest-scoring first
/// when there are more; returns how many there were in all (possibly more than
/// `capacity`), or -1 on bad arguments.
int pc_db_boxes(const float *map, int width, int height, int valid_width, int valid_height, float threshold,
                float box_threshold, float unclip_ratio, float min_size, pc_text_box *boxes, int capacity);

#ifdef __cplusplus
}
#endif

#endif
