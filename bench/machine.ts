import { cpus, release, totalmem } from 'node:os';
import { availableParallelism } from 'node:os';
import { runCommand } from './exec.js';

/** Where and with what the figures were taken, for the head of RESULTS.md. */
export async function describeMachine(versions: Record<string, string>): Promise<string> {
  const commit = (await runCommand('git', ['rev-parse', '--short', 'HEAD'])).stdout.trim() || 'unknown';
  return [
    `- date: ${new Date().toISOString()}`,
    `- machine: ${availableParallelism()} cores (nproc), ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, Linux ${release()}`,
    `- versions: node ${process.version}, ${Object.entries(versions).map(([k, v]) => `${k} ${v}`).join(', ')}, svc commit ${commit}`,
  ].join('\n');
}
