import type { ProgramConfig } from '../../state/program.js';

/** The formats `svc import` reads; each service it writes gets `source = "import:<format>"`. */
export const IMPORT_FORMATS = ['pm2', 'supervisord', 'process-compose', 'procfile'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/**
 * One finding about a source field: `unmapped` when svc has no equivalent (the value is not
 * imported), `approximated` when it is imported with a difference the user should know about.
 * Nothing is dropped without one of these.
 */
export interface ReportEntry {
  /** The source file, as named on the command line; a file next to it or included by it, by a path joined to that name's folder (absolute when outside it). */
  file: string;
  /** 1-based line of the field in that file. */
  line: number;
  /** The svc program(s) the finding concerns, or null for a file-level setting. */
  program: string | null;
  /** The field as the source format names it (`watch`, `stopsignal`, `shutdown.command`). */
  field: string;
  kind: 'unmapped' | 'approximated';
  message: string;
}

/** What an importer returns: validated-shape program configs (with `source`) and the report. */
export interface ImportResult {
  format: ImportFormat;
  services: ProgramConfig[];
  report: ReportEntry[];
}

/**
 * What an importer may touch outside its arguments, injected so the mapping stays pure and is
 * tested with in-memory files: reading files, listing folders (supervisord includes), and the
 * environment that the source tool would expand (`%(ENV_X)s`, `process.env` in PM2 files).
 */
export interface ImportPorts {
  readText: (path: string) => string;
  /** Names of the entries of a folder; throws when it does not exist. */
  listDir: (path: string) => string[];
  exists: (path: string) => boolean;
  env: Record<string, string | undefined>;
  /** supervisord's `%(host_node_name)s`. */
  hostname: string;
}

/** Options of `svc import` that change the mapping. */
export interface ImportOptions {
  /** PM2: the `env_<name>` block to merge over `env`, as `pm2 start --env <name>` does. */
  pm2Env?: string;
  /** Procfile: the dotenv file (default `.env` next to the Procfile, when it exists). */
  envFile?: string;
}
