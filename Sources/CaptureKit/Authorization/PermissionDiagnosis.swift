import ArcaptureCore
import Glibc

/// Why opening a device node was refused, and what fixes it.
///
/// Built from the node's owner, group and mode, the calling user, the groups the process holds now
/// and the groups the user database lists. The fix it gives is always group membership, a fresh
/// login or a udev rule: never `chmod 666` (which any reboot or replug undoes, and which opens the
/// camera to every user) and never running as root.
public struct PermissionDiagnosis: Hashable, Sendable {
    /// The node that was refused.
    public var path: String
    /// `EACCES` (the mode refuses this user) or `EPERM` (a security policy refuses everyone).
    public var errno: Errno
    /// The node's owner.
    public var ownerID: UInt32
    /// The owner's name, when the user database has it.
    public var ownerName: String?
    /// The node's group.
    public var groupID: UInt32
    /// The group's name, when the group database has it.
    public var groupName: String?
    /// The permission bits (`st_mode & 0o7777`).
    public var mode: UInt32
    /// The calling user.
    public var userID: UInt32
    /// The calling user's name.
    public var userName: String?
    /// Whether the process holds the node's group now (what the kernel checks).
    public var processHasGroup: Bool
    /// Whether the group database lists the user in the node's group (or as its primary group).
    public var userListedInGroup: Bool

    /// Creates a diagnosis from its parts.
    public init(
        path: String, errno: Errno, ownerID: UInt32, ownerName: String?, groupID: UInt32, groupName: String?,
        mode: UInt32,
        userID: UInt32, userName: String?, processHasGroup: Bool, userListedInGroup: Bool
    ) {
        self.path = path
        self.errno = errno
        self.ownerID = ownerID
        self.ownerName = ownerName
        self.groupID = groupID
        self.groupName = groupName
        self.mode = mode
        self.userID = userID
        self.userName = userName
        self.processHasGroup = processHasGroup
        self.userListedInGroup = userListedInGroup
    }

    /// Diagnoses a refused open of `info`'s node for the calling process.
    static func diagnose(path: String, errno: Errno, node info: stat) -> PermissionDiagnosis {
        let uid = getuid()
        let groups = UserDatabase.processGroups()
        let userName = UserDatabase.userName(uid)
        let members = UserDatabase.groupMembers(info.st_gid)
        let listed =
            (userName.map(members.contains) ?? false) || UserDatabase.primaryGroup(of: uid) == info.st_gid
        return PermissionDiagnosis(
            path: path, errno: errno, ownerID: info.st_uid, ownerName: UserDatabase.userName(info.st_uid),
            groupID: info.st_gid, groupName: UserDatabase.groupName(info.st_gid), mode: info.st_mode & 0o7777,
            userID: uid, userName: userName, processHasGroup: groups.contains(info.st_gid),
            userListedInGroup: listed)
    }

    /// The node as `ls -l` shows it: `crw-rw---- root:video`.
    public var nodeDescription: String {
        "c\(FileSystem.permissionString(mode)) \(owner):\(group)"
    }

    /// What is wrong, in one clause: `user 'alice' is not in group 'video'`.
    public var summary: String {
        switch situation {
        case .securityPolicy:
            return "the kernel refused access (\(errno.name)) although the mode allows it: a security policy blocks it"
        case .notInGroup:
            return "user \(user) is not in group '\(group)'"
        case .loginPredatesGroup:
            return "user \(user) was added to group '\(group)' after this login session started"
        case .noGroupAccess:
            return "only \(owner) may open it: no udev rule gave it to a group"
        }
    }

    /// How to fix it, in one or two sentences.
    public var fix: String {
        let rule = "SUBSYSTEM==\"video4linux\", GROUP=\"video\", MODE=\"0660\""
        switch situation {
        case .securityPolicy:
            return "allow the device for this process: in a container pass it through "
                + "(docker run --device \(path)) and allow it in the device cgroup; "
                + "check AppArmor or SELinux denials in the kernel log"
        case .notInGroup:
            return "add the user to the group with 'sudo usermod -aG \(group) \(userName ?? "$USER")', "
                + "then log out and log in again"
        case .loginPredatesGroup:
            return "log out and log in again (or run 'newgrp \(group)' in this shell) so the new group applies"
        case .noGroupAccess:
            return "add a udev rule such as '\(rule)' to /etc/udev/rules.d/70-camera.rules, "
                + "run 'sudo udevadm control --reload && sudo udevadm trigger', "
                + "and add the user to group 'video' ('sudo usermod -aG video \(userName ?? "$USER")', then log in again)"
        }
    }

    private enum Situation { case securityPolicy, notInGroup, loginPredatesGroup, noGroupAccess }

    private var situation: Situation {
        let groupGrantsReadWrite = mode & 0o060 == 0o060 && groupID != 0
        if errno == .notPermitted { return .securityPolicy }
        if !groupGrantsReadWrite { return .noGroupAccess }
        if processHasGroup { return .securityPolicy }
        return userListedInGroup ? .loginPredatesGroup : .notInGroup
    }

    private var owner: String { ownerName ?? "\(ownerID)" }
    private var group: String { groupName ?? "\(groupID)" }
    private var user: String { userName.map { "'\($0)'" } ?? "\(userID)" }
}
