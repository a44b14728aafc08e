import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// The sizes the bench/README.md's table "Memory, structure by structure" states: a change that grows
/// what a customer or a transaction keeps fails here until the table says so.
struct MemoryLayoutTests {
    @Test("per customer: record 72, activity 56, current grant 120, verdict 8, index entry 24")
    func perCustomer() {
        #expect(MemoryLayout<Customer>.stride == 72)
        #expect(MemoryLayout<CustomerActivity>.stride == 56)
        #expect(MemoryLayout<CustomerActivity.CurrentGrant>.stride == 120)
        #expect(MemoryLayout<Verdict>.stride == 8)
        #expect(CustomerIndex.entryBytes == 24)
    }

    @Test("per transaction: a 16-byte fingerprint, on disk")
    func perTransaction() {
        #expect(TransactionFingerprints.entryBytes == 16)
    }
}
