"""The Linux calls a warm kernel's sandbox is built with, which ``os`` does not offer: namespaces,
mounts, mount attributes, capabilities, the loopback interface and the session keyring (glibc
through ctypes)."""
import ctypes
import errno
import fcntl
import os
import socket
import struct

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
CLONE_NEWCGROUP = 0x02000000

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 0x1, 0x2, 0x4, 0x8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 0x20, 0x1000, 0x4000, 0x40000
MNT_DETACH = 0x2

MOUNT_ATTR_RDONLY, MOUNT_ATTR_NOSUID, MOUNT_ATTR_NODEV = 0x1, 0x2, 0x4
AT_RECURSIVE, AT_SYMLINK_NOFOLLOW = 0x8000, 0x100
SYS_MOUNT_SETATTR = 442  # the same number on every architecture (asm-generic table)
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41}  # glibc has no wrapper

SYS_KEYCTL = {"x86_64": 250, "aarch64": 219, "riscv64": 219}  # glibc has no wrapper
KEYCTL_JOIN_SESSION_KEYRING = 1

PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 1, 4, 24, 38
CAPABILITY_VERSION_3 = 0x20080522

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


def _check(result: int, what: str) -> int:
    if result < 0:
        error = ctypes.get_errno()
        raise OSError(error, f"{what}: {os.strerror(error)}")
    return result


def unshare(flags: int) -> None:
    _check(_libc.unshare(flags), "unshare")


def mount(source: str | None, target: str, kind: str | None, flags: int = 0,
          options: str | None = None) -> None:
    encode = lambda text: text.encode() if text is not None else None
    _check(_libc.mount(encode(source), target.encode(), encode(kind), ctypes.c_ulong(flags),
                       encode(options)), f"mount {target}")


def umount(target: str, flags: int = MNT_DETACH) -> None:
    _check(_libc.umount2(target.encode(), flags), f"umount {target}")


def pivot_root_here() -> None:
    """Make the current directory (a mount) this mount namespace's root and detach the old
    root, so nothing outside it can be reached by any path (``pivot_root(".", ".")``)."""
    number = SYS_PIVOT_ROOT.get(os.uname().machine)
    if number is None:
        raise OSError(f"pivot_root: no system call number known for {os.uname().machine}")
    _check(_libc.syscall(number, b".", b"."), "pivot_root")
    umount(".")
    os.chdir("/")


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


def set_mount_attributes(path: str, set_: int = 0, clear: int = 0, recursive: bool = False) -> None:
    """mount_setattr(2): change flags of the mount at ``path`` (and, ``recursive``, below it)."""
    attr = _MountAttr(set_, clear, 0, 0)
    flags = AT_SYMLINK_NOFOLLOW | (AT_RECURSIVE if recursive else 0)
    _check(_libc.syscall(SYS_MOUNT_SETATTR, -100, path.encode(), flags, ctypes.byref(attr),
                         ctypes.sizeof(attr)), f"mount_setattr {path}")


def prctl(option: int, value: int) -> None:
    _check(_libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0), f"prctl {option}")


def die_with_parent() -> None:
    """Be killed when the parent dies (call after every change of credentials: they clear it)."""
    prctl(PR_SET_PDEATHSIG, 9)


def drop_capabilities() -> None:
    """No capability in any set, none that can come back, and no new privileges by exec."""
    last = int(open("/proc/sys/kernel/cap_last_cap").read())
    for cap in range(last + 1):
        prctl(PR_CAPBSET_DROP, cap)
    header = (ctypes.c_uint32 * 2)(CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()
    _check(_libc.capset(header, data), "capset")
    prctl(PR_SET_NO_NEW_PRIVS, 1)


def join_new_session_keyring() -> None:
    """Leave the inherited session keyring for a new, empty one of this process's own.

    Keys are granted by possession, not by uid, and a user namespace does not hide them: a
    grader started from an SSH login (pam_keyinit, Kerberos, ``keyctl add``) would otherwise
    hand its session's keys to every kernel and judge it starts (thread and process keyrings
    are not inherited across fork or exec; the session keyring is). A kernel built without
    keys (ENOSYS) has no keyring to hand on."""
    number = SYS_KEYCTL.get(os.uname().machine)
    if number is None:
        raise OSError(f"keyctl: no system call number known for {os.uname().machine}")
    if _libc.syscall(number, ctypes.c_long(KEYCTL_JOIN_SESSION_KEYRING), None) < 0:
        error = ctypes.get_errno()
        if error != errno.ENOSYS:
            raise OSError(error, f"keyctl(JOIN_SESSION_KEYRING): {os.strerror(error)}")


def map_to_nobody(uid: int, gid: int, inside: int = 65534) -> None:
    """In a user namespace just made by this process (which is ``uid``/``gid`` outside), be
    ``inside`` there. (Its /proc files are its own again only once it is dumpable: a change of
    uid made it not.)"""
    prctl(PR_SET_DUMPABLE, 1)
    with open("/proc/self/setgroups", "w") as handle:
        handle.write("deny")
    with open("/proc/self/uid_map", "w") as handle:
        handle.write(f"{inside} {uid} 1")
    with open("/proc/self/gid_map", "w") as handle:
        handle.write(f"{inside} {gid} 1")


def loopback_up() -> None:
    """Bring up ``lo`` in this (new) network namespace, as bwrap does."""
    SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(sock, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))
