// swift-tools-version: 6.2
// wick-bench-peers: the async-http-client peer of the `tls` suite, in a package of its own so that
// the allocation gate (`wick-bench check-allocations`, run by Scripts/test) never resolves or
// builds AHC and its dependencies (swift-nio, swift-nio-ssl with BoringSSL, ...). `wick-bench tls`
// starts it as a child process and drives it over stdin/stdout; only `Scripts/bench tls` builds it.
import PackageDescription

let package = Package(
    name: "WickBenchPeers",
    products: [
        .executable(name: "wick-bench-peers", targets: ["wick-bench-peers"])
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0")
    ],
    targets: [
        // mallinfo2, which Swift's Glibc module does not export.
        .target(name: "CPeerHeap"),
        .executableTarget(
            name: "wick-bench-peers",
            dependencies: ["CPeerHeap", .product(name: "AsyncHTTPClient", package: "async-http-client")],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),
    ]
)
