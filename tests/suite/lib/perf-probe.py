#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Does Linux let this process count instructions? An independent probe for
tests/suite/74-perf-backend.sh and tests/suite/24-host-cli.sh: the
perf_event_open system call made from Python (ctypes), not through
baretop's code. Prints "ok", or "ERRNONAME: message" and exits 1.

The attribute is perf_event_open(2)'s struct perf_event_attr at
PERF_ATTR_SIZE_VER0 (64 bytes): type PERF_TYPE_HARDWARE (0), config
PERF_COUNT_HW_INSTRUCTIONS (1), flags disabled (bit 0), exclude_kernel
(bit 5), exclude_hv (bit 6); pid 0, cpu -1 (this thread, any CPU)."""
import ctypes, errno, os, platform, struct, sys

SYS_PERF_EVENT_OPEN = {'x86_64': 298, 'aarch64': 241}.get(platform.machine())
if SYS_PERF_EVENT_OPEN is None:
    print(f'ENOSYS: no perf_event_open number known for {platform.machine()}')
    sys.exit(1)
attr = struct.pack('<IIQQQQQ', 0, 64, 1, 0, 0, 0, (1 << 0) | (1 << 5) | (1 << 6)).ljust(64, b'\0')
buf = ctypes.create_string_buffer(attr, 64)
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
fd = libc.syscall(ctypes.c_long(SYS_PERF_EVENT_OPEN), buf, 0, -1, -1, ctypes.c_ulong(0))
if fd >= 0:
    os.close(fd)
    print('ok')
    sys.exit(0)
e = ctypes.get_errno()
print(f'{errno.errorcode.get(e, str(e))}: {os.strerror(e)}')
sys.exit(1)
