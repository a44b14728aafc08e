import Testing

@testable import GrandfatherCore

/// FORMATS.md §a: every spelling RevenueCat's exports use for a boolean, a list and a time,
/// and the values that must be refused rather than guessed.
struct RevenueCatValueTests {
    private static func bool(_ text: String) -> Bool? { RevenueCatValue.bool(Array(text.utf8).span) }
    private static func list(_ text: String) -> [String]? { RevenueCatValue.list(Array(text.utf8).span) }
    private static func time(_ text: String) -> String? { RevenueCatValue.time(Array(text.utf8).span)?.iso8601 }
    private static func exportTime(_ text: String) -> String? {
        RevenueCatValue.exportTime(Array(text.utf8).span)?.iso8601
    }
    private static func epoch(_ text: String) -> String? {
        RevenueCatValue.epochMilliseconds(Array(text.utf8).span)?.iso8601
    }

    @Test(
        "booleans of every export version",
        arguments: [
            ("t", true), ("f", false), ("T", true), ("F", false), ("true", true), ("false", false), ("TRUE", true),
            ("FALSE", false), ("True", true), ("False", false),
        ])
    func booleans(text: String, value: Bool) {
        #expect(Self.bool(text) == value)
    }

    @Test(
        "values that are not booleans", arguments: ["", "1", "0", "yes", "no", " true", "true ", "tru", "falsey", "x"])
    func notBooleans(text: String) {
        #expect(Self.bool(text) == nil)
    }

    @Test(
        "lists of every export version",
        arguments: [
            ("{a,b}", ["a", "b"]), (#"["a","b"]"#, ["a", "b"]),
            ("['membership', 'full_access']", ["membership", "full_access"]),
            ("[a, b]", ["a", "b"]), ("[premium]", ["premium"]), ("[]", []), ("{}", []), ("[ ]", []),
            (#"{"pro plan",lite}"#, ["pro plan", "lite"]), (#"["a,b"]"#, ["a,b"]), ("[ 'x' ,y ]", ["x", "y"]),
        ])
    func lists(text: String, items: [String]) {
        #expect(Self.list(text) == items)
    }

    @Test(
        "values that are not lists",
        arguments: ["", "premium", "[a", "a]", "[a}", "{a]", "[a,,b]", "[a,]", "[,a]", "['a]", "['a' b]", "[a] x", "["])
    func notLists(text: String) {
        #expect(Self.list(text) == nil)
    }

    @Test(
        "export times are UTC, with one- or two-digit hours and an optional fraction",
        arguments: [
            ("2023-02-02 21:40:15", "2023-02-02T21:40:15Z"), ("2023-12-12 1:35:31", "2023-12-12T01:35:31Z"),
            ("2023-12-12 01:35:31", "2023-12-12T01:35:31Z"), ("2024-02-29 23:59:59.5", "2024-02-29T23:59:59.500Z"),
            ("2024-02-29T00:00:00.1234567", "2024-02-29T00:00:00.123456Z"),
            ("0001-01-01 0:00:00", "0001-01-01T00:00:00Z"),
            ("2024-02-29 0:00:00.5", "2024-02-29T00:00:00.500Z"), ("9999-12-31T23:59:59", "9999-12-31T23:59:59Z"),
        ])
    func exportTimes(text: String, iso: String) {
        #expect(Self.exportTime(text) == iso)
        #expect(Self.time(text) == iso)
    }

    @Test(
        "export times that are refused",
        arguments: [
            "", "2023-02-30 10:00:00", "2023-13-01 10:00:00", "2023-02-02 24:00:00", "2023-02-02 123:00:00",
            "2023-02-02 10:60:00", "2023-02-02  10:00:00", "2023-02-02 10:00", "2023-02-02 10:00:00.",
            "0000-01-01 00:00:00",
            "2023-2-02 10:00:00", "2023-02-02 10:00:00 UTC",
            // Nineteen bytes, the fixed form's length, but not its form.
            "2023-02-02 1:00:00.", "2023-02-02 10:0a:00", "2023/02/02 10:00:00", "2023-02-02_10:00:00",
            "2023-02-02 10:00:-0", "2023-2-2 10:00:00.5",
        ])
    func refusedExportTimes(text: String) {
        #expect(Self.exportTime(text) == nil)
        #expect(Self.time(text) == nil)
    }

    @Test(
        "the canonical forms are read too, each with its own zone",
        arguments: [
            ("2024-03-01T01:00:00+01:00", "2024-03-01T00:00:00Z"), ("2024-02-29T23:59:59Z", "2024-02-29T23:59:59Z"),
            ("1698148900000", "2023-10-24T12:01:40Z"),
        ])
    func canonicalTimes(text: String, iso: String) {
        #expect(Self.exportTime(text) == nil)
        #expect(Self.time(text) == iso)
    }

    @Test(
        "epoch milliseconds, integral or float-formatted",
        arguments: [
            ("1666670198288", "2022-10-25T03:56:38.288Z"), ("1666670198288.0", "2022-10-25T03:56:38.288Z"),
            ("1666670198288.5", "2022-10-25T03:56:38.288500Z"), ("0", "1970-01-01T00:00:00Z"),
            ("253402300799999", "9999-12-31T23:59:59.999Z"),
        ])
    func epochMilliseconds(text: String, iso: String) {
        #expect(Self.epoch(text) == iso)
    }

    @Test(
        "epoch milliseconds that are refused",
        arguments: ["", "-1", "1.5e12", "1666670198288.", ".5", "abc", "253402300800000", "99999999999999999999"])
    func refusedEpochMilliseconds(text: String) {
        #expect(Self.epoch(text) == nil)
    }

    @Test(
        "a word is spelled in any case of its letters, and nothing else folds",
        arguments: [
            ("family_shared", "family_shared", true), ("FAMILY_SHARED", "family_shared", true),
            ("Family_Shared", "family_shared", true), ("family\u{7F}shared", "family_shared", false),
            ("familyshared", "family_shared", false), ("app_store", "app_store", true),
            ("APP_STORE ", "app_store", false), ("app_stor", "app_store", false), ("@pp_store", "app_store", false),
        ] as [(String, StaticString, Bool)])
    func spellings(text: String, name: StaticString, spelled: Bool) {
        #expect(RevenueCatValue.spells(Array(text.utf8).span, name) == spelled)
    }

    @Test("every store is read by its name, in any case")
    func stores() {
        for store in ExportStore.allCases where store != .other {
            #expect("\(store.spelling)" == store.rawValue)
            #expect(ExportStore.read(Array(store.rawValue.utf8).span) == store)
            #expect(ExportStore.read(Array(store.rawValue.uppercased().utf8).span) == store)
        }
        #expect(ExportStore.read(Array("roku".utf8).span) == .other)
        #expect(ExportStore.read(Array("app_store_".utf8).span) == .other)
    }
}
