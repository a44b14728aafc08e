// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Grandfather",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "GrandfatherCore", targets: ["GrandfatherCore"]),
        .library(name: "GrandfatherEngine", targets: ["GrandfatherEngine"]),
        .executable(name: "grandfather", targets: ["grandfather"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // libcsv from Debian's libcsv-dev, behind a module map and a shim header.
        .systemLibrary(
            name: "CLibCSV",
            providers: [.apt(["libcsv-dev"])]
        ),
        // zlib from Debian's zlib1g-dev, behind a module map and a shim header: gzip inputs.
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // sqlite3_config is variadic, so Swift reaches it through this one-function shim.
        .target(
            name: "CSQLiteTuning",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        // The SSE2 scan for field boundaries under PlainLineReader (C for its movemask).
        .target(name: "CByteScan"),
        // The machinery (bytes, CSV, JSON, parsing, spill, tables, threads, time), which names
        // nothing of the domain: GrandfatherCore depends on it, never the other way, so the
        // compiler is the fence (CONTRIBUTING.md, "Layout").
        .target(
            name: "GrandfatherEngine",
            dependencies: [
                "CByteScan",
                "CLibCSV",
                "CZlib",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // The readers are generic over their sinks and the hot loops call small engine
            // functions per field: across a module boundary, unspecialised and not inlined,
            // a canonical run took 1.68x the time. Cross-module optimisation lets the
            // domain's calls specialise and inline them as they did inside one module.
            swiftSettings: [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
        ),
        .target(
            name: "GrandfatherCore",
            dependencies: [
                "GrandfatherEngine",
                "CSQLiteTuning",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        .executableTarget(
            name: "grandfather",
            dependencies: [
                "GrandfatherCore",
                "GrandfatherEngine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the test targets share: gzip and zip data made at run time with zlib.
        .target(
            name: "GrandfatherTestSupport",
            dependencies: ["CZlib"],
            path: "Tests/GrandfatherTestSupport"
        ),
        // The engine's own tests: nothing of the domain, as in the engine.
        .testTarget(
            name: "GrandfatherEngineTests",
            dependencies: ["GrandfatherEngine", "GrandfatherTestSupport", "CLibCSV"]
        ),
        .testTarget(
            name: "GrandfatherCoreTests",
            dependencies: [
                "GrandfatherCore",
                "GrandfatherEngine",
                "GrandfatherTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            resources: [.copy("Fixtures")]
        ),
        // Runs the built `grandfather` binary, as cron and reviewers do.
        .testTarget(
            name: "GrandfatherCLITests",
            dependencies: [
                "grandfather",
                "GrandfatherCore",
                "GrandfatherEngine",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Golden"],
            resources: [.copy("Conformance"), .copy("Fixtures")]
        ),
    ]
)
