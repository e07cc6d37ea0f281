import Foundation

/// Where the package's files are, for tests that read `samples/`.
public enum PackagePaths {
    /// The package's root directory (this file is `Tests/TestSupport/PackagePaths.swift`).
    public static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// `samples/<relative>`.
    public static func sample(_ relative: String) -> String {
        root.appendingPathComponent("samples").appendingPathComponent(relative).path
    }

    /// A fresh, empty temporary directory.
    public static func temporaryDirectory(_ label: String = "arcapture-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
