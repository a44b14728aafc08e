// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for GrandfatherCore, one executable per input surface. Kept apart from
// the root package so that its builds never see the sanitizer flags: `scripts/fuzz` builds
// these with `-sanitize=fuzzer,address -parse-as-library` on every Swift module.
let package = Package(
    name: "GrandfatherFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Grandfather", path: "..")],
    targets: [
        // libFuzzer's driver entry, behind a module map (the runtime comes with -sanitize=fuzzer).
        .systemLibrary(name: "CLibFuzzer"),
        // What the targets share: starting libFuzzer, and the ingest harness.
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CLibFuzzer",
                .product(name: "GrandfatherCore", package: "Grandfather"),
                .product(name: "GrandfatherEngine", package: "Grandfather"),
            ]
        ),
        .executableTarget(name: "fuzz-csv", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport"]),
        .executableTarget(
            name: "fuzz-timestamp",
            dependencies: ["FuzzSupport", .product(name: "GrandfatherEngine", package: "Grandfather")]
        ),
        .executableTarget(name: "fuzz-version", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-policy", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-appstore", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-revenuecat", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-sales", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-play", dependencies: ["FuzzSupport"]),
    ]
)
