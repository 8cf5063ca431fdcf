// swift-tools-version: 6.2
// Wick's benchmark peers that need swift-nio, in a package of their own so that the allocation
// gate (`wick-bench check-allocations`, run by Scripts/test) never resolves or builds them:
// - wick-bench-peers: async-http-client, the peer of the `tls`, `requests`, `http2` and
//   `transfers` suites. `wick-bench` starts it as a child process and drives it over
//   stdin/stdout.
// - wick-bench-openapi: the OpenAPI client that swift-openapi-generator made for
//   WickOpenAPITests (the same files: Sources/wick-bench-openapi/Generated is a symlink to
//   Tests/WickOpenAPITests/Generated) on Wick's `WickClientTransport` and on
//   swift-openapi-async-http-client's `AsyncHTTPClientTransport`, in one process with the
//   allocation counter (Sources/CAllocationCounter, a symlink to Benchmarks/Sources'); the
//   `openapi` suite of `wick-bench` drives it the same way.
// Only the Scripts/bench suites that need them build this package.
import PackageDescription

let package = Package(
    name: "WickBenchPeers",
    products: [
        .executable(name: "wick-bench-peers", targets: ["wick-bench-peers"]),
        .executable(name: "wick-bench-openapi", targets: ["wick-bench-openapi"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(name: "Wick", path: "../.."),
    ],
    targets: [
        // mallinfo2, which Swift's Glibc module does not export.
        .target(name: "CPeerHeap"),
        // wick-bench's malloc interposer (a symlink to Benchmarks/Sources/CAllocationCounter).
        .target(name: "CAllocationCounter"),
        .executableTarget(
            name: "wick-bench-peers",
            dependencies: ["CPeerHeap", .product(name: "AsyncHTTPClient", package: "async-http-client")],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),
        .executableTarget(
            name: "wick-bench-openapi",
            dependencies: [
                "CAllocationCounter",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Wick", package: "Wick"),
                .product(name: "WickOpenAPI", package: "Wick"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),
    ]
)
