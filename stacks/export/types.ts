/** One generated file (a unit, a job specification, a stack). */
export interface ExportedFile {
  name: string;
  content: string;
}

/**
 * Something of a program that the target cannot express (`unexpressible`: left out), or
 * expresses with a difference (`approximated`). Printed by `svc export`, listed in docs/migrate.md.
 */
export interface ExportFinding {
  program: string;
  field: string;
  kind: 'unexpressible' | 'approximated';
  message: string;
}

export interface ExportResult {
  files: ExportedFile[];
  report: ExportFinding[];
}

/**
 * What an exporter needs to know about the daemon's machine: svc resolves a relative `cwd`,
 * `env_file` and command from `$SVC_ROOT` and relative log paths from `log_dir`, and looks
 * commands up in PATH; targets need absolute paths.
 */
export interface ExportContext {
  root: string;
  logDir: string;
  /** The absolute path of a command name found in PATH, or null. */
  resolveExecutable(name: string): string | null;
  /** The text of a file on this machine (an env_file, to check how the target reads it), or null when it cannot be read. */
  readText?(path: string): string | null;
}

/** `program: field: not expressible: why`, one line per finding. */
export function formatExportFinding(f: ExportFinding): string {
  return `${f.program}: ${f.field}: ${f.kind === 'unexpressible' ? 'not expressible' : 'approximated'}: ${f.message}`;
}
