/// Every kind of input the tool reads, in the order they are asked.
///
/// Order matters twice. Recognition asks each source in turn and the first to claim a file
/// reads it: a file the `--map` mapping picks is read through it whatever else it looks like,
/// so the mapped source is asked first; the App Store's shapes are exact and a RevenueCat export names columns no
/// canonical file has, and a normalize folder's
/// tables are told by their exact headers, so these are asked before the canonical source, which takes any other
/// file as canonical CSV or JSON; a store's sales report, told by its header's exact column names, a file of claimed orders, told by its two, and Google Play's subscription responses, notifications and voided purchases and stored licensing verdicts, told by their keys, are asked before it too. Reading goes source by source in this order too, and the
/// first customer row of an id wins (SPEC §8.7). RevenueCat's webhook events give no records
/// but say which ids name one customer, so they are read first: every record after is filed
/// under its merged customer (their files are recognised with RevenueCat's other JSON).
enum InputSources {
    static let registered: [any InputSource.Type] = [
        MappedSource.self,
        RevenueCatWebhookSource.self,
        AppStoreSource.self,
        RevenueCatSource.self,
        WarehouseSource.self,
        SalesReportSource.self,
        ClaimedOrderSource.self,
        PlaySubscriptionSource.self,
        LicensingVerdictSource.self,
        CanonicalSource.self,
    ]
}
