import { closeSync, openSync, readSync } from 'node:fs';

/** ELF e_machine of each architecture Node runs on (process.arch), and how to name it. */
const MACHINES: Record<number, { arch: string; name: string }> = {
  3: { arch: 'ia32', name: 'x86 (32-bit)' },
  8: { arch: 'mips', name: 'MIPS' },
  21: { arch: 'ppc64', name: 'PowerPC 64' },
  22: { arch: 's390x', name: 'IBM S/390' },
  40: { arch: 'arm', name: 'ARM (32-bit)' },
  62: { arch: 'x64', name: 'x86-64' },
  183: { arch: 'arm64', name: 'AArch64 (arm64)' },
  243: { arch: 'riscv64', name: 'RISC-V' },
  258: { arch: 'loong64', name: 'LoongArch' },
};

/**
 * Why an ELF library cannot be loaded on this machine, when its header says it was built for
 * another architecture; null when it was not (or it is not ELF). The dynamic loader reports
 * such a file as "cannot open shared object file: No such file or directory", which sends
 * the reader looking for a file that is there.
 */
export function foreignArchitecture(file: string, arch: string = process.arch): string | null {
  const header = Buffer.alloc(20);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    if (readSync(fd, header, 0, header.length, 0) < header.length) return null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
  if (header.readUInt32BE(0) !== 0x7f454c46) return null; // \x7fELF
  const machine = header[5] === 2 ? header.readUInt16BE(18) : header.readUInt16LE(18);
  const ours = Object.entries(MACHINES).find(([, m]) => m.arch === arch);
  if (ours === undefined || Number(ours[0]) === machine) return null; // this machine, or one this table cannot judge
  return `it is built for ${MACHINES[machine]?.name ?? `ELF machine ${machine}`}, but this svcd runs on ${arch}; build it on this machine (npm run build) and reinstall it (svc plugins install)`;
}
