/**
 * CPU time from Linux's /proc stat files: a process's (`/proc/<pid>/stat`) or one of its threads'
 * (`/proc/<pid>/task/<tid>/stat`). After the command name, in parentheses (it may hold spaces and parentheses), come
 * the fields this reads by index: 11 and 12 are user and system time, 13 and 14 those of the children the process
 * has waited for, all in clock ticks (100 a second on Linux).
 */
import { readFileSync } from 'node:fs';

/** The command (or thread) name, and the CPU time in ms of the tick fields [from, to). */
export function statCpu(statFile: string, from: number, to: number): { name: string; ms: number } {
  const stat = readFileSync(statFile, 'latin1');
  const nameEnd = stat.lastIndexOf(')');
  const fields = stat.slice(nameEnd + 2).split(' ');
  return {
    name: stat.slice(stat.indexOf('(') + 1, nameEnd),
    ms: fields.slice(from, to).reduce((sum, ticks) => sum + Number(ticks), 0) * 10,
  };
}

/** The user and system CPU time of a process or thread in ms. */
export const ownCpu = (statFile: string): { name: string; ms: number } => statCpu(statFile, 11, 13);
