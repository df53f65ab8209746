// CPU time read from /proc, for the benches that report who used the machine's 2 cores.
import fs from 'node:fs';

/** utime + stime of a /proc/<pid>/stat line, plus its reaped children's when `children`, in seconds. */
function statSeconds(stat: string, children = false): number {
  const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return (Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0)) / 100; // clock ticks of 10 ms
}

/** CPU seconds (user + system) the process `pid` has used. */
export function cpuSeconds(pid: string | undefined): number | undefined {
  if (!pid) return undefined;
  return statSeconds(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** CPU seconds used so far by every PostgreSQL process on this machine (0 without PostgreSQL). */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // its own time and its ended children's (the postmaster's: backends that closed meanwhile)
      if (stat.includes(' (postgres) ')) total += statSeconds(stat, true);
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/** The machine's busy CPU seconds so far, every core. */
export function machineBusySeconds(): number {
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return (cpu.reduce((a, b) => a + b, 0) - cpu[3]! - cpu[4]!) / 100; // less idle and iowait
}

export const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : Number.NaN);
