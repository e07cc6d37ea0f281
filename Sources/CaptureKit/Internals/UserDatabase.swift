import Glibc

/// Reads users and groups through the C library (so NSS sources such as LDAP count, not only
/// /etc/passwd), for permission messages that name people and groups instead of numbers.
enum UserDatabase {
    /// The login name of `uid`, or nil when the database has no such user.
    static func userName(_ uid: uid_t) -> String? {
        withRecordBuffer { buffer, size in
            var record = passwd()
            var result: UnsafeMutablePointer<passwd>?
            guard getpwuid_r(uid, &record, buffer, size, &result) == 0, result != nil else { return nil }
            return String(cString: record.pw_name)
        }
    }

    /// The primary group of `uid`.
    static func primaryGroup(of uid: uid_t) -> gid_t? {
        withRecordBuffer { buffer, size in
            var record = passwd()
            var result: UnsafeMutablePointer<passwd>?
            guard getpwuid_r(uid, &record, buffer, size, &result) == 0, result != nil else { return nil }
            return record.pw_gid
        }
    }

    /// The name of group `gid`, or nil when the database has no such group.
    static func groupName(_ gid: gid_t) -> String? {
        group(gid)?.name
    }

    /// The users listed as members of group `gid` (its `/etc/group` line), not counting users whose
    /// primary group it is.
    static func groupMembers(_ gid: gid_t) -> [String] {
        group(gid)?.members ?? []
    }

    /// The groups the calling process holds now: its effective group and supplementary groups.
    ///
    /// This is what the kernel checks. It can differ from the group database: a user added to a
    /// group keeps the old list until they log in again.
    static func processGroups() -> Set<gid_t> {
        var groups: Set<gid_t> = [getegid()]
        let count = getgroups(0, nil)
        guard count > 0 else { return groups }
        var list = [gid_t](repeating: 0, count: Int(count))
        let filled = getgroups(count, &list)
        if filled > 0 { groups.formUnion(list.prefix(Int(filled))) }
        return groups
    }

    private static func group(_ gid: gid_t) -> (name: String, members: [String])? {
        withRecordBuffer { buffer, size in
            var record = Glibc.group()
            var result: UnsafeMutablePointer<Glibc.group>?
            guard getgrgid_r(gid, &record, buffer, size, &result) == 0, result != nil else { return nil }
            var members: [String] = []
            if var member = record.gr_mem {
                while let name = member.pointee {
                    members.append(String(cString: name))
                    member += 1
                }
            }
            return (String(cString: record.gr_name), members)
        }
    }

    /// Runs a `get*_r` lookup with a scratch buffer large enough for big groups.
    private static func withRecordBuffer<T>(_ body: (UnsafeMutablePointer<CChar>, Int) -> T?) -> T? {
        let size = 64 * 1024
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
        defer { buffer.deallocate() }
        return body(buffer, size)
    }
}
