import { createContext, Script } from 'node:vm';
import { basename, dirname } from 'node:path';
import { types } from 'node:util';
import { invalid } from '../../../state/errors.js';

/** How long an ecosystem file may run before it is stopped (a loop, a very slow computation). */
export const EVALUATE_TIMEOUT_MS = 2000;

/** A value the file exported that JSON cannot carry (a function, a symbol, undefined), by path. */
export interface DroppedValue {
  path: (string | number)[];
  type: string;
}

/**
 * Evaluates a PM2 ecosystem file (`module.exports = {...}`) without giving it anything of ours:
 * a fresh V8 context whose global has a null prototype (so no object of this process is reachable),
 * string code generation (eval, Function) and WebAssembly turned off, only `module`, `exports`,
 * `process.env` (a copy), `__filename` and `__dirname` defined, no `require`, no timers, and a
 * time limit. The exports come back through JSON, so nothing of the file's realm leaks out;
 * values JSON cannot carry are listed in `dropped` for the report.
 */
export function evaluateEcosystem(code: string, file: string, label: string, env: Record<string, string | undefined>): { value: unknown; dropped: DroppedValue[] } {
  const context = createContext(Object.create(null) as object, { codeGeneration: { strings: false, wasm: false }, microtaskMode: 'afterEvaluate' });
  const envCopy = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  const prelude = `globalThis.module = { exports: {} }; globalThis.exports = module.exports; globalThis.process = { env: ${JSON.stringify(envCopy)} };
globalThis.__filename = ${JSON.stringify(file)}; globalThis.__dirname = ${JSON.stringify(dirname(file))};`;
  new Script(prelude).runInContext(context);
  let script: Script;
  try {
    script = new Script(code, { filename: label });
  } catch (err) {
    throw invalid(describeSyntaxError(err, label));
  }
  try {
    script.runInContext(context, { timeout: EVALUATE_TIMEOUT_MS, breakOnSigint: true });
  } catch (err) {
    throw invalid(describeRuntimeError(err, label));
  }
  const collect = `(() => { const dropped = []; const walk = (v, path) => {
    if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint' || v === undefined) { dropped.push({ path, type: typeof v }); return undefined; }
    if (Array.isArray(v)) return v.map((x, i) => { const r = walk(x, [...path, i]); return r === undefined ? null : r; });
    if (v && typeof v === 'object') { const o = {}; for (const k of Object.keys(v)) { const r = walk(v[k], [...path, k]); if (r !== undefined) o[k] = r; } return o; }
    return v; };
    return JSON.stringify({ value: walk(module.exports, []), dropped }); })()`;
  const out = new Script(collect).runInContext(context, { timeout: EVALUATE_TIMEOUT_MS }) as string;
  return JSON.parse(out) as { value: unknown; dropped: DroppedValue[] };
}

/** `file:line:col: SyntaxError: ...` from V8's stack (`file:line`, the source line, a caret). */
function describeSyntaxError(err: unknown, label: string): string {
  const e = err as Error; // thrown by the compiler in our realm, before any of the file ran
  const lines = (e.stack ?? '').split('\n');
  const at = new RegExp(`^${escape(label)}:(\\d+)$`).exec(lines[0] ?? '');
  const caret = lines[2]?.indexOf('^') ?? -1;
  const where = at ? `${label}:${at[1]}${caret >= 0 ? `:${caret + 1}` : ''}` : label;
  return `${where}: ${e.name ?? 'Error'}: ${e.message}${/export|import/.test(e.message) || /Cannot use import/.test(e.message) ? ' (ES module syntax is not supported: use module.exports)' : ''}`;
}

/**
 * What the file threw, read without running any of its code again: only plain string data
 * properties (a getter, a Proxy or a toString of the file's realm would run outside the time limit).
 */
function describeRuntimeError(err: unknown, label: string): string {
  const message = dataString(err, 'message') ?? 'the file threw a value that is not an Error';
  if (/timed out/.test(message) && dataString(err, 'code') === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
    return `${label}: evaluation stopped after ${EVALUATE_TIMEOUT_MS} ms (does the file loop?)`;
  }
  const frame = new RegExp(`${escape(label)}:(\\d+):(\\d+)`).exec(dataString(err, 'stack') ?? '');
  const where = frame ? `${label}:${frame[1]}:${frame[2]}` : label;
  const hint = /require is not defined/.test(message)
    ? ` (svc import evaluates ${basename(label)} without require(); only module, exports, process.env, __dirname and __filename exist)`
    : '';
  return `${where}: ${dataString(err, 'name') ?? 'Error'}: ${message}${hint}`;
}

function dataString(value: unknown, key: string): string | undefined {
  let o: unknown = value;
  for (let depth = 0; depth < 8 && o !== null && typeof o === 'object' && !types.isProxy(o); depth++) {
    const d = Object.getOwnPropertyDescriptor(o, key);
    if (d) return 'value' in d && typeof d.value === 'string' ? d.value : undefined;
    o = Object.getPrototypeOf(o);
  }
  return undefined;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
