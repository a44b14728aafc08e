import Foundation
import Testing

@testable import GrandfatherCore

/// RevenueCat's customer list: the roster, one customer per `app_user_id`, with epoch-ms
/// times (some float-formatted), `t`/`f` booleans and display-style store names.
struct CustomerListTests {
    static let header = "app_user_id;first_seen_at;latest_store;has_made_sandbox_purchase;last_seen_app_version\n"

    @Test("display-style and code store names give a platform; unknown ones none")
    func stores() {
        #expect(CustomerList.store(named: "App Store") == .appStore)
        #expect(CustomerList.store(named: "Mac App Store") == .macAppStore)
        #expect(CustomerList.store(named: "Google Play") == .playStore)
        #expect(CustomerList.store(named: "play_store") == .playStore)
        #expect(CustomerList.store(named: "Web") == .stripe)
        #expect(CustomerList.store(named: "Amazon Appstore") == .amazon)
        #expect(CustomerList.store(named: "Roku") == nil)
    }

    @Test("a list gives customers who bought nothing, its platform the weakest fact, every row accounted")
    func roster() throws {
        let list =
            Self.header
            // Line 2: ann never bought in-app; the list is all there is of her.
            + "ann;1666670198288.0;App Store;f;Version 1.0\n"
            // Line 3: bob is in the customers file too, which says macOS: that wins, no conflict
            // of the list's store with it counts (a store is no claim about a device).
            + "bob;1666670198288;Google Play;t;\n"
            // Line 4: a time no export writes; line 5: no id; line 6: bob again, identical.
            + "cat;yesterday;Web;f;\n"
            + ";1666670198288;Web;f;\n"
            + "bob;1666670198288;Google Play;t;\n"
            // Line 7: dan, a store the tool does not know: a customer with no platform.
            + "dan;1666670198288;Roku;f;\n"
        let run = try AuditFixture.run([
            FixtureFile("customers.csv", "customer_id,platform,original_app_version\nbob,macos,1.5\n"),
            FixtureFile("list.csv", list),
        ])
        let report = try #require(run.input("list.csv"))
        #expect(report.format == .revenueCatCustomerList)
        #expect(report.kind == .customers)
        #expect(report.rowsRead == 6)
        #expect(report.rowsAccepted == 4)
        #expect(report.exactDuplicates == 1)
        #expect(run.rejections("list.csv").map(\.line) == [4, 5])
        #expect(
            run.rejections("list.csv").map(\.reason) == [
                "first_seen_at is not a time: 'yesterday'", "app_user_id is missing",
            ])

        #expect(run.ids == ["ann", "bob", "dan"])
        let ann = try #require(run.result("ann")?.customer)
        #expect(ann.platform == .ios)
        #expect(ann.provenance.rowSource == .customerList)
        #expect(!ann.isOrphan)
        #expect(run.customerClass("ann") == .new)
        let bob = try #require(run.result("bob")?.customer)
        #expect(bob.platform == .macos)
        #expect(bob.provenance.source(of: .platform) == .customersFile)
        #expect(run.customerClass("bob") == .grandfathered)
        #expect(run.flags("bob").isEmpty)
        #expect(run.result("dan")?.customer.platform == nil)
    }
}
