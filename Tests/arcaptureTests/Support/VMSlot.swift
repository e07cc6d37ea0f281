import TestSupport

/// One test VM at a time: two emulated guests at once on this 2-core machine would each see the
/// other's load as a slow camera, and the VM suites measure frame rates and drops. A boot waits
/// for the one before it to end, and runs on a thread of its own (a boot takes minutes, and would
/// hold one of the cooperative pool's two threads all that time).
actor VMSlot {
    static let shared = VMSlot()
    private var last: Task<Void, Never>?

    /// Runs `boot` after every boot queued before it has ended.
    func run<Value: Sendable>(_ boot: @escaping @Sendable () throws -> Value) async throws -> Value {
        let previous = last
        let task = Task { () async throws -> Value in
            await previous?.value
            return try await OffPool.run(boot)
        }
        last = Task { _ = try? await task.value }
        return try await task.value
    }
}
