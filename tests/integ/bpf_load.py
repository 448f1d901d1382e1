#!/usr/bin/env python3
# bpf_load.py NAME: load a two-instruction socket filter named NAME with the
# bpf(2) system call, print "id=ID tag=TAG" as the kernel gives them, and
# close it (unload).  The ground truth of t_misc's BPF records.
import ctypes
import struct
import sys

SYS_BPF = 321  # x86-64
BPF_PROG_LOAD, BPF_OBJ_GET_INFO_BY_FD = 5, 15
SOCKET_FILTER = 1

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def bpf(cmd, attr):
    buf = ctypes.create_string_buffer(attr, 128)
    r = libc.syscall(SYS_BPF, cmd, buf, 128)
    if r < 0:
        e = ctypes.get_errno()
        sys.exit("bpf(%d): errno %d" % (cmd, e))
    return r, buf


name = sys.argv[1].encode()[:15]
insns = ctypes.create_string_buffer(bytes.fromhex("b700000000000000" "9500000000000000"))
lic = ctypes.create_string_buffer(b"GPL")
attr = struct.pack("<IIQQIIQII16s", SOCKET_FILTER, 2, ctypes.addressof(insns),
                   ctypes.addressof(lic), 0, 0, 0, 0, 0, name)
fd, _ = bpf(BPF_PROG_LOAD, attr)
info = ctypes.create_string_buffer(16)
bpf(BPF_OBJ_GET_INFO_BY_FD, struct.pack("<IIQ", fd, 16, ctypes.addressof(info)))
_, pid, tag = struct.unpack("<II8s", info.raw)
print("id=%d tag=%s" % (pid, tag.hex()), flush=True)
libc.close(fd)
