import SystemPackage
import CV4L2
import Foundation

/// The mmap streaming buffers of one device: requests, maps and queues them,
/// and in `deinit` stops streaming, unmaps and frees them. Holds its device, so
/// the file descriptor outlives the mappings.
final class V4L2Buffers {
    let device: V4L2Device
    private var maps: [(base: UnsafeMutableRawPointer, length: Int)] = []
    private var streaming = false

    var count: Int { maps.count }

    init(device: V4L2Device, count wanted: UInt32) throws(CaptureError) {
        self.device = device
        var req = v4l2_requestbuffers()
        req.count = wanted
        req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        req.memory = V4L2_MEMORY_MMAP.rawValue
        let e = device.tryIoctl(pricecam_VIDIOC_REQBUFS, &req)
        if e == EINVAL { throw .noStreaming(path: device.path) }
        if e != 0 { throw device.failure("VIDIOC_REQBUFS", e) }
        guard req.count >= 2 else {
            throw .ioctlFailed(path: device.path, operation: "VIDIOC_REQBUFS (got \(req.count) buffer(s), need 2)", errno: ENOMEM)
        }
        for i in 0..<req.count {
            var b = Self.buffer(index: i)
            try device.ioctl(pricecam_VIDIOC_QUERYBUF, &b, "VIDIOC_QUERYBUF")
            guard let p = pricecam_v4l2_mmap(device.descriptor.rawValue, Int(b.length), Int64(b.m.offset)) else {
                throw device.failure("mmap")
            }
            maps.append((p, Int(b.length)))
        }
        for i in 0..<req.count {
            try queue(index: i)
        }
    }

    deinit {
        if streaming {
            var type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            _ = device.tryIoctl(pricecam_VIDIOC_STREAMOFF, &type)
        }
        for m in maps { v4l2_munmap(m.base, m.length) }
        var req = v4l2_requestbuffers()
        req.count = 0
        req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        req.memory = V4L2_MEMORY_MMAP.rawValue
        _ = device.tryIoctl(pricecam_VIDIOC_REQBUFS, &req)
    }

    static func buffer(index: UInt32) -> v4l2_buffer {
        var b = v4l2_buffer()
        b.index = index
        b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        b.memory = V4L2_MEMORY_MMAP.rawValue
        return b
    }

    func streamOn() throws(CaptureError) {
        var type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        try device.ioctl(pricecam_VIDIOC_STREAMON, &type, "VIDIOC_STREAMON")
        streaming = true
    }

    func queue(index: UInt32) throws(CaptureError) {
        var b = Self.buffer(index: index)
        try device.ioctl(pricecam_VIDIOC_QBUF, &b, "VIDIOC_QBUF")
    }

    /// A filled buffer, or nil when none is ready (`EAGAIN`).
    func dequeue() throws(CaptureError) -> v4l2_buffer? {
        var b = Self.buffer(index: 0)
        let e = device.tryIoctl(pricecam_VIDIOC_DQBUF, &b)
        if e == EAGAIN { return nil }
        if e != 0 { throw device.failure("VIDIOC_DQBUF", e) }
        return b
    }

    /// The bytes of a dequeued buffer, valid until it is queued again.
    func bytes(_ b: v4l2_buffer) -> UnsafeRawBufferPointer {
        let m = maps[Int(b.index)]
        let used = b.bytesused > 0 ? min(Int(b.bytesused), m.length) : m.length
        return UnsafeRawBufferPointer(start: m.base, count: used)
    }
}
