import Foundation
import TestSupport
import Testing

/// The runner every test's programs go through: off the cooperative pool, and bounded in time.
@Suite("Running a test's programs")
struct ProcessRunnerTests {
    @Test("a program that outlives its timeout is killed, and the test records that it was")
    func timeout() async throws {
        let started = ContinuousClock.now
        var result: ProcessRunner.Result?
        await withKnownIssue("the runner records the hang as an issue of the test") {
            result = try await ProcessRunner.run(
                executable: "/bin/sleep", arguments: ["600"], timeout: .milliseconds(300))
        }
        // Killed (SIGKILL: Foundation reports the signal's number as the status), long before
        // sleep's 600 s.
        #expect(result?.status == SIGKILL)
        #expect(ContinuousClock.now - started < .seconds(300))
    }

    @Test("a program that ends in time records nothing")
    func inTime() async throws {
        let result = try await ProcessRunner.run(
            executable: "/bin/sh", arguments: ["-c", "echo out; echo err >&2; exit 3"])
        #expect(result.status == 3)
        #expect(result.stdout == "out\n" && result.stderr == "err\n")
    }
}
