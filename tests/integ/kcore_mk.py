#!/usr/bin/env python3
# kcore_mk.py CORE KALLSYMS: a small /proc/kcore stand-in for t_kcore: an
# ELF64 core file with a PT_NOTE and two PT_LOAD segments of 256 bytes, back
# to back at 0xffffffff81000000, a third of 16 bytes that ends at the top of
# the address space (u64 0x0123456789abcdef, u64 0xfedcba9876543210 at
# 0xfffffffffffffff0), and its kallsyms:
#   linux_banner  +0    "Linux version 9.9.9-test (pp@kcore) #1 SMP\n\0", then bytes 0..255
#   jiffies_64    +256  u64 0x1122334455667788, then u32 0xdeadbeef, then "tail\0"
#   tail_str      +268  "tail"
import struct
import sys

core, ksy = sys.argv[1], sys.argv[2]
base = 0xffffffff81000000
banner = b"Linux version 9.9.9-test (pp@kcore) #1 SMP\n\0"
seg1 = (banner + bytes(range(256)))[:256]
seg2 = (struct.pack("<QI", 0x1122334455667788, 0xdeadbeef) + b"tail\0").ljust(256, b"\0")
phoff, nph = 64, 4
data = phoff + nph * 56
eh = b"\x7fELF" + bytes([2, 1, 1]) + bytes(9)
eh += struct.pack("<HHIQQQIHHHHHH", 4, 62, 1, 0, phoff, 0, 0, 64, 56, nph, 0, 0, 0)
ph = struct.pack("<IIQQQQQQ", 4, 0, 0, 0, 0, 0, 0, 0)
ph += struct.pack("<IIQQQQQQ", 1, 7, data, base, 0, 256, 256, 4096)
ph += struct.pack("<IIQQQQQQ", 1, 7, data + 256, base + 256, 0, 256, 256, 4096)
ph += struct.pack("<IIQQQQQQ", 1, 7, data + 512, 2**64 - 16, 0, 16, 16, 4096)
seg3 = struct.pack("<QQ", 0x0123456789abcdef, 0xfedcba9876543210)
with open(core, "wb") as f:
    f.write(eh + ph + seg1 + seg2 + seg3)
with open(ksy, "w") as f:
    f.write("%016x T _stext\n%016x D linux_banner\n%016x D jiffies_64\n%016x D tail_str\n"
            % (base, base, base + 256, base + 268))
