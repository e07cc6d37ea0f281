import Foundation
import TestSupport
import Testing

@testable import GeoAR

/// The package's shape, held to docs/architecture.md: each module depends only on the modules
/// below it that its concern needs (in Package.swift and in every `import` of its sources), each C
/// library family sits behind one module, and the compositor links no V4L2, JPEG or FFmpeg.
@Suite("The module graph")
struct ModuleGraphTests {
    /// What each library module may depend on: the modules below it that it needs, and its own C
    /// targets. Anything else in Package.swift or in an `import` fails.
    static let allowed: [String: Set<String>] = [
        "ArcaptureCore": [],
        "Positioning": ["ArcaptureCore", "CZlib", "CDJIMetadata"],
        "JPEGKit": ["ArcaptureCore", "CTurboJPEG", "CLibJPEG"],
        "Footage": ["ArcaptureCore", "Positioning", "JPEGKit", "CFFmpeg", "CHeif"],
        "CaptureKit": ["ArcaptureCore", "Positioning", "CV4L2"],
        "ARCompositor": ["ArcaptureCore", "Positioning", "CYAML", "CText", "CRasterKernels"],
        "GeoAR": [
            "ArcaptureCore", "Positioning", "JPEGKit", "Footage", "CaptureKit", "ARCompositor", "CFileSystem",
            "CRasterKernels",
        ],
        "LiveViewHTTP": ["ArcaptureCore", "JPEGKit", "CaptureKit", "ARCompositor", "GeoAR", "CMicroHTTPD"],
        "ArcaptureCLI": [
            "ArcaptureCore", "Positioning", "JPEGKit", "Footage", "CaptureKit", "ARCompositor", "GeoAR", "LiveViewHTTP",
        ],
    ]
    /// The toolchain's own modules, which any module may import.
    static let system: Set<String> = ["Foundation", "FoundationXML", "Glibc", "Dispatch", "Synchronization"]

    /// Package.swift's targets and their dependencies, as SwiftPM reads them.
    static func targets() async throws -> [String: Set<String>] {
        let scratch = try PackagePaths.temporaryDirectory("dump-package")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A scratch path of its own: the suite's `swift test` holds the package's .build.
        let dumped = try await ProcessRunner.run(
            tool: "swift",
            ["package", "--package-path", PackagePaths.root.path, "--scratch-path", scratch.path, "dump-package"],
            install: "the Swift toolchain")
        try #require(dumped.status == 0, "\(dumped.stderr)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(dumped.stdout.utf8)) as? [String: Any])
        var result: [String: Set<String>] = [:]
        for target in document["targets"] as? [[String: Any]] ?? [] {
            guard let name = target["name"] as? String else { continue }
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                (dependency.values.first as? [Any])?.first as? String
            }
            result[name] = Set(dependencies)
        }
        return result
    }

    /// The modules a source file imports (`import X`, `@testable import X`, `internal import X`).
    static func imports(of file: URL) throws -> Set<String> {
        let text = try String(contentsOf: file, encoding: .utf8)
        var found: Set<String> = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
            if let index = words.firstIndex(of: "import"), index + 1 < words.count,
                index == 0 || ["internal", "public", "package", "private", "fileprivate"].contains(words[0])
            {
                found.insert(String(words[index + 1]))
            }
        }
        return found
    }

    @Test("each library module depends, in Package.swift, only on what its concern needs")
    func packageDependencies() async throws {
        let targets = try await Self.targets()
        for (module, allowed) in Self.allowed.sorted(by: { $0.key < $1.key }) {
            let declared = try #require(targets[module], "\(module) is not a target of Package.swift")
            #expect(
                declared.isSubset(of: allowed), "\(module) depends on \(declared.subtracting(allowed).sorted())")
        }
        // The compositor draws: it links no camera, codec or container library, directly or not.
        var reached: Set<String> = []
        var pending = ["ARCompositor"]
        while let next = pending.popLast() {
            for dependency in targets[next] ?? [] where reached.insert(dependency).inserted {
                pending.append(dependency)
            }
        }
        let forbidden: Set = ["CaptureKit", "JPEGKit", "Footage", "CV4L2", "CTurboJPEG", "CLibJPEG", "CFFmpeg"]
        #expect(reached.isDisjoint(with: forbidden), "ARCompositor reaches \(reached.intersection(forbidden).sorted())")
        // Each C library family sits behind one module.
        for family in ["CV4L2", "CTurboJPEG", "CLibJPEG", "CFFmpeg", "CMicroHTTPD", "CText", "CYAML", "CHeif"] {
            let users = Self.allowed.keys.filter { targets[$0]?.contains(family) == true }
            #expect(users.count == 1, "\(family) is behind \(users.sorted())")
        }
    }

    @Test("no source file imports a module its own module may not depend on")
    func sourceImports() throws {
        for (module, allowed) in Self.allowed.sorted(by: { $0.key < $1.key }) {
            let folder = PackagePaths.root.appendingPathComponent("Sources/\(module)")
            let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            #expect(!files.isEmpty, "\(module) has no sources")
            for file in files {
                let stray = try Self.imports(of: file).subtracting(allowed).subtracting(Self.system)
                #expect(stray.isEmpty, "\(module)/\(file.lastPathComponent) imports \(stray.sorted())")
            }
        }
    }
}
