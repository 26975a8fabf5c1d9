import Testing
@testable import Capture
import TestSupport

@Suite struct LumaExtractionTests {
    @Test func yuyvTakesEveryOtherByte() {
        // 2x2 YUYV with 2 bytes of row padding: Y0 U Y1 V | pad
        let bytes: [UInt8] = [
            10, 1, 20, 2, 0, 0,
            30, 3, 40, 4, 0, 0,
        ]
        let y = LumaExtraction.luma(of: bytes, fourcc: .yuyv, size: FrameSize(width: 2, height: 2), bytesPerLine: 6)
        #expect(y == [10, 20, 30, 40])
    }

    @Test func uyvyStartsAtOffsetOne() {
        let bytes: [UInt8] = [1, 10, 2, 20]
        #expect(LumaExtraction.luma(of: bytes, fourcc: .uyvy, size: FrameSize(width: 2, height: 1), bytesPerLine: 4) == [10, 20])
    }

    @Test func nv12CopiesTheLumaPlaneWithoutPadding() {
        let bytes: [UInt8] = [1, 2, 9, 3, 4, 9, /* chroma */ 128, 128, 0]
        #expect(LumaExtraction.luma(of: bytes, fourcc: .nv12, size: FrameSize(width: 2, height: 2), bytesPerLine: 3) == [1, 2, 3, 4])
    }

    @Test func shortBufferIsRejected() {
        #expect(LumaExtraction.luma(of: [1, 2, 3], fourcc: .grey, size: FrameSize(width: 2, height: 2), bytesPerLine: 2) == nil)
        #expect(LumaExtraction.luma(of: [1, 2, 3, 4], fourcc: .mjpeg, size: FrameSize(width: 2, height: 2), bytesPerLine: 2) == nil)
    }
}

@Suite struct CaptureErrorTests {
    @Test func missingNodeIsReportedAsNoSuchDevice() {
        #expect(throws: CaptureError.noSuchDevice(path: "/dev/video-none")) {
            _ = try V4L2Capture(path: "/dev/video-none")
        }
    }

    @Test func nonDeviceIsNotACaptureDevice() {
        #expect(throws: CaptureError.notCaptureDevice(path: "/etc/hostname", what: "not a device node")) {
            _ = try V4L2Capture(path: "/etc/hostname")
        }
        // A character device that is not V4L2.
        #expect(throws: CaptureError.notCaptureDevice(path: "/dev/null", what: "not a V4L2 device")) {
            _ = try V4L2Capture(path: "/dev/null")
        }
    }

    @Test func busyMessageSaysWhatToDo() {
        #expect(
            CaptureError.busy(path: "/dev/video3").description
                == "cannot open /dev/video3: device is busy (another program is using the camera)")
    }
}

@Suite struct ReplaySourceTests {
    @Test func replaysAtTheRequestedRateAndEnds() throws {
        let dir = URL(fileURLWithPath: try Scratch.folder("pricecam-replay"))
        for name in ["b.png", "a.png", "notes.txt"] {
            #expect(FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data([1])))
        }
        let source = try ReplaySource(directory: dir.path, fps: 100, loop: false, extensions: ["png"]) { path in
            Frame(width: 1, height: 1, bytesPerRow: 1, pixels: [path.hasSuffix("a.png") ? 1 : 2])
        }
        let stop = StopFlag()
        let start = Monotonic.now()
        let f0 = try #require(try source.next(stop: stop))
        let f1 = try #require(try source.next(stop: stop))
        #expect(try source.next(stop: stop) == nil)
        #expect(f0.pixels == [1] && f1.pixels == [2])  // sorted by name
        #expect(f1.timestamp - f0.timestamp >= 9_000_000)
        #expect(f0.timestamp >= start)
        #expect(source.counters.captured == 2)
    }

    @Test func emptyFolderIsAnError() {
        #expect(throws: CaptureError.self) {
            _ = try ReplaySource(directory: "/nonexistent-pricecam", fps: 30, loop: false, extensions: ["png"]) { _ in
                Frame(width: 1, height: 1, bytesPerRow: 1, pixels: [0])
            }
        }
    }
}

import Foundation

@Suite struct FrameColourTests {
    /// BT.601 limited range: pure red is Y 81, Cb 90, Cr 240; white Y 235; black Y 16 (both Cb = Cr = 128).
    static func near(_ a: (UInt8, UInt8, UInt8), _ b: (Int, Int, Int), within d: Int = 3) -> Bool {
        abs(Int(a.0) - b.0) <= d && abs(Int(a.1) - b.1) <= d && abs(Int(a.2) - b.2) <= d
    }

    static func pixel(_ rgb: [UInt8], _ i: Int) -> (UInt8, UInt8, UInt8) { (rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]) }

    @Test func packedFormatsPlaceTheirChroma() throws {
        // Two pixel pairs in one row: a red pair, then a white/black pair; 2 bytes of padding.
        let yuyv: [UInt8] = [81, 90, 81, 240, 235, 128, 16, 128, 0, 0]
        let rgb = try #require(FrameColour.raw(bytes: yuyv, fourcc: .yuyv, bytesPerLine: 10).rgb(width: 4, height: 1))
        #expect(Self.near(Self.pixel(rgb, 0), (255, 0, 0)))
        #expect(Self.near(Self.pixel(rgb, 1), (255, 0, 0)))
        #expect(Self.near(Self.pixel(rgb, 2), (255, 255, 255)))
        #expect(Self.near(Self.pixel(rgb, 3), (0, 0, 0)))
        // The same pixels in UYVY order.
        let uyvy: [UInt8] = [90, 81, 240, 81, 128, 235, 128, 16]
        let rgb2 = try #require(FrameColour.raw(bytes: uyvy, fourcc: .uyvy, bytesPerLine: 8).rgb(width: 4, height: 1))
        #expect(rgb2 == Array(rgb))
    }

    @Test func planarFormatsShareChromaOverTwoRows() throws {
        // 2×2, one chroma sample: red. NV12 interleaves U,V after the Y plane; YU12 has a U plane then a V plane.
        let nv12: [UInt8] = [81, 81, 81, 81, 90, 240]
        let yu12: [UInt8] = [81, 81, 81, 81, 90, 240]
        let yv12: [UInt8] = [81, 81, 81, 81, 240, 90]
        for (bytes, fourcc) in [(nv12, FourCC.nv12), (yu12, .yu12), (yv12, .yv12)] {
            let rgb = try #require(FrameColour.raw(bytes: bytes, fourcc: fourcc, bytesPerLine: 2).rgb(width: 2, height: 2))
            for i in 0..<4 { #expect(Self.near(Self.pixel(rgb, i), (255, 0, 0)), "\(fourcc) pixel \(i)") }
        }
    }

    @Test func shortBuffersAndOtherFormatsGiveNoColour() {
        #expect(FrameColour.raw(bytes: [81, 90, 81], fourcc: .yuyv, bytesPerLine: 4).rgb(width: 2, height: 1) == nil)
        #expect(FrameColour.raw(bytes: [UInt8](repeating: 0, count: 64), fourcc: .grey, bytesPerLine: 8).rgb(width: 8, height: 8) == nil)
        #expect(FrameColour.jpeg([0xFF, 0xD8]).rgb(width: 1, height: 1) == nil)
    }
}
