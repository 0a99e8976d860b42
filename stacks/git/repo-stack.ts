import { posix } from 'node:path';
import { invalid } from '../../state/errors.js';
import type { TextPosition } from '../../state/schema/json-body.js';
import type { ParsedDocument } from '../document.js';
import { isStackFileName } from '../file-names.js';
import { loadStackFile, type LoadedStack, type Preparsed, type RawService } from '../load.js';
import type { DocumentParser } from '../parse-worker/parser.js';
import { preparseStackFile } from '../preparse.js';

/** Where the repository's files are mounted for loadStackFile (never touches the disk). */
const MOUNT = '/__git__';

export interface RepoLayout {
  /** Folder inside the repository ("" = the top). */
  path: string;
  /** This host's overlay folder: `hosts/<host>/`. */
  host: string;
  /** `git:<name>`: every service gets it, so the source owns and prunes exactly its programs. */
  source: string;
}

/** Which files of the repository make the stack, and which are overlays (docs/gitops.md, Layout). */
export function repoFiles(files: Iterable<string>, layout: RepoLayout): { base: string[]; overlays: string[] } {
  const root = layout.path === '' ? '' : `${layout.path}/`;
  const all = [...files];
  const inside = (folder: string) =>
    all
      .filter((f) => f.startsWith(folder) && !f.slice(folder.length).includes('/') && isStackFileName(f.slice(folder.length)))
      .sort();
  const layered = all.some((f) => f.startsWith(`${root}base/`) || f.startsWith(`${root}hosts/`));
  if (!layered) return { base: inside(root), overlays: [] };
  return { base: inside(`${root}base/`), overlays: inside(`${root}hosts/${layout.host}/`) };
}

/**
 * The stack of one commit, pure: the base files, then this host's overlays, whose services
 * override fields of the base service with the same name or add new ones. Every position in a
 * message is the file's path in the repository (`base/web.toml:3:1: ...`). Includes resolve
 * inside the commit. Services of a git source always belong to it (`source = git:<name>`).
 */
export function loadRepoStack(files: ReadonlyMap<string, string>, layout: RepoLayout, preparsed?: ReadonlyMap<string, Preparsed>): LoadedStack {
  const { base, overlays } = repoFiles(files.keys(), layout);
  const read = readerOf(files);
  const load = (file: string) => loadStackFile(posix.join(MOUNT, file), read, file, preparsed?.get(file)).services;
  const services: RawService[] = base.flatMap(load);
  const byName = new Map<unknown, number>();
  services.forEach((s, i) => {
    const name = nameOf(s);
    if (name !== undefined && !byName.has(name)) byName.set(name, i);
  });
  // One overlay per name: a second one (in the same or another file of hosts/<host>/) would
  // otherwise fold silently into the first, so that which value wins depends on file order.
  const overlaid = new Map<unknown, string>();
  for (const over of overlays.flatMap(load)) {
    const name = nameOf(over);
    const first = overlaid.get(name);
    if (first !== undefined) throw invalid(`${nameAt(over)}: services[${over.index}] (name=${String(name)}): name: given twice in this host's overlays (first at ${first})`);
    if (name !== undefined) overlaid.set(name, nameAt(over));
    const at = name === undefined ? undefined : byName.get(name);
    const base = at === undefined ? undefined : services[at];
    if (at !== undefined && base && isObject(base.body) && isObject(over.body)) {
      services[at] = { ...over, body: { ...base.body, ...over.body }, doc: overlaidDocument(base, over, over.body) };
    } else {
      if (name !== undefined) byName.set(name, services.length);
      services.push(over);
    }
  }
  if (base.length === 0 && overlays.length === 0) {
    throw invalid(`${layout.path || '.'}: no stack files (.json, .toml, .yaml, .yml) in the repository${layout.path ? ' folder' : ''}`);
  }
  return {
    prune: true,
    services: services.map((s) => ({ ...s, includedFrom: null, body: isObject(s.body) ? { ...s.body, source: layout.source } : s.body })),
    includes: [],
  };
}

/**
 * The documents of a commit's stack files (and what they include), parsed ahead through the
 * parser's worker, so that a large file in a repository never blocks svcd's event loop while
 * `loadRepoStack` loads them (as for the watched directory, stacks/preparse.ts). One set per
 * stack file: a file another one includes is labelled relative to its includer there, and by its
 * own path as a stack file of its own, as `loadRepoStack` would parse it inline.
 */
export async function preparseRepoStack(files: ReadonlyMap<string, string>, layout: RepoLayout, parser: DocumentParser): Promise<ReadonlyMap<string, Preparsed>> {
  const { base, overlays } = repoFiles(files.keys(), layout);
  const read = readerOf(files);
  const out = new Map<string, Preparsed>();
  for (const file of [...base, ...overlays]) out.set(file, await preparseStackFile(posix.join(MOUNT, file), read, parser, file));
  return out;
}

/** Reads the commit's files as mounted under MOUNT; a file not in it is ENOENT. */
function readerOf(files: ReadonlyMap<string, string>): (abs: string) => string {
  return (abs) => {
    const text = files.get(posix.relative(MOUNT, abs));
    if (text === undefined) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    return text;
  };
}

/** A position already written as `file:line:col`, by the document it was found in. */
type PlacedPosition = TextPosition & { placed: string };

/**
 * The document of a base service with an overlay: a field the overlay sets is found in the
 * overlay file, any other in the base file it still comes from, so a problem in a base field is
 * reported where it can be fixed.
 */
function overlaidDocument(base: RawService, over: RawService, overBody: Record<string, unknown>): ParsedDocument {
  const find = (raw: RawService, rest: (string | number)[]): PlacedPosition | null => {
    const pos = raw.doc.locate(['services', raw.index, ...rest]);
    return pos && { ...pos, placed: raw.doc.formatPosition(pos) };
  };
  return {
    ...over.doc,
    locate: (path) => {
      const [top, index, field, ...rest] = path;
      if (top !== 'services' || index !== over.index || field === undefined) return over.doc.locate(path);
      return typeof field === 'string' && !Object.hasOwn(overBody, field) ? find(base, [field, ...rest]) : find(over, [field, ...rest]);
    },
    formatPosition: (pos) => (pos as Partial<PlacedPosition>).placed ?? over.doc.formatPosition(pos),
  };
}

/** `file:line:col` of a service's `name` (of the service when the name cannot be found). */
function nameAt(s: RawService): string {
  const pos = s.doc.locate(['services', s.index, 'name']) ?? s.doc.locate(['services', s.index]);
  return pos ? s.doc.formatPosition(pos) : (s.where ?? s.file ?? 'stack');
}

function nameOf(s: RawService): unknown {
  return isObject(s.body) ? s.body.name : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
