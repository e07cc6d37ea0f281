import Foundation

/// Why a ``LiveViewServer`` cannot start.
public enum ServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `--listen`'s value is not an address and port.
    case badAddress(String, String)
    /// The socket could not be opened or bound (the port is taken, the address is not this
    /// machine's): the errno text.
    case cannotListen(ServerAddress, String)
    /// HTTPS cannot start with these credentials: which, and why.
    case tlsRefused(String)

    /// What went wrong, for a person.
    public var description: String {
        switch self {
        case .badAddress(let text, let why): "'\(text)' is not an address to listen on: \(why)"
        case .cannotListen(let address, let why): "cannot listen on \(address): \(why)"
        case .tlsRefused(let why): "cannot serve HTTPS with \(why)"
        }
    }
}
