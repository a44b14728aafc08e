import Foundation
import Testing

/// Headless Chromium (Debian's `chromium`, which `scripts/test` installs), for the tests
/// that look at pages as a reviewer's browser lays them out.
enum Chromium {
    static let binary = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Runs Chromium headless on `url` with `arguments` (`--dump-dom`, `--screenshot=…`) in a
    /// window of `window` pixels; returns stdout. Host names resolve to nothing, so a page
    /// shows only what it holds itself or what an address such as 127.0.0.1 serves.
    static func run(_ arguments: [String], url: String, window: String = "1200,1600") throws -> String {
        let binary = try #require(binary, "chromium is missing: scripts/test installs it (scripts/bootstrap --tests)")
        let arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--window-size=" + window,
            ] + arguments + [url]
        let (status, stdout) = try Subprocess.run(binary, arguments)
        #expect(status == 0, "chromium failed on \(url)")
        return stdout
    }
}
