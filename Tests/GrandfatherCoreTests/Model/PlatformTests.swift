import Testing

@testable import GrandfatherCore

@Suite struct PlatformTests {
    /// Tables indexed by platform rely on `index` being the position in `allCases`.
    @Test func indexIsThePositionInAllCases() {
        for (position, platform) in Platform.allCases.enumerated() {
            #expect(platform.index == position, "\(platform)")
        }
    }
}
