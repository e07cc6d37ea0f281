import Foundation
@_spi(Testing) import ScriptedCamera
import Testing

@testable import ArcaptureCore
@_spi(Testing) @testable import CaptureKit

/// requestAccess's waiting, with a link to /dev/null standing in for a camera node that appears.
@Suite("Waiting for a node to appear", .timeLimit(.minutes(10)))
struct NodeAppearanceWaiterTests {
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "arcapture-wait-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static let probe: AccessProbe = {
        let factory = ScriptedDeviceFactory()
        return AccessProbe(open: { path throws(SystemCallError) in try factory.open(path, false) })
    }()

    @Test("a node that appears during the wait is picked up when it appears, not at the deadline")
    func appears() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let node = directory.appendingPathComponent("by-id/usb-camera-video-index0").path
        let waiter = try #require(NodeAppearanceWaiter())
        // An hour: a grant can only come from seeing the node (the suite's time limit ends a wait
        // that would last until the deadline), whatever the machine's speed.
        let deadline = ContinuousClock.now.advanced(by: .seconds(3600))
        // Threads of their own: a loaded test run can keep Dispatch's global workers busy for long.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.3)
            // udev creates the directory, then the link.
            try? FileManager.default.createDirectory(
                atPath: directory.appendingPathComponent("by-id").path, withIntermediateDirectories: true)
            try? FileManager.default.createSymbolicLink(atPath: node, withDestinationPath: "/dev/null")
        }
        let granted = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: waiter.waitUntilAuthorized(node, deadline: deadline, probe: Self.probe))
            }
        }
        #expect(granted, "woken by inotify, long before the deadline")
    }

    @Test("a node that never appears gives false at the deadline")
    func neverAppears() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let waiter = try #require(NodeAppearanceWaiter())
        let granted = waiter.waitUntilAuthorized(
            directory.appendingPathComponent("video0").path, deadline: .now.advanced(by: .milliseconds(200)),
            probe: Self.probe)
        #expect(!granted)
    }

    @Test("cancelling ends the wait with false")
    func cancelled() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let waiter = try #require(NodeAppearanceWaiter())
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.2)
            waiter.cancel()
        }
        // An hour's deadline: only the cancel can end this wait within the suite's time limit.
        let path = directory.appendingPathComponent("video0").path
        let granted = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    returning: waiter.waitUntilAuthorized(
                        path, deadline: .now.advanced(by: .seconds(3600)), probe: Self.probe))
            }
        }
        #expect(!granted)
    }

    @Test("requestAccess answers at once when the state is already settled")
    func settled() async {
        #expect(await CaptureDevice.requestAccess(for: "/etc/hostname", timeout: .seconds(30)) == false)
        #expect(CaptureDevice.authorizationStatus(for: "/etc/hostname") == .restricted)
    }

    @Test("the watched directory is the nearest one that exists")
    func nearestAncestor() {
        #expect(NodeAppearanceWaiter.nearestExistingAncestor(of: "/dev/null") == "/dev")
        #expect(NodeAppearanceWaiter.nearestExistingAncestor(of: "/tmp/arcapture-none/a/b/video0") == "/tmp")
        #expect(NodeAppearanceWaiter.nearestExistingAncestor(of: "/video0") == "/")
    }
}
