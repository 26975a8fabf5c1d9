// libv4l2 and the V4L2 UAPI, made usable from Swift.
//
// Swift imports neither C variadic functions (v4l2_open, v4l2_ioctl) nor
// function-like macros (VIDIOC_* are built with _IOWR). This header wraps the
// former in fixed-arity functions and re-exports the latter as constants.
#ifndef PRICECAM_CV4L2_SHIM_H
#define PRICECAM_CV4L2_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/videodev2.h>
#include <libv4l2.h>
#include <libv4lconvert.h>
#include <sys/ioctl.h>
#include <unistd.h>

static inline int pricecam_v4l2_open(const char *path, int flags) {
    return v4l2_open(path, flags);
}

/// ioctl through libv4l2, retried on EINTR.
static inline int pricecam_v4l2_ioctl(int fd, unsigned long request, void *arg) {
    int r;
    do {
        r = v4l2_ioctl(fd, request, arg);
    } while (r == -1 && errno == EINTR);
    return r;
}

/// Plain ioctl (no libv4l2 conversion layer), retried on EINTR.
static inline int pricecam_raw_ioctl(int fd, unsigned long request, void *arg) {
    int r;
    do {
        r = ioctl(fd, request, arg);
    } while (r == -1 && errno == EINTR);
    return r;
}

static const unsigned long pricecam_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
static const unsigned long pricecam_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
static const unsigned long pricecam_VIDIOC_G_FMT = VIDIOC_G_FMT;
static const unsigned long pricecam_VIDIOC_S_FMT = VIDIOC_S_FMT;
static const unsigned long pricecam_VIDIOC_TRY_FMT = VIDIOC_TRY_FMT;
static const unsigned long pricecam_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
static const unsigned long pricecam_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
static const unsigned long pricecam_VIDIOC_QBUF = VIDIOC_QBUF;
static const unsigned long pricecam_VIDIOC_DQBUF = VIDIOC_DQBUF;
static const unsigned long pricecam_VIDIOC_STREAMON = VIDIOC_STREAMON;
static const unsigned long pricecam_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
static const unsigned long pricecam_VIDIOC_G_PARM = VIDIOC_G_PARM;
static const unsigned long pricecam_VIDIOC_S_PARM = VIDIOC_S_PARM;
static const unsigned long pricecam_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
static const unsigned long pricecam_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;

static const uint32_t pricecam_V4L2_PIX_FMT_GREY = V4L2_PIX_FMT_GREY;
static const uint32_t pricecam_V4L2_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
static const uint32_t pricecam_V4L2_PIX_FMT_YVYU = V4L2_PIX_FMT_YVYU;
static const uint32_t pricecam_V4L2_PIX_FMT_UYVY = V4L2_PIX_FMT_UYVY;
static const uint32_t pricecam_V4L2_PIX_FMT_VYUY = V4L2_PIX_FMT_VYUY;
static const uint32_t pricecam_V4L2_PIX_FMT_NV12 = V4L2_PIX_FMT_NV12;
static const uint32_t pricecam_V4L2_PIX_FMT_NV21 = V4L2_PIX_FMT_NV21;
static const uint32_t pricecam_V4L2_PIX_FMT_YUV420 = V4L2_PIX_FMT_YUV420;
static const uint32_t pricecam_V4L2_PIX_FMT_YVU420 = V4L2_PIX_FMT_YVU420;
static const uint32_t pricecam_V4L2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
static const uint32_t pricecam_V4L2_PIX_FMT_JPEG = V4L2_PIX_FMT_JPEG;
static const uint32_t pricecam_V4L2_PIX_FMT_RGB24 = V4L2_PIX_FMT_RGB24;
static const uint32_t pricecam_V4L2_PIX_FMT_NV16 = V4L2_PIX_FMT_NV16;
static const uint32_t pricecam_V4L2_PIX_FMT_NV61 = V4L2_PIX_FMT_NV61;
static const uint32_t pricecam_V4L2_PIX_FMT_NV24 = V4L2_PIX_FMT_NV24;
static const uint32_t pricecam_V4L2_PIX_FMT_NV42 = V4L2_PIX_FMT_NV42;
static const uint32_t pricecam_V4L2_PIX_FMT_YUV422P = V4L2_PIX_FMT_YUV422P;

static const uint32_t pricecam_V4L2_CAP_VIDEO_CAPTURE = V4L2_CAP_VIDEO_CAPTURE;
static const uint32_t pricecam_V4L2_CAP_STREAMING = V4L2_CAP_STREAMING;
static const uint32_t pricecam_V4L2_CAP_DEVICE_CAPS = V4L2_CAP_DEVICE_CAPS;
static const uint32_t pricecam_V4L2_CAP_VIDEO_OUTPUT = V4L2_CAP_VIDEO_OUTPUT;
static const uint32_t pricecam_V4L2_BUF_FLAG_TIMESTAMP_MASK = V4L2_BUF_FLAG_TIMESTAMP_MASK;
static const uint32_t pricecam_V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
static const uint32_t pricecam_V4L2_BUF_FLAG_ERROR = V4L2_BUF_FLAG_ERROR;
static const uint32_t pricecam_V4L2_FMT_FLAG_EMULATED = V4L2_FMT_FLAG_EMULATED;

static const uint32_t pricecam_V4L2_CAP_TIMEPERFRAME = V4L2_CAP_TIMEPERFRAME;

/// mmap of one V4L2 buffer through libv4l2 (NULL on failure, errno set).
static inline void *pricecam_v4l2_mmap(int fd, size_t length, int64_t offset) {
    void *p = v4l2_mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
    return p == MAP_FAILED ? NULL : p;
}

/// Decodes one compressed (MJPEG/JPEG) frame to planar YUV 4:2:0 with
/// libv4lconvert; returns bytes written or -1. `width`/`height` describe the
/// source format.
static inline int pricecam_decode_to_yu12(struct v4lconvert_data *data, uint32_t fourcc,
                                          uint32_t width, uint32_t height,
                                          const unsigned char *src, int src_size,
                                          unsigned char *dest, int dest_size) {
    struct v4l2_format src_fmt;
    struct v4l2_format dest_fmt;
    memset(&src_fmt, 0, sizeof src_fmt);
    memset(&dest_fmt, 0, sizeof dest_fmt);
    src_fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    src_fmt.fmt.pix.width = width;
    src_fmt.fmt.pix.height = height;
    src_fmt.fmt.pix.pixelformat = fourcc;
    src_fmt.fmt.pix.field = V4L2_FIELD_NONE;
    dest_fmt = src_fmt;
    dest_fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUV420;
    dest_fmt.fmt.pix.bytesperline = width;
    dest_fmt.fmt.pix.sizeimage = width * height * 3 / 2;
    return v4lconvert_convert(data, &src_fmt, &dest_fmt, (unsigned char *)src, src_size, dest, dest_size);
}

#endif
