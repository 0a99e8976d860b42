/** Which format a stack text is in, from its file name or, when pasted, from its first lines. */
export type StackFormat = 'json' | 'toml' | 'yaml';

export const CONTENT_TYPES: Record<StackFormat, string> = {
  json: 'application/json',
  toml: 'application/toml',
  yaml: 'application/yaml',
};

export function formatOfFile(name: string): StackFormat | null {
  const ext = /\.([a-z]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (ext === 'json') return 'json';
  if (ext === 'toml') return 'toml';
  if (ext === 'yaml' || ext === 'yml') return 'yaml';
  return null;
}

/** A guess for pasted text: `{` starts JSON; `[[services]]`, `[x]` or `key = ` lines are TOML; else YAML. */
export function guessFormat(text: string): StackFormat {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const first = lines[0] ?? '';
  if (first.startsWith('{')) return 'json';
  if (lines.some((l) => /^\[\[?[A-Za-z0-9_.-]+\]\]?$/.test(l) || /^[A-Za-z0-9_-]+\s*=/.test(l))) return 'toml';
  return 'yaml';
}

/** The source label an apply uses: `stack:<file>` for an uploaded file, `stack:dashboard` otherwise. */
export function defaultSource(fileName: string | null): string {
  return fileName ? `stack:${fileName}` : 'stack:dashboard';
}
