import { readFileSync } from 'node:fs';

/** The PEM bundle of `[ota] ca_file`, read at start-up (a typo should not surface at the first update). */
export function readCaFile(file: string): string | null {
  if (!file) return null;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`ota.ca_file: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`ota.ca_file: ${file} holds no PEM certificate`);
  return text;
}
