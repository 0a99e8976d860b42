import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from '../../../helpers/daemon.js';
import type { ImportPorts } from '../../../../stacks/import/types.js';

/** Where the tests pretend a fixture folder lives, so absolute paths in goldens are stable. */
export const virtualDir = (format: string) => `/srv/${format}`;

/** The environment the importers see in tests (what supervisord/PM2/process-compose would expand). */
export const TEST_ENV = { HOME: '/home/app', DB_URL: 'postgres://db.internal/shop' };

/** Ports that read test/fixtures/import/<format>/ as if it were /srv/<format>/. */
export function fixturePorts(format: string, env: Record<string, string> = TEST_ENV): ImportPorts {
  const real = (path: string) => {
    const prefix = `${virtualDir(format)}/`;
    if (path !== virtualDir(format) && !path.startsWith(prefix)) throw Object.assign(new Error(`outside the fixture: ${path}`), { code: 'ENOENT' });
    return join(FIXTURES, 'import', format, path.slice(prefix.length - 1));
  };
  return {
    readText: (path) => readFileSync(real(path), 'utf8'),
    listDir: (path) => readdirSync(real(path)),
    exists: (path) => {
      try {
        return existsSync(real(path));
      } catch {
        return false;
      }
    },
    env,
    hostname: 'web1',
  };
}

/** In-memory files (absolute path -> text) as import ports. */
export function memoryPorts(files: Record<string, string>, env: Record<string, string> = TEST_ENV): ImportPorts {
  return {
    readText: (path) => {
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
      return text;
    },
    listDir: (path) => [...new Set(Object.keys(files).filter((f) => f.startsWith(`${path}/`)).map((f) => f.slice(path.length + 1).split('/')[0] ?? ''))],
    exists: (path) => path in files || Object.keys(files).some((f) => f.startsWith(`${path}/`)),
    env,
    hostname: 'web1',
  };
}
