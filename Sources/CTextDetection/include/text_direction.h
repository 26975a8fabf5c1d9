// A C face for the text-direction classifier (PP-OCR's angle classifier: is a line of text
// upright or upside down, run by ONNX Runtime, see onnx_runtime.h), so Swift never touches C++
// or OpenCV types. One owner per `pc_textdir` (not thread-safe: one per worker).
#ifndef PRICECAM_TEXT_DIRECTION_H
#define PRICECAM_TEXT_DIRECTION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pc_textdir pc_textdir;

/// The classifier's input: 1 x 3 x 48 x 192.
#define PC_TEXTDIR_HEIGHT 48
#define PC_TEXTDIR_WIDTH 192

/// Loads an ONNX direction classifier from `onnx` (`length` bytes). Needs pc_ort_load first.
/// NULL on failure, with the reason in `error` (`error_length` bytes, NUL-terminated).
pc_textdir *pc_textdir_create(const uint8_t *onnx, size_t length, char *error, size_t error_length);
void pc_textdir_destroy(pc_textdir *dir);

/// The probability that the text in the rectangle `x, y, box_width, box_height` of an 8-bit
/// gray image (`stride` bytes per row) stands upside down (turned 180°): the crop is resized to
/// 48 px high keeping its shape (squeezed to 192 px when wider), given as three equal channels
/// scaled to [-1, 1] at the left of the input, the rest 0 (PaddleOCR's classifier input).
/// Returns 0 and writes `*upside_down`, or -1 with the reason in `error`.
int pc_textdir_run(pc_textdir *dir, const uint8_t *gray, int image_width, int image_height, size_t stride, int x, int y,
                   int box_width, int box_height, float *upside_down, char *error, size_t error_length);

#ifdef __cplusplus
}
#endif

#endif
