// swift-tools-version: 6.2
// Wick: an HTTP client for Linux daemons with Alamofire's API on a transport of its own.
// The layering below is the one docs/ARCHITECTURE.md describes; `Scripts/check-layers` and
// `--explicit-target-dependency-import-check error` (in Scripts/test) keep it honest.
import PackageDescription

/// Swift 6 language mode is the default for tools 6.x; these keep every target equally strict.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Wick",
    products: [
        .library(name: "Wick", targets: ["Wick"]),
        // The layers are products too so that Fuzz/ and Benchmarks/ (packages of their own)
        // can drive them directly.
        .library(name: "WickCore", targets: ["WickCore"]),
        .library(name: "WickHTTP1", targets: ["WickHTTP1"]),
        .library(name: "WickHTTP2", targets: ["WickHTTP2"]),
        .library(name: "WickPool", targets: ["WickPool"]),
        .library(name: "WickReactor", targets: ["WickReactor"]),
        .library(name: "WickTLS", targets: ["WickTLS"]),
        // Benchmarks open TLS connections by the product's path (`TransportConnector`, SPI
        // `WickDirectConnect`); nothing else of it is public but the proxy types Wick re-exports.
        .library(name: "WickTransport", targets: ["WickTransport"]),
        .library(name: "WickTestSupport", targets: ["WickTestSupport"]),
        // Integrations with the server-side ecosystem, each a product of its own so that a user
        // who does not want one neither builds nor links it (README, "Integrations").
        .library(name: "WickMetrics", targets: ["WickMetrics"]),
        .library(name: "WickTracing", targets: ["WickTracing"]),
        .library(name: "WickHTTPTypes", targets: ["WickHTTPTypes"]),
        .library(name: "WickServiceLifecycle", targets: ["WickServiceLifecycle"]),
        .library(name: "WickOpenAPI", targets: ["WickOpenAPI"]),
        .executable(name: "wick", targets: ["wick"]),
        .executable(name: "wick-test-servers", targets: ["wick-test-servers"]),
    ],
    // swift-log is the core's one package: small, universal, and what a daemon's logging
    // already goes through. The heavier integrations' packages are used only by their products.
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // Without its default `FullFoundation` trait the runtime uses FoundationEssentials, as
        // Wick does, so WickOpenAPI links no full Foundation.
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.0", traits: []),
        // `swift package generate-documentation` for Scripts/docs; a plugin, so users build none of it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
    ],
    targets: [
        // C shims: only what Swift cannot call directly (macros, variadic calls, struct layouts).
        .target(
            name: "CWickOpenSSL",
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]
        ),
        .target(name: "CWickZlib", linkerSettings: [.linkedLibrary("z")]),
        // brotli's and zstd's decoders: headers only, so system library targets (Debian's
        // libbrotli-dev and libzstd-dev, installed by Scripts/setup).
        .systemLibrary(name: "CWickBrotli", providers: [.apt(["libbrotli-dev"])]),
        .systemLibrary(name: "CWickZstd", providers: [.apt(["libzstd-dev"])]),
        // brotli's encoder, for test bodies only (WickTestSupport).
        .systemLibrary(name: "CWickBrotliEncoder", providers: [.apt(["libbrotli-dev"])]),
        .target(name: "CWickSystem"),

        // Shared vocabulary: methods, headers, versions, status, deadlines.
        .target(name: "WickCore", swiftSettings: strict),

        // Sans-I/O: these two may import only WickCore (and, for WickHTTP1, the decompression
        // libraries: zlib, brotli, zstd).
        .target(
            name: "WickHTTP1", dependencies: ["WickCore", "CWickZlib", "CWickBrotli", "CWickZstd"],
            swiftSettings: strict),
        .target(name: "WickHTTP2", dependencies: ["WickCore"], swiftSettings: strict),
        .target(name: "WickPool", dependencies: ["WickCore"], swiftSettings: strict),
        // The pool's mock world and its seeded random runs with their invariants: shared by
        // WickPoolTests and `wick pool-test`, so that users run the suite's check from the tool.
        .target(name: "WickPoolChecking", dependencies: ["WickCore", "WickPool"], swiftSettings: strict),

        // I/O: the epoll reactor and the OpenSSL layer.
        .target(name: "WickReactor", dependencies: ["WickCore", "CWickSystem"], swiftSettings: strict),
        .target(
            name: "WickTLS",
            dependencies: ["WickCore", "WickReactor", "CWickOpenSSL"],
            swiftSettings: strict
        ),

        // The transport that runs the layers: connection driver, pool runner, connector, proxy
        // tunnel, and the translation of a request into its terms. It never sees the API above.
        .target(
            name: "WickTransport",
            dependencies: ["WickCore", "WickHTTP1", "WickHTTP2", "WickPool", "WickReactor", "WickTLS"],
            swiftSettings: strict
        ),

        // The public API.
        .target(
            name: "Wick",
            dependencies: [
                "WickCore", "WickHTTP1", "WickHTTP2", "WickPool", "WickReactor", "WickTLS", "WickTransport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Integrations: each sees Wick's public API and its own package, nothing below.
        .target(
            name: "WickOpenAPI",
            dependencies: [
                "Wick", "WickHTTPTypes", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "WickMetrics",
            dependencies: ["Wick", .product(name: "CoreMetrics", package: "swift-metrics")],
            swiftSettings: strict
        ),
        .target(
            name: "WickTracing",
            dependencies: ["Wick", .product(name: "Tracing", package: "swift-distributed-tracing")],
            swiftSettings: strict
        ),
        .target(
            name: "WickHTTPTypes",
            dependencies: ["Wick", .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: strict
        ),
        .target(
            name: "WickServiceLifecycle",
            dependencies: ["Wick", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            swiftSettings: strict
        ),
        // The `wick` command's curl-compatible part: argument grammar, options, the transfer and
        // its output. A library so that its parser is unit-tested; it uses only Wick's public API.
        .target(name: "WickCLI", dependencies: ["Wick"], swiftSettings: strict),
        .executableTarget(
            name: "wick", dependencies: ["Wick", "WickCLI", "WickHTTP1", "WickPoolChecking", "WickReactor", "WickTLS"],
            swiftSettings: strict),

        // Test doubles and real-server launchers; used only by tests, Fuzz/ and Benchmarks/.
        .target(
            name: "WickTestSupport",
            dependencies: ["WickCore", "WickHTTP1", "WickTLS", "CWickSystem", "CWickBrotliEncoder", "CWickZstd"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "wick-test-servers",
            dependencies: ["WickTestSupport"],
            swiftSettings: strict
        ),
        // The soak (Scripts/soak): Wick's public API against nginx and the fault server, for as
        // long as asked. Here rather than in Benchmarks/: it needs nothing beyond these two, and
        // Scripts/test's build already makes it.
        .executableTarget(
            name: "wick-soak",
            dependencies: ["Wick", "WickTestSupport"],
            swiftSettings: strict
        ),

        .testTarget(name: "WickCoreTests", dependencies: ["WickCore", "WickTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "WickHTTP1Tests",
            dependencies: ["WickHTTP1", "WickTestSupport", "CWickZlib"],
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WickHTTP2Tests",
            dependencies: ["WickHTTP2", "WickCore", "WickTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WickPoolTests", dependencies: ["WickPool", "WickPoolChecking", "WickCore"], swiftSettings: strict),
        .testTarget(
            name: "WickReactorTests",
            dependencies: ["WickReactor", "WickTestSupport", "CWickSystem"],
            swiftSettings: strict
        ),
        // WickTransport too: TLS connections are opened by the product's one path,
        // `TransportConnector` (SPI `WickDirectConnect`).
        .testTarget(
            name: "WickTLSTests",
            dependencies: ["WickTLS", "WickReactor", "WickCore", "WickTestSupport", "CWickOpenSSL", "WickTransport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WickTransportTests",
            dependencies: [
                "WickTransport", "WickTestSupport", "WickCore", "WickHTTP1", "WickPool", "WickReactor", "WickTLS",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WickTests",
            dependencies: [
                "Wick", "WickTransport", "WickTestSupport", "WickCore", "WickHTTP1", "WickPool", "WickReactor",
                "WickTLS", "CWickZlib",
            ],
            swiftSettings: strict
        ),
        // The curl-compatible command: its parser alone, and golden runs of `wick` beside curl.
        .testTarget(name: "WickCLITests", dependencies: ["WickCLI", "Wick", "WickTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "WickLoggingTests",
            dependencies: [
                "Wick", "WickTestSupport", .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WickMetricsTests",
            dependencies: [
                "WickMetrics", "Wick", "WickTestSupport",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WickTracingTests",
            dependencies: [
                "WickTracing", "Wick", "WickTestSupport",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WickHTTPTypesTests",
            dependencies: ["WickHTTPTypes", "Wick", .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WickServiceLifecycleTests",
            dependencies: [
                "WickServiceLifecycle", "Wick", "WickTestSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WickOpenAPITests",
            dependencies: [
                "WickOpenAPI", "Wick", "WickTestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // The document the committed client in Generated/ was made from
            // (Scripts/generate-openapi-client); the tests build only the generated Swift.
            exclude: ["OpenAPI"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WickTestSupportTests",
            dependencies: ["WickTestSupport"],
            swiftSettings: strict
        ),
    ]
)
