/// Every kind of input the tool reads, in the order they are asked.
///
/// Order matters twice. Recognition asks each source in turn and the first to claim a file
/// reads it: the App Store's shapes are exact and a RevenueCat export names columns no
/// canonical file has, so both are asked before the canonical source, which takes any other
/// file as canonical CSV or JSON. Reading goes source by source in this order too, and the
/// first customer row of an id wins (SPEC §8.7).
enum InputSources {
    static let registered: [any InputSource.Type] = [
        AppStoreSource.self,
        RevenueCatSource.self,
        CanonicalSource.self,
    ]
}
