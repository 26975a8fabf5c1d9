import Testing
@testable import Capture

@Suite struct FormatNegotiationTests {
    static let hd = FrameSize(width: 1280, height: 720)
    static let vga = FrameSize(width: 640, height: 480)
    static func rates(_ fps: [UInt32]) -> [FrameInterval] { fps.map { FrameInterval(numerator: 1, denominator: $0) } }

    /// A typical UVC webcam: YUYV is slow at 720p, MJPEG is fast.
    static let webcam: [OfferedFormat] = [
        OfferedFormat(
            fourcc: .yuyv, description: "YUYV 4:2:2",
            sizes: .discrete([
                .init(size: vga, intervals: rates([30, 15])),
                .init(size: hd, intervals: rates([10, 5])),
            ])),
        OfferedFormat(
            fourcc: .mjpeg, description: "Motion-JPEG",
            sizes: .discrete([
                .init(size: vga, intervals: rates([30])),
                .init(size: hd, intervals: rates([30, 15])),
            ])),
        OfferedFormat(
            fourcc: .yu12, description: "emulated", emulated: true,
            sizes: .discrete([
                .init(size: hd, intervals: rates([30]))
            ])),
    ]

    @Test func exactSizeAndRateWithRawFormatWins() {
        let c = FormatNegotiation.choose(from: Self.webcam, request: FormatRequest(size: Self.vga, fps: 30))
        #expect(c == FormatChoice(fourcc: .yuyv, size: Self.vga, interval: FrameInterval(numerator: 1, denominator: 30)))
    }

    @Test func mjpegOnlyWhenRawCannotReachTheRate() {
        let c = FormatNegotiation.choose(from: Self.webcam, request: FormatRequest(size: Self.hd, fps: 30))
        #expect(c?.fourcc == .mjpeg)
        #expect(c?.size == Self.hd)
        #expect(c?.interval?.fps == 30)
        // At 10 fps the raw format does it: no decoding.
        let slow = FormatNegotiation.choose(from: Self.webcam, request: FormatRequest(size: Self.hd, fps: 10))
        #expect(slow?.fourcc == .yuyv)
    }

    @Test func forcedPixelFormatIsTheOnlyCandidate() {
        let c = FormatNegotiation.choose(from: Self.webcam, request: FormatRequest(size: Self.hd, fps: 30, fourcc: .yuyv))
        #expect(c?.fourcc == .yuyv && c?.size == Self.hd && c?.interval?.fps == 10)
        #expect(FormatNegotiation.choose(from: Self.webcam, request: FormatRequest(size: Self.hd, fps: 30, fourcc: .grey)) == nil)
    }

    @Test func emulatedFormatsAreNeverChosen() {
        let onlyEmulated = Self.webcam.filter(\.emulated)
        #expect(FormatNegotiation.choose(from: onlyEmulated) == nil)
    }

    @Test func unknownFormatsGiveNoChoice() {
        let bayer = OfferedFormat(fourcc: FourCC("BA81"), description: "Bayer", sizes: .discrete([.init(size: Self.hd, intervals: [])]))
        #expect(FormatNegotiation.choose(from: [bayer]) == nil)
    }

    @Test(arguments: [
        (FourCC.grey, LumaLayout.gray), (.nv12, .plane), (.yu12, .plane), (.yuyv, .packed(offset: 0)),
        (.uyvy, .packed(offset: 1)), (.mjpeg, .compressed),
    ])
    func lumaLayoutOfEachFormat(fourcc: FourCC, layout: LumaLayout) {
        #expect(LumaLayout(fourcc) == layout)
    }

    @Test func greyBeatsPlanarBeatsPackedBeatsMJPEG() {
        let offered = [FourCC.mjpeg, .yuyv, .nv12, .grey].map {
            OfferedFormat(fourcc: $0, description: "", sizes: .discrete([.init(size: Self.hd, intervals: Self.rates([30]))]))
        }
        #expect(FormatNegotiation.choose(from: offered)?.fourcc == .grey)
        #expect(FormatNegotiation.choose(from: Array(offered.prefix(3)))?.fourcc == .nv12)
        #expect(FormatNegotiation.choose(from: Array(offered.prefix(2)))?.fourcc == .yuyv)
    }

    @Test func stepwiseSizeIsClampedAndAlignedToStep() {
        let f = OfferedFormat(
            fourcc: .yuyv, description: "",
            sizes: .stepwise(
                min: FrameSize(width: 16, height: 16), max: FrameSize(width: 1024, height: 768),
                step: FrameSize(width: 8, height: 2), intervals: []))
        let c = FormatNegotiation.choose(from: [f], request: FormatRequest(size: FrameSize(width: 1283, height: 721), fps: 30))
        #expect(c?.size == FrameSize(width: 1024, height: 720))
        #expect(c?.interval == nil)  // the driver lists no rates: ask for the requested one
    }

    @Test func closestLargerSizeBeatsSmaller() {
        let f = OfferedFormat(
            fourcc: .yuyv, description: "",
            sizes: .discrete([
                .init(size: FrameSize(width: 320, height: 240), intervals: Self.rates([30])),
                .init(size: FrameSize(width: 1920, height: 1080), intervals: Self.rates([30])),
            ]))
        #expect(FormatNegotiation.choose(from: [f], request: FormatRequest(size: Self.hd, fps: 30))?.size.width == 1920)
    }

    @Test func slowestRateThatReachesTheRequest() {
        #expect(FormatNegotiation.bestInterval(Self.rates([60, 30, 15]), fps: 25)?.fps == 30)
        #expect(FormatNegotiation.bestInterval(Self.rates([15, 10]), fps: 30)?.fps == 15)
        #expect(FormatNegotiation.bestInterval([], fps: 30) == nil)
    }

    @Test func fourccRoundTrips() {
        #expect(FourCC("YUYV").description == "YUYV")
        #expect(FourCC("Y10").description == "Y10")
        #expect(FrameSize(parsing: "1280x720") == Self.hd)
        #expect(FrameSize(parsing: "1280") == nil)
    }
}
