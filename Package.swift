// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "pricecam",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "pricecam", targets: ["pricecam"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
        .package(url: "https://github.com/apple/swift-system", exact: "1.8.1"),
        // The web app (`pricecam serve`).
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", exact: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/vapor/multipart-kit", exact: "4.7.1"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        // HTTPS for `serve --tls` (a phone's browser gives the camera only to a secure page):
        // the TLS channel, and a self-signed certificate made on first use.
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", exact: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        .package(url: "https://github.com/apple/swift-asn1", exact: "1.7.4"),
        // Named because the web app uses their types directly (MemberImportVisibility).
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", exact: "1.6.2"),
        // History on PostgreSQL (`--history postgres://…`).
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    ],
    targets: [
        // C adapters: system libraries found through pkg-config, each with a shim header.
        .systemLibrary(
            name: "CTesseract",
            pkgConfig: "tesseract lept",
            providers: [.apt(["libtesseract-dev", "libleptonica-dev"])]
        ),
        .systemLibrary(
            name: "CV4L2",
            pkgConfig: "libv4l2",
            providers: [.apt(["libv4l-dev"])]
        ),

        // The executable's own C: Tesseract's in-memory PNG handoff to its LSTM written
        // uncompressed (handoff.c; the executable exports its `pixWriteMem` to libtesseract),
        // the legacy engine's ambiguity table left unloaded (ambigs.c, its `LoadUniversal`
        // exported the same way), and the process's malloc policy (process_memory.c).
        .target(name: "CTesseractHandoff", linkerSettings: [.linkedLibrary("lept")]),

        // The learned text detector (a DB network) and line recogniser run by ONNX Runtime,
        // loaded at run time (dlopen: scripts/onnxruntime/install.sh puts the library in
        // models/), and DB post-processing and crops by OpenCV, behind C headers. Debian's
        // OpenCV has no pkg-config file without the whole libopencv-dev, so its header folder
        // and libraries are named here (libopencv-imgproc-dev: scripts/bootstrap.sh).
        .target(
            name: "CTextDetection",
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
            linkerSettings: [
                .linkedLibrary("opencv_imgproc"), .linkedLibrary("opencv_core"), .linkedLibrary("dl"),
                .linkedLibrary("stdc++"),
            ]
        ),

        // A PNG over the pixel limit decoded row by row straight to gray at ½, ¼ or ⅛ of its
        // size (Leptonica decodes a PNG whole). zlib1g-dev: scripts/bootstrap.sh.
        .target(name: "CReducedPNG", linkerSettings: [.linkedLibrary("z")]),

        // Boxes in image pixels (one type for OCR, parser and ground truth) and lines of
        // recognised text (one type for what the OCR reads and the parser takes).
        .target(name: "Geometry", swiftSettings: strict),
        // Pure Swift: OCR text -> price matches.
        .target(name: "PriceParsing", dependencies: ["Geometry"], swiftSettings: strict),
        // Currency settings, validation, Decimal conversion (ISO 4217 minor units
        // come from PriceParsing's currency catalog: one table for both).
        .target(name: "Conversion", dependencies: ["PriceParsing"], swiftSettings: strict),
        // Frames and frame sources (V4L2 device, replay folder).
        .target(
            name: "Capture",
            dependencies: ["CV4L2", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strict
        ),
        // Tesseract engine, image loading and preprocessing with Leptonica.
        // (Images, not frames: Pipeline turns a frame into an image.)
        .target(name: "OCR", dependencies: ["CTesseract", "CTextDetection", "CReducedPNG", "Geometry"], swiftSettings: strict),
        // Settings file and history: SQLite (the default) or PostgreSQL.
        .target(
            name: "History",
            dependencies: [
                "Conversion", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Batch and live runners: where capture, OCR, parsing, conversion and history meet.
        .target(
            name: "Pipeline",
            dependencies: ["Geometry", "PriceParsing", "Conversion", "OCR", "Capture", "History"],
            swiftSettings: strict
        ),
        // The web app: HTTP API, WebSocket live feed, metrics and the embedded page,
        // over the same pipeline, settings and history as the CLI.
        .target(
            name: "Server",
            dependencies: [
                "Pipeline", "History", "Conversion", "OCR", "Capture", "PriceParsing", "Geometry",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "WSCore", package: "swift-websocket"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The CLI: every module it imports is listed (scripts/check-imports.py checks it).
        .executableTarget(
            name: "pricecam",
            dependencies: [
                "Pipeline", "Capture", "Conversion", "Geometry", "History", "OCR", "PriceParsing", "Server",
                "CTesseractHandoff", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict,
            linkerSettings: [
                .unsafeFlags([
                    "-Xlinker", "--export-dynamic-symbol=pixWriteMem",
                    "-Xlinker", "--export-dynamic-symbol=_ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_",
                ])
            ]
        ),

        // Folders for the tests' files, removed when the test process exits (Tests/Support).
        .target(name: "TestSupport", path: "Tests/Support", swiftSettings: strict),
        .testTarget(
            name: "PriceParsingTests",
            dependencies: ["PriceParsing", "Geometry", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strict
        ),
        .testTarget(name: "ConversionTests", dependencies: ["Conversion"], swiftSettings: strict),
        .testTarget(
            name: "HistoryTests",
            dependencies: ["History", "Conversion", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict
        ),
        .testTarget(name: "OCRTests", dependencies: ["OCR", "CTesseract", "Geometry", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "PipelineTests",
            dependencies: [
                "Pipeline", "Capture", "Conversion", "CTesseract", "Geometry", "History", "OCR", "PriceParsing", "TestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "CLITests", dependencies: ["pricecam", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "Server", "History", "Conversion", "OCR", "Pipeline", "PriceParsing", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "WSClient", package: "swift-websocket"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
