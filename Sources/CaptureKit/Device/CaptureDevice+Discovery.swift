import ArcaptureCore
import Glibc

extension CaptureDevice {
    /// Lists every `video*` node in `deviceDirectory`, in numeric order, each described as fully as
    /// this process may see it.
    ///
    /// A node that cannot be opened (no permission, gone) is still listed, with its
    /// ``authorization`` explaining why; a busy node is described in full, since reading formats and
    /// controls does not need the buffer queue.
    ///
    /// - Parameter deviceDirectory: where to look; `/dev` normally.
    /// - Returns: the nodes found, possibly none.
    public static func discover(deviceDirectory: String = "/dev") -> [CaptureDevice] {
        videoNodePaths(deviceDirectory: deviceDirectory).map { inspect($0, deviceDirectory: deviceDirectory) }
    }

    /// The `video*` nodes in `deviceDirectory`, in numeric order (`video2` before `video10`), without
    /// opening them.
    ///
    /// - Parameter deviceDirectory: where to look; `/dev` normally.
    public static func videoNodePaths(deviceDirectory: String = "/dev") -> [String] {
        guard case .success(let names) = FileSystem.entries(of: deviceDirectory) else { return [] }
        let nodes = names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("video"), let number = Int(name.dropFirst(5)) else { return nil }
            return (number, "\(deviceDirectory)/\(name)")
        }
        return nodes.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Describes the node at `path`: its authorization, and, when it can be opened, its capability,
    /// formats, frame sizes, frame intervals and controls.
    ///
    /// - Parameter path: a device node or a link to one, such as `/dev/v4l/by-id/…`.
    /// - Returns: the description; its ``authorization`` says what is wrong when details are missing.
    public static func inspect(_ path: String) -> CaptureDevice {
        inspect(path, deviceDirectory: "/dev")
    }

    static func inspect(_ path: String, deviceDirectory: String) -> CaptureDevice {
        inspect(path, deviceDirectory: deviceDirectory, probe: AccessProbe())
    }

    static func inspect(_ path: String, deviceDirectory: String, probe: AccessProbe) -> CaptureDevice {
        let authorization = probe.examine(path)
        var device = CaptureDevice(
            path: path, stablePaths: stablePaths(of: path, in: "\(deviceDirectory)/v4l"),
            authorization: authorization, capability: nil, formats: [], controls: [], currentFormat: nil,
            currentFrameInterval: nil)
        guard authorization.status != .denied, authorization.status != .notDetermined,
            let driver = try? probe.open(path)
        else { return device }
        defer { driver.close() }
        DeviceInspector(driver: driver).describe(into: &device)
        return device
    }

    /// The udev links under `linkDirectory` (`by-id` and `by-path`) that resolve to the same node as
    /// `path`, sorted.
    static func stablePaths(of path: String, in linkDirectory: String) -> [String] {
        guard let target = FileSystem.canonicalPath(path) else { return [] }
        var links: [String] = []
        for kind in ["by-id", "by-path"] {
            let directory = "\(linkDirectory)/\(kind)"
            guard case .success(let names) = FileSystem.entries(of: directory) else { continue }
            for name in names.sorted() where FileSystem.canonicalPath("\(directory)/\(name)") == target {
                links.append("\(directory)/\(name)")
            }
        }
        return links
    }
}
