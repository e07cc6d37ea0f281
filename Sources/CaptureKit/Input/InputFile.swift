import Foundation

/// Reads an input file's bytes with the errors users need: missing (66) apart from unreadable.
package enum InputFile {
    /// The file's contents.
    ///
    /// - Throws: ``InputFileError/missing(file:)`` or ``InputFileError/unreadable(file:reason:)``.
    package static func read(_ path: String) throws(InputFileError) -> Data {
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(file: path) }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(file: path, reason: (error as NSError).localizedDescription)
        }
    }
}
