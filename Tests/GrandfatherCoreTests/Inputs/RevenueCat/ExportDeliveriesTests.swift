import Testing

@testable import GrandfatherCore

/// SPEC §9, Redeliveries: the latest delivery of a key supersedes the others, wherever the
/// deliveries fall among the ranges of a run's files.
struct ExportDeliveriesTests {
    /// A small deterministic generator, so that a failure reproduces.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }

    /// Keys small and large (spread as the 64-bit hashes of real rows are), so that they fall
    /// in few buckets and in all of them.
    @Test(
        "the grouped parts supersede exactly what one table of every delivery would",
        arguments: [(1, 1), (2, 1), (7, 1), (32, 1), (7, 0x2545_F491_4F6C_DD1D), (32, 0x2545_F491_4F6C_DD1D)])
    func groupedPartsAgreeWithOneTable(parts partCount: Int, spread: Int) {
        var random = Generator(state: UInt64(partCount))
        var parts = [[ExportDeliveries.Delivery]](repeating: [], count: partCount)
        var all: [ExportDeliveries.Delivery] = []
        for _ in 0..<5_000 {
            // Few keys and versions, so that keys repeat within a part and across parts, and
            // some of the latest versions tie.
            let delivery = ExportDeliveries.Delivery(
                key: Int.random(in: -500...500, using: &random) &* spread,
                version: Int64.random(in: 0...3, using: &random))
            parts[Int.random(in: 0..<partCount, using: &random)].append(delivery)
            all.append(delivery)
        }
        // A row without `updated_at`, which any dated delivery of its key outranks.
        parts[0].append(ExportDeliveries.Delivery(key: 9_999, version: .min))
        parts[partCount - 1].append(ExportDeliveries.Delivery(key: 9_999, version: 1))
        all += [
            ExportDeliveries.Delivery(key: 9_999, version: .min), ExportDeliveries.Delivery(key: 9_999, version: 1),
        ]
        for index in parts.indices { ExportDeliveries.group(&parts[index]) }

        let table = ExportDeliveries(&parts)

        var newest: [Int: Int64] = [:]
        for delivery in all { newest[delivery.key] = max(newest[delivery.key] ?? .min, delivery.version) }
        var superseded = 0
        for delivery in all {
            let expected = delivery.version < newest[delivery.key]!
            #expect(table.isSuperseded(key: delivery.key, version: delivery.version) == expected)
            if expected { superseded += 1 }
        }
        #expect(superseded > 1_000)
        #expect(table.isSuperseded(key: 9_999, version: .min))
        #expect(!table.isSuperseded(key: 9_999, version: 1))
        #expect(!table.isSuperseded(key: 123_456, version: .min))
        #expect(parts.allSatisfy { $0.isEmpty })
    }
}
