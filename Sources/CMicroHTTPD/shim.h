// GNU libmicrohttpd (Debian's libmicrohttpd-dev), the HTTP server of `arcapture serve`. Only
// GeoAR's Serve/ files use it; no C type reaches a public signature. MHD_start_daemon takes its
// options as C varargs, which Swift cannot call: arcapture_mhd_start passes the ones we set.
#ifndef ARCAPTURE_CMICROHTTPD_H
#define ARCAPTURE_CMICROHTTPD_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/// Starts a daemon with its own polling thread (poll(2)), suspend/resume allowed, listening on
/// `address` (an IPv4 or IPv6 socket address, port 0 for any free port). `connection_limit`
/// bounds connections, `per_address_limit` those from one client address (0: no bound),
/// `timeout_seconds` closes idle ones, `memory_limit` bounds what one
/// connection may use for its request (line, headers and buffered body): beyond it MHD answers
/// 413 or 431 and closes. With `tls_certificate` and `tls_key` (PEM text, both or neither) it
/// speaks HTTPS only, through GnuTLS. Returns NULL when the daemon cannot start (errno says why,
/// when the system refused; a certificate GnuTLS refuses leaves errno as it was).
static inline struct MHD_Daemon *arcapture_mhd_start(
    const struct sockaddr *address, MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context, unsigned int connection_limit,
    unsigned int per_address_limit, unsigned int timeout_seconds, size_t memory_limit, const char *tls_certificate, const char *tls_key) {
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_ALLOW_SUSPEND_RESUME;
    if (address->sa_family == AF_INET6) flags |= MHD_USE_IPv6;
    if (tls_certificate != NULL && tls_key != NULL) {
        return MHD_start_daemon(
            flags | MHD_USE_TLS, 0, NULL, NULL, handler, handler_context,
            MHD_OPTION_SOCK_ADDR, address,
            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
            MHD_OPTION_HTTPS_MEM_CERT, tls_certificate,
            MHD_OPTION_HTTPS_MEM_KEY, tls_key,
            MHD_OPTION_END);
    }
    return MHD_start_daemon(
        flags, 0, NULL, NULL, handler, handler_context,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_END);
}

/// Whether this libmicrohttpd was built with TLS (GnuTLS).
static inline int arcapture_mhd_has_tls(void) {
    return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}

/// The port the daemon listens on (the one the system chose when asked for port 0).
static inline uint16_t arcapture_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// Connections open now.
static inline unsigned int arcapture_mhd_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

/// The client's socket address (a union member in C, which Swift reads awkwardly).
static inline const struct sockaddr *arcapture_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

// Enumerators of libmicrohttpd's fixed enums, whose Swift spellings depend on how the importer
// strips prefixes: named once here.
static const enum MHD_Result arcapture_mhd_yes = MHD_YES;
static const enum MHD_Result arcapture_mhd_no = MHD_NO;
static const enum MHD_ValueKind arcapture_mhd_query_argument = MHD_GET_ARGUMENT_KIND;
static const enum MHD_ValueKind arcapture_mhd_header = MHD_HEADER_KIND;
static const enum MHD_ResponseMemoryMode arcapture_mhd_copy = MHD_RESPMEM_MUST_COPY;
static const uint64_t arcapture_mhd_size_unknown = MHD_SIZE_UNKNOWN;
static const ssize_t arcapture_mhd_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t arcapture_mhd_end_with_error = MHD_CONTENT_READER_END_WITH_ERROR;

#endif
