// What a process costs, read from Linux /proc: CPU time (utime + stime, in clock ticks) and the
// resident-set high-water mark (VmHWM). Reading /proc needs no cooperation from the measured
// process, so Switchboard runs exactly as `npm start` runs it.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let clkTck = 100;
try {
  clkTck = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
} catch {
  /* 100 is the Linux default */
}

/** Microseconds per clock tick of /proc/<pid>/stat. */
export const TICK_US = 1e6 / clkTck;

function statFields(pid: number): string[] | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces; fields after it are split after its ')'.
    return s.slice(s.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU time of one process, microseconds (user + system). */
export function cpuUs(pid: number): number {
  const f = statFields(pid);
  if (!f) return 0;
  // After the ')': f[0] = state (field 3), so utime (field 14) is f[11] and stime (15) is f[12].
  return (Number(f[11]) + Number(f[12])) * TICK_US;
}

/** CPU time of a process and its direct children (PostgreSQL: postmaster plus its backends). */
export function treeCpuUs(rootPid: number): number {
  let total = cpuUs(rootPid);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(Number(name));
    if (f && Number(f[1]) === rootPid) total += (Number(f[11]) + Number(f[12])) * TICK_US;
  }
  return total;
}

function statusKb(pid: number, field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Peak resident set since the process started, MB. */
export const peakRssMb = (pid: number): number => statusKb(pid, 'VmHWM') / 1024;
/** Current resident set, MB. */
export const rssMb = (pid: number): number => statusKb(pid, 'VmRSS') / 1024;
