import { stringify as toToml } from 'smol-toml';
import { stringify as toYaml } from 'yaml';
import type { ProgramConfig } from '../state/program.js';
import type { DocumentFormat } from './document.js';

/** A stack as written by `svc export`: `prune` and the stored configs, in the chosen format. */
export function stringifyStack(stack: { prune: boolean; services: ProgramConfig[] }, format: DocumentFormat): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(stack, null, 2)}\n`;
    case 'toml':
      return toToml(stack);
    case 'yaml':
      return toYaml(stack);
  }
}
