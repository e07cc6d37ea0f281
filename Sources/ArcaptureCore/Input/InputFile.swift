import Foundation

/// Reads an input file's bytes with the errors users need: missing (66) apart from unreadable, and
/// why in a user's words.
package enum InputFile {
    /// The file's contents.
    ///
    /// - Throws: ``InputFileError/missing(file:)`` or ``InputFileError/unreadable(file:reason:)``.
    package static func read(_ path: String, options: Data.ReadingOptions = []) throws(InputFileError) -> Data {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw .missing(file: path) }
        if isFolder.boolValue { throw .unreadable(file: path, reason: "it is a folder, not a file") }
        // An empty file is read here: Foundation's reader leaks a page for one (found by fuzzing
        // under LeakSanitizer).
        if (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == 0,
            access(path, R_OK) == 0
        {
            return Data()
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: options)
        } catch {
            throw .unreadable(file: path, reason: reason(for: error, path: path))
        }
    }

    /// Why reading `path` failed: Foundation on Linux words most failures as "The operation could
    /// not be completed. (NSCocoaErrorDomain error 256.)", so the system's own reason is asked
    /// for (the POSIX error underneath, or `access(2)`'s).
    package static func reason(for error: any Error, path: String) -> String {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if access(path, R_OK) != 0 { return String(cString: strerror(errno)) }
        return error.code == NSFileReadCorruptFileError ? "the data is not readable" : "the system gave no reason"
    }
}
