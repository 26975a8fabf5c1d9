import ArgumentParser
import Capture
import Foundation
import Pipeline

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List video capture devices with their formats, frame sizes and frame rates.",
        discussion: """
            Examples:
              pricecam devices
              pricecam devices --format jsonl
            Only native formats are listed (not those libv4l2 would emulate by converting
            every frame). Exit code 3 when no capture device is found.
            """)

    enum Format: String, ExpressibleByArgument { case text, jsonl }

    @Option(name: .long, help: "text (default) or jsonl (one object per node).")
    var format: Format = .text

    @Option(name: .long, help: "Folder holding the video nodes.")
    var dev: String = "/dev"

    func run() throws {
        let nodes = VideoDevices.nodes(in: dev)
        let infos = nodes.map(VideoDevices.describe)
        for info in infos {
            Console.out(format == .jsonl ? Self.json(info).serialized() + "\n" : Self.text(info))
        }
        if !infos.contains(where: { $0.isCapture && $0.note == nil }) {
            Console.error(
                nodes.isEmpty
                    ? "no video devices found (\(dev)/video* does not exist: is a camera plugged in and its driver loaded?)"
                    : "no usable video capture device found among \(nodes.joined(separator: ", "))")
            throw ExitCode(3)
        }
    }

    static func text(_ d: VideoDeviceInfo) -> String {
        var out = "\(d.path)  \(d.card.isEmpty ? "?" : d.card)" + (d.driver.isEmpty ? "" : " (\(d.driver), \(d.busInfo))")
        if let note = d.note { return out + "\n  not usable: \(note)\n" }
        out += "\n"
        for f in d.formats {
            out += "  \(f.fourcc.description.padding(toLength: 5, withPad: " ", startingAt: 0)) \(f.description)\n"
            switch f.sizes {
            case .discrete(let sizes):
                for s in sizes { out += "        \(s.size)  \(rates(s.intervals))\n" }
            case .stepwise(let lo, let hi, let step, let intervals):
                out += "        \(lo) to \(hi), step \(step.width)/\(step.height)  \(rates(intervals))\n"
            }
        }
        return out
    }

    static func rates(_ intervals: [FrameInterval]) -> String {
        intervals.isEmpty
            ? "(rates not listed by the driver)"
            : intervals.map(\.description).joined(separator: ", ") + " fps"
    }

    static func json(_ d: VideoDeviceInfo) -> JSON {
        .object([
            ("path", .string(d.path)), ("card", .string(d.card)), ("driver", .string(d.driver)),
            ("bus", .string(d.busInfo)), ("capture", .bool(d.isCapture)), ("note", .optional(d.note)),
            (
                "formats",
                .array(
                    d.formats.map { f in
                        var sizes: [JSON] = []
                        switch f.sizes {
                        case .discrete(let list):
                            sizes = list.map {
                                .object([
                                    ("size", .string($0.size.description)),
                                    ("fps", .array($0.intervals.map { .fixed($0.fps, 2) })),
                                ])
                            }
                        case .stepwise(let lo, let hi, let step, let intervals):
                            sizes = [
                                .object([
                                    ("min", .string(lo.description)), ("max", .string(hi.description)),
                                    ("step", .string(step.description)), ("fps", .array(intervals.map { .fixed($0.fps, 2) })),
                                ])
                            ]
                        }
                        return .object([
                            ("fourcc", .string(f.fourcc.description)), ("description", .string(f.description)),
                            ("sizes", .array(sizes)),
                        ])
                    })
            ),
        ])
    }
}
