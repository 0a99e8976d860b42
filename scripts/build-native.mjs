// Compiles the project's C sources with the system C compiler (part of `npm run build`).
//
// Every folder under plugins/ or native/ that holds a `native.json` is one target:
//   { "kind": "shared" | "program", "name": "security", "sources": ["security.c"], "libs": [] }
// A `shared` target becomes dist/plugins/<name>.so (a plugin loaded with koffi); a `program`
// becomes dist/native/<name>. Warnings are errors. With SVC_NATIVE_ASAN=1 (or --asan) a second
// copy is built with AddressSanitizer and UBSan into dist/native-asan/ for the test suite.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const ROOTS = ['plugins', 'native'];
const CC = process.env.CC ?? 'cc';
const BASE_FLAGS = ['-std=c11', '-D_GNU_SOURCE', '-O2', '-g', '-Wall', '-Wextra', '-Werror', '-Wshadow', '-Wformat=2'];
const ASAN_FLAGS = ['-O1', '-g', '-fno-omit-frame-pointer', '-fsanitize=address,undefined', '-fno-sanitize-recover=all'];

function targets() {
  const found = [];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name === 'node_modules' || !statSync(path).isDirectory()) continue;
      const manifest = join(path, 'native.json');
      if (existsSync(manifest)) found.push({ dir: path, ...JSON.parse(readFileSync(manifest, 'utf8')) });
      walk(path);
    }
  };
  for (const root of ROOTS) walk(root);
  return found;
}

function outputOf(target, asan) {
  const base = asan ? join('dist', 'native-asan') : target.kind === 'shared' ? join('dist', 'plugins') : join('dist', 'native');
  return join(base, target.kind === 'shared' ? `${target.name}.so` : target.name);
}

function compile(target, asan) {
  const out = outputOf(target, asan);
  mkdirSync(join(out, '..'), { recursive: true });
  const sources = target.sources.map((s) => join(target.dir, s));
  const flags = [...BASE_FLAGS, ...(asan ? ASAN_FLAGS : []), ...(target.kind === 'shared' ? ['-shared', '-fPIC', '-fvisibility=hidden'] : [])];
  const args = [...flags, '-o', out, ...sources, ...(target.libs ?? []).map((l) => `-l${l}`)];
  const run = spawnSync(CC, args, { stdio: 'inherit' });
  if (run.error?.code === 'ENOENT') {
    console.error(`build-native: no C compiler (${CC}); run scripts/install-system-deps.sh`);
    process.exit(1);
  }
  if (run.status !== 0) {
    console.error(`build-native: ${relative('.', target.dir)}: ${CC} failed`);
    process.exit(1);
  }
}

const asan = process.argv.includes('--asan') || process.env.SVC_NATIVE_ASAN === '1';
for (const target of targets()) {
  if (!['shared', 'program'].includes(target.kind)) {
    console.error(`build-native: ${target.dir}/native.json: kind must be "shared" or "program"`);
    process.exit(1);
  }
  compile(target, false);
  if (asan) compile(target, true);
}
