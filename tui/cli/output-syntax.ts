import { formatFromName, type DocumentFormat } from '../../stacks/document.js';
import { CliError } from './errors.js';

/**
 * The syntax a stack is written in (svc export, svc import): `--as`, else the `--output` file's
 * extension, else `fallback`. An output file named otherwise (`stack.txt`) needs `--as`: the
 * watched stacks directory reads only .toml, .json, .yaml and .yml, and a stack written under
 * another name would be skipped there without a word.
 */
export function outputSyntax(as: DocumentFormat | undefined, output: string | undefined, fallback: DocumentFormat): DocumentFormat {
  if (as) return as;
  if (output === undefined) return fallback;
  const named = formatFromName(output);
  if (named) return named;
  throw new CliError(`--output ${output}: name the file .toml, .json, .yaml or .yml (the watched stacks directory reads only those), or give --as toml, json or yaml`, 2);
}
