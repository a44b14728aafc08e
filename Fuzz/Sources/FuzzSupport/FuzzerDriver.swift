import CLibFuzzer
import Foundation

/// Starts libFuzzer from a target's `main`.
///
/// SwiftPM links every executable with its `main` aliased to the module's entry point, so
/// libFuzzer's own `main` is never linked in: each target's `@main` hands its
/// `LLVMFuzzerTestOneInput` to libFuzzer's driver, which then reads the usual flags.
public enum FuzzerDriver {
    /// Runs libFuzzer over `testOneInput` with the process's arguments; exits with its status.
    public static func run(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    }
}
