// swift-tools-version: 6.2
// Wick's benchmarks: a package of its own so that its peers (picohttpparser, zlib, brotli, zstd,
// valgrind's client requests) and its malloc interposer never reach the library's users. `Scripts/bench`
// builds it in release and runs `wick-bench`.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "WickBenchmarks",
    products: [
        .executable(name: "wick-bench", targets: ["wick-bench"])
    ],
    dependencies: [
        .package(name: "Wick", path: ".."),
        // The integrations' own packages, for `wick-bench integrations` (their loggers, metrics
        // factories and tracers; the same versions the Wick package resolves).
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.0"),
    ],
    targets: [
        // The allocation counter: it interposes malloc for the whole process. A target of its own
        // so that Benchmarks/Peers links the same file (its CAllocationCounter is a symlink here).
        .target(name: "CAllocationCounter"),
        // The peers' interface declarations and callgrind's client requests. No benchmark logic
        // lives in C.
        .target(
            name: "CBenchSupport",
            linkerSettings: [
                .linkedLibrary("h2o-evloop"), .linkedLibrary("z"), .linkedLibrary("brotlidec"), .linkedLibrary("zstd"),
            ]
        ),
        // libcurl's variadic calls and the discarding write callback for the `tls` suite's
        // libcurl peer (Debian's libcurl4-openssl-dev; libssl tells whether a session resumed).
        .target(
            name: "CBenchCurl",
            linkerSettings: [.linkedLibrary("curl"), .linkedLibrary("ssl")]
        ),
        // nghttp2's HPACK encoder and decoder (Debian's libnghttp2-dev) for the `hpack` suite's
        // peer, called from Swift through the header.
        .target(
            name: "CBenchNghttp2",
            linkerSettings: [.linkedLibrary("nghttp2")]
        ),
        .executableTarget(
            name: "wick-bench",
            dependencies: [
                "CAllocationCounter",
                "CBenchSupport",
                "CBenchCurl",
                "CBenchNghttp2",
                .product(name: "Wick", package: "Wick"),
                .product(name: "WickCore", package: "Wick"),
                .product(name: "WickHTTP1", package: "Wick"),
                .product(name: "WickHTTP2", package: "Wick"),
                .product(name: "WickReactor", package: "Wick"),
                .product(name: "WickTLS", package: "Wick"),
                .product(name: "WickTransport", package: "Wick"),
                .product(name: "WickTestSupport", package: "Wick"),
                .product(name: "WickMetrics", package: "Wick"),
                .product(name: "WickTracing", package: "Wick"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
    ]
)
