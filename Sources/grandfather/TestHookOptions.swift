import ArgumentParser
@_spi(TestHooks) import GrandfatherCore

/// The points where the crash, atomicity and lock tests make a run fail, die or wait.
///
/// They exist only in debug builds (the tests' build), and only as hidden options on the
/// command line, never as environment variables: a release build has none, and no stray
/// variable in a cron job's environment can make a real run die or stall.
struct TestHookOptions: ParsableArguments {
    #if DEBUG
        @Option(name: .customLong("test-fail-at"), help: .hidden)
        var failAt: WritePoint?

        @Option(name: .customLong("test-kill-at"), help: .hidden)
        var killAt: KillPoint?

        @Option(name: .customLong("test-pause-at"), help: .hidden)
        var pauseAt: KillPoint?

        /// The points the test asked for.
        var hooks: TestHooks { TestHooks(failAt: failAt, killAt: killAt, pauseAt: pauseAt) }
    #else
        var hooks: TestHooks { TestHooks() }
    #endif

    /// Gives `run` the points the test asked for.
    func apply(to run: inout AuditRun) {
        run.testHooks = hooks
    }
}

#if DEBUG
    extension WritePoint: ExpressibleByArgument {}
    extension KillPoint: ExpressibleByArgument {}
#endif
