import Foundation
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// Deliveries of one transaction merge field by field (SPEC §9, Redeliveries): a later one
/// replaces only the facts its shape states, and each fact keeps the shape that stated it.
struct RedeliveryRulesTests {
    static let t0 = Instant(microseconds: 1_720_000_000_000_000)

    static func delivery(
        _ shape: TransactionShape, version: Int64, price: String? = nil,
        _ change: (inout MappedTransaction) -> Void = { _ in }
    ) -> RedeliveryRules.Delivery {
        var record = MappedTransaction(
            productType: .nonConsumable, typeSource: .export, purchaseDate: t0, expiresDate: nil, revocationDate: nil,
            ownership: .purchased,
            environment: .production, renewalState: nil, gracePeriodExpiresDate: nil, storePlatform: .ios,
            isPromotional: false, provenance: TransactionProvenance(shape: shape))
        change(&record)
        var texts = OwnedTransactionTexts()
        texts[.transactionID] = "t1"
        texts[.customerID] = "ann"
        texts[.productID] = "pass"
        texts[.originalTransactionID] = shape == .revenueCatExport ? "t0" : nil
        texts[.price] = price
        return RedeliveryRules.Delivery(record: record, texts: texts, version: version)
    }

    @Test("a later response's item keeps the export's ownership, expiry, refund and original id")
    func laterPoorerDelivery() throws {
        let export = Self.delivery(.revenueCatExport, version: 1, price: "9.99") {
            $0.ownership = .familyShared
            $0.expiresDate = Self.t0.adding(seconds: 86_400)
            $0.revocationDate = Self.t0.adding(seconds: 3_600)
        }
        let item = Self.delivery(.subscriberItem, version: 2, price: "8.99") { $0.environment = .production }
        let (kept, superseded) = RedeliveryRules.latest([export, item])
        #expect(superseded == 1)
        #expect(kept.count == 1)
        let merged = try #require(kept.first)
        #expect(merged.index == 1)
        let record = merged.delivery.record
        #expect(record.ownership == .familyShared)
        #expect(record.expiresDate == Self.t0.adding(seconds: 86_400))
        #expect(record.revocationDate == Self.t0.adding(seconds: 3_600))
        #expect(merged.delivery.texts[.originalTransactionID] == "t0")
        // What the item states is the item's: its price.
        #expect(merged.delivery.texts[.price] == "8.99")
        let provenance = record.provenance
        #expect(provenance.shape == .subscriberItem)
        #expect(provenance.source(of: .ownership) == .revenueCatExport)
        #expect(provenance.source(of: .expiresDate) == .revenueCatExport)
        #expect(provenance.source(of: .price) == .subscriberItem)
        #expect(provenance.source(of: .purchaseDate) == .subscriberItem)
    }

    @Test("a later delivery of a fact it states replaces it, even with none: a subscription's refund cleared")
    func laterStatedAbsence() {
        let export = Self.delivery(.revenueCatExport, version: 1) { $0.revocationDate = Self.t0 }
        let subscription = Self.delivery(.subscriberSubscription, version: 2)
        let (kept, _) = RedeliveryRules.latest([subscription, export])
        #expect(kept.map(\.index) == [0])
        #expect(kept.first?.delivery.record.revocationDate == nil)
        #expect(kept.first?.delivery.record.provenance.source(of: .revocationDate) == .subscriberSubscription)
    }

    @Test(
        "a term a response's entitlement showed outlives a later delivery that shows none, and yields to one that does")
    func termKept() {
        let end = Self.t0.adding(seconds: 30 * 86_400)
        let item = Self.delivery(.subscriberItem, version: 1) {
            $0.productType = .nonRenewing
            $0.termEnds = end
        }
        let export = Self.delivery(.revenueCatExport, version: 2) { $0.productType = .nonRenewing }
        #expect(RedeliveryRules.latest([item, export]).kept.first?.delivery.record.termEnds == end)
        let longer = Self.delivery(.revenueCatExport, version: 2) {
            $0.productType = .nonRenewing
            $0.termEnds = end.adding(seconds: 86_400)
        }
        #expect(
            RedeliveryRules.latest([item, longer]).kept.first?.delivery.record.termEnds == end.adding(seconds: 86_400))
    }

    @Test("an older delivery read after a newer one changes nothing the newer states")
    func orderRead() {
        let newer = Self.delivery(.revenueCatExport, version: 5) { $0.ownership = .familyShared }
        let older = Self.delivery(.subscriberSubscription, version: 1) { $0.ownership = .purchased }
        let (kept, superseded) = RedeliveryRules.latest([newer, older])
        #expect(superseded == 1 && kept.map(\.index) == [0])
        #expect(kept.first?.delivery.record.ownership == .familyShared)
    }

    @Test("two deliveries of one update time both stay: alike where one alone states a fact, apart where both do")
    func ties() {
        let export = Self.delivery(.revenueCatExport, version: 3, price: "1") { $0.ownership = .familyShared }
        let item = Self.delivery(.subscriberItem, version: 3, price: "1")
        let (alike, superseded) = RedeliveryRules.latest([export, item])
        #expect(superseded == 0 && alike.count == 2)
        #expect(alike.allSatisfy { $0.delivery.record.ownership == .familyShared })
        // Only the shape of the record itself tells them apart: the ledger sees one transaction.
        #expect(alike[0].delivery.texts == alike[1].delivery.texts)

        let other = Self.delivery(.subscriberItem, version: 3, price: "2")
        let (apart, _) = RedeliveryRules.latest([export, other])
        #expect(Set(apart.map { $0.delivery.texts[.price] }) == ["1", "2"])
    }
}
