public import Geometry
import Foundation

/// What the OCR read on one image.
public struct RecognizedPage: Sendable {
    public var width: Int
    public var height: Int
    public var lines: [TextLine]
    /// Wall time spent in recognition (milliseconds).
    public var milliseconds: Double
    /// Quarter turns clockwise the image was given before it was read (a photo taken sideways,
    /// `PageReader.sidewaysTurn`): `width`, `height` and the boxes are the turned image's, as
    /// the parser needs them (a line's height is its type size); `unturned` maps a box back.
    public var quarterTurns = 0
    /// How the page was levelled before it was read (a page whose lines lean alike, which
    /// Leptonica's deskew left leaning: `PageReader.levelled`): the boxes are the levelled picture's, as the
    /// parser needs them (a menu's column of prices lined up), and `unturned` maps them back.
    /// Applied after the quarter turns: the levelled picture is the turned one, levelled.
    public var levelling: Levelling?

    public init(width: Int, height: Int, lines: [TextLine], milliseconds: Double) {
        self.width = width
        self.height = height
        self.lines = lines
        self.milliseconds = milliseconds
    }
}

extension RecognizedPage {
    /// `box`, in the pixels of the page as read (turned by `quarterTurns`), in the image's own
    /// pixels as it was given.
    public func unturned(_ box: Box) -> Box {
        let box = levelling.map { $0.unlevelled(box, width: width, height: height) } ?? box
        return switch ((quarterTurns % 4) + 4) % 4 {
        case 1: Box(x: box.y, y: width - box.x - box.width, width: box.height, height: box.width)
        case 2: Box(x: width - box.x - box.width, y: height - box.y - box.height, width: box.width, height: box.height)
        case 3: Box(x: height - box.y - box.height, y: box.x, width: box.height, height: box.width)
        default: box
        }
    }

    /// The page read on a copy scaled by `1 / factor`, with its boxes mapped back by `factor`
    /// onto an image of `width` × `height` (the original).
    public func rescaled(by factor: Double, width: Int, height: Int) -> RecognizedPage {
        func clip(_ r: Box) -> Box {
            let x0 = max(0, r.x), y0 = max(0, r.y)
            let x1 = min(width, r.x + r.width), y1 = min(height, r.y + r.height)
            return Box(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
        }
        let mapped = lines.map { $0.mappingBoxes { clip($0.scaled(by: factor)) } }
        return RecognizedPage(width: width, height: height, lines: mapped, milliseconds: milliseconds)
    }

    /// The page read on a crop of an image of `width` × `height` whose top left lay at `x`, `y`,
    /// with its boxes moved back onto that image.
    public func placed(atX x: Int, y: Int, width: Int, height: Int) -> RecognizedPage {
        let mapped = lines.map { $0.mappingBoxes { Box(x: $0.x + x, y: $0.y + y, width: $0.width, height: $0.height) } }
        return RecognizedPage(width: width, height: height, lines: mapped, milliseconds: milliseconds)
    }
}

/// A picture rotated level on a grown canvas (`GrayImage.rotatedWhole`): the turn as given to
/// `GrayImage.rotated(by:)`, the margin added on each side before it, and the levelled
/// picture's size.
public struct Levelling: Sendable, Hashable {
    public var radians: Double
    public var padX: Int
    public var padY: Int
    public var width: Int
    public var height: Int

    /// A point of the levelled picture in the picture before it was levelled.
    public func unlevelled(x: Double, y: Double) -> (x: Double, y: Double) {
        // Leptonica turns about the centre, clockwise (y down) by its angle, -radians; back:
        // counterclockwise by it.
        let a = -radians, cx = Double(width) / 2, cy = Double(height) / 2
        let dx = x - cx, dy = y - cy
        return (cx + dx * cos(a) + dy * sin(a) - Double(padX), cy - dx * sin(a) + dy * cos(a) - Double(padY))
    }

    /// `box` of the levelled picture as the upright box around its corners in the picture
    /// before it was levelled (`width` × `height`), clipped to it.
    public func unlevelled(_ box: Box, width: Int, height: Int) -> Box {
        let corners = [
            unlevelled(x: Double(box.x), y: Double(box.y)), unlevelled(x: Double(box.x + box.width), y: Double(box.y)),
            unlevelled(x: Double(box.x), y: Double(box.y + box.height)),
            unlevelled(x: Double(box.x + box.width), y: Double(box.y + box.height)),
        ]
        let x0 = max(0, Int(corners.map(\.x).min()!.rounded(.down))), y0 = max(0, Int(corners.map(\.y).min()!.rounded(.down)))
        let x1 = min(width, Int(corners.map(\.x).max()!.rounded(.up))), y1 = min(height, Int(corners.map(\.y).max()!.rounded(.up)))
        return Box(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}
