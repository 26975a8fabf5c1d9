import CV4L2
import Foundation

/// One video node as `pricecam devices` shows it.
public struct VideoDeviceInfo: Sendable {
    public var path: String
    public var card: String
    public var driver: String
    public var busInfo: String
    public var isCapture: Bool
    /// Why the node is not usable, when it is not (output node, busy, ...).
    public var note: String?
    /// Native formats only (not those libv4l2 emulates).
    public var formats: [OfferedFormat]
}

public enum VideoDevices {
    /// `/dev/video*` in numeric order.
    public static func nodes(in directory: String = "/dev") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
            .map { (directory as NSString).appendingPathComponent($0) }
    }

    /// Describes one node; never throws: a node that cannot be opened says why in `note`.
    public static func describe(_ path: String) -> VideoDeviceInfo {
        var info = VideoDeviceInfo(path: path, card: "", driver: "", busInfo: "", isCapture: false, note: nil, formats: [])
        do {
            let device = try V4L2Device(path: path)
            let caps = try device.capabilities()
            info.card = caps.card
            info.driver = caps.driver
            info.busInfo = caps.busInfo
            info.isCapture = caps.isCapture
            if !caps.isCapture { info.note = caps.what; return info }
            info.formats = try device.formats().filter { !$0.emulated }
        } catch {
            info.note = "\(error)"
        }
        return info
    }
}
