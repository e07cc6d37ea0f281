import Testing

/// Starts a test VM's boot when the test run is planned, before any test runs, for the suites that
/// read its results.
///
/// A boot is the longest thing the suite does (the vivid guest's scenarios take minutes under
/// TCG), so it should start at once; started by the first test that awaits it, it waited for a
/// cooperative thread (this machine has two) behind the unit tests queued before it, about a
/// minute and a half. The testing library calls ``prepare(for:)`` after it has chosen the tests to
/// run and before it runs any, so a run that skips the VM suites (`--skip Vivid`) boots nothing.
struct VMBootTrait: SuiteTrait, TestTrait {
    /// Starts the boot (each VM's shared run is a task, started the first time it is read).
    let start: @Sendable () -> Void

    func prepare(for test: Test) async throws {
        start()
    }
}

extension Trait where Self == VMBootTrait {
    /// Boots the vivid VM (``VividVM``) as the run starts.
    static var bootsVividVM: Self { VMBootTrait { _ = VividVM.shared } }

    /// Boots the v4l2loopback VM (``LoopbackVM``) as the run starts.
    static var bootsLoopbackVM: Self { VMBootTrait { _ = LoopbackVM.shared } }
}
