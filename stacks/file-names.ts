/**
 * Whether a file in the watched directory is a stack: `.json`, `.toml`, `.yaml`, `.yml`, and not
 * an editor's hidden, lock, swap or backup file (`.x.swp`, `.#x`, `#x#`, `x~`, vim's `4913`).
 */
export function isStackFileName(name: string): boolean {
  if (name.startsWith('.') || name.startsWith('#') || name.endsWith('~')) return false;
  return /\.(json|toml|ya?ml)$/i.test(name);
}
