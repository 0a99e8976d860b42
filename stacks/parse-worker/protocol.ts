import type { DocumentFormat } from '../document.js';

/** One document to parse off the main thread. */
export interface ParseRequest {
  id: number;
  text: string;
  format: DocumentFormat;
  path: string;
}

/** The parsed value and the positions of every path up to POSITION_DEPTH, or the 400 message. */
export type ParseReply =
  | { id: number; ok: true; value: unknown; positions: Map<string, [number, number]> }
  | { id: number; ok: false; message: string; invalid: boolean };

/** services[i].health_check.url is 4 segments: deep enough for every field a message names. */
export const POSITION_DEPTH = 4;

export function pathKey(path: (string | number)[]): string {
  return path.join('\u0000');
}
