import CTesseract

/// The orientation a JPEG's Exif block records (TIFF tag 274, 1–8): how its stored pixels
/// must be turned to stand as the camera was held. A phone stores a portrait photo as its
/// landscape sensor image with orientation 6 (or 8) and leaves the turn to the viewer, so a
/// receipt photographed upright lies on its side in the stored pixels. pricecam reads the
/// photo as a person sees it (as image viewers, browsers and RapidOCR 3's loader do), and its
/// boxes are in those upright pixels.
enum ExifOrientation {
    /// The orientation in `jpeg`'s first Exif block, read from the markers before its pixel
    /// data; nil when there is none or it is damaged (the image is then taken as stored).
    static func of(jpeg b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF {  // fill byte before a marker
                i += 1
                continue
            }
            // Start of scan or end of image: the Exif block comes before the pixels or not at all.
            if marker == 0xDA || marker == 0xD9 { return nil }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 {  // markers without a length
                i += 2
                continue
            }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            let body = i + 4, end = i + 2 + length
            // APP1 holding "Exif\0\0" and then a TIFF block.
            if marker == 0xE1, end - body >= 14, Array(b[body..<(body + 6)]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return tiffOrientation(b, start: body + 6, end: end)
            }
            i = end
        }
        return nil
    }

    /// Tag 274 of the first image directory of the TIFF block at `start..<end`.
    static func tiffOrientation(_ b: UnsafeBufferPointer<UInt8>, start t: Int, end: Int) -> Int? {
        let little: Bool
        switch (b[t], b[t + 1]) {
        case (0x49, 0x49): little = true  // "II", Intel order
        case (0x4D, 0x4D): little = false  // "MM", Motorola order
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= t, o + 2 <= end else { return nil }
            return little ? Int(b[o]) | Int(b[o + 1]) << 8 : Int(b[o]) << 8 | Int(b[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let first = u16(o), let second = u16(o + 2) else { return nil }
            return little ? second << 16 | first : first << 16 | second
        }
        guard u16(t + 2) == 42, let ifd = u32(t + 4), let count = u16(t + ifd) else { return nil }
        for k in 0..<count {
            let entry = t + ifd + 2 + 12 * k
            guard let tag = u16(entry) else { return nil }
            guard tag == 0x0112 else { continue }
            // A SHORT (type 3), its value in the entry's first two value bytes.
            guard u16(entry + 2) == 3, let value = u16(entry + 8), (1...8).contains(value) else { return nil }
            return value
        }
        return nil
    }

    /// `pix` turned upright for `orientation` (a new Pix; `pix` is left as it is), or nil
    /// when it needs no turn (1) or the turn fails.
    static func upright(_ pix: UnsafeMutablePointer<PIX>, orientation: Int) -> UnsafeMutablePointer<PIX>? {
        switch orientation {
        case 2: return pixFlipLR(nil, pix)
        case 3: return pixRotateOrth(pix, 2)
        case 4: return pixFlipTB(nil, pix)
        case 5:  // transposed: a quarter turn clockwise, then mirrored
            guard let r = pixRotateOrth(pix, 1) else { return nil }
            return pixFlipLR(r, r)
        case 6: return pixRotateOrth(pix, 1)
        case 7:  // transversed: a quarter turn clockwise, then upside down
            guard let r = pixRotateOrth(pix, 1) else { return nil }
            return pixFlipTB(r, r)
        case 8: return pixRotateOrth(pix, 3)
        default: return nil
        }
    }
}
