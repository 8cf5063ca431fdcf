// swift-tools-version: 6.2
// WickFuzz: libFuzzer targets for every surface where Wick meets untrusted bytes. Its own package so
// that sanitizer flags never reach users. Build and run with `Scripts/fuzz` (see `Scripts/fuzz --help`).
import PackageDescription

/// One executable per fuzz surface. To add one: a name here, `Targets/<Name>/<Name>.swift` with an
/// `@_cdecl("LLVMFuzzerTestOneInput")` function and a three-line `@main` that passes it to
/// `cfuzz_run` (copy an existing target), and seeds in `Corpus/<Name>/`.
let fuzzTargets = [
    "FuzzBrotliDecoder",
    "FuzzCacheControl",
    "FuzzChunkedDecoder",
    "FuzzContentDecoder",
    "FuzzHPACKDecoder",
    "FuzzHTTP2Connection",
    "FuzzJSONParser",
    "FuzzRequestEncoder",
    "FuzzResponseParser",
    "FuzzSetCookieParser",
    "FuzzWholeClient",
    "FuzzZstdDecoder",
]

/// Targets whose oracle is ContentDecoderOracle (one oracle, each target its own codings and seeds).
let decoderTargets: Set = ["FuzzBrotliDecoder", "FuzzContentDecoder", "FuzzZstdDecoder"]
/// Targets whose oracle is the response-parser harness of WickTestSupport.
let harnessTargets: Set = ["FuzzChunkedDecoder", "FuzzResponseParser"]
/// Targets of code in the `Wick` module itself (the JSON parser, the cookie parser and store, the
/// cache's and HSTS's header parsing, the whole client), which the layers' products do not include.
let wickTargets: Set = ["FuzzCacheControl", "FuzzJSONParser", "FuzzSetCookieParser", "FuzzWholeClient"]
/// Targets of the HTTP/2 codec.
let http2Targets: Set = ["FuzzHPACKDecoder", "FuzzHTTP2Connection"]
/// Targets that script the kernel through the reactor's socket seam (SPI `WickSocketSeam` of
/// WickReactor, WickTransport and Wick).
let seamTargets: Set = ["FuzzWholeClient"]

let package = Package(
    name: "WickFuzz",
    dependencies: [.package(name: "Wick", path: "..")],
    targets: [
        // libFuzzer's driver entry: SwiftPM links each executable with its own `main`, so the
        // targets call LLVMFuzzerRunDriver instead of relying on libFuzzer's `main`.
        .target(name: "CFuzzDriver", path: "Support/CFuzzDriver"),
        // The content decoders' oracle: whole against split, limits kept, nothing changed that is
        // not decoded.
        .target(
            name: "ContentDecoderOracle",
            dependencies: [
                .product(name: "WickHTTP1", package: "Wick"),
                .product(name: "WickCore", package: "Wick"),
            ],
            path: "Support/ContentDecoderOracle",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // Writes every golden case of Tests/WickHTTP1Tests/Fixtures into the parser targets'
        // corpora (`Scripts/fuzz --export-seeds`).
        .executableTarget(
            name: "ExportSeeds",
            dependencies: [.product(name: "WickTestSupport", package: "Wick")],
            path: "Tools/ExportSeeds",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ] + fuzzTargets.map { name in
        .executableTarget(
            name: name,
            dependencies: [
                "CFuzzDriver",
                .product(name: "WickHTTP1", package: "Wick"),
                .product(name: "WickCore", package: "Wick"),
            ] + (decoderTargets.contains(name) ? ["ContentDecoderOracle"] : [])
                + (harnessTargets.contains(name) ? [.product(name: "WickTestSupport", package: "Wick")] : [])
                + (wickTargets.contains(name) ? [.product(name: "Wick", package: "Wick")] : [])
                + (http2Targets.contains(name) ? [.product(name: "WickHTTP2", package: "Wick")] : [])
                + (seamTargets.contains(name)
                    ? [
                        .product(name: "WickReactor", package: "Wick"),
                        .product(name: "WickTransport", package: "Wick"),
                    ] : []),
            path: "Targets/\(name)",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        )
    }
)
