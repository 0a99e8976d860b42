import type { CliModel, CommandModel, OptionModel, ValueKind } from './model.js';

export interface Completion {
  /** Words that fit (the shell filters them by the typed prefix). */
  candidates: string[];
  /** The shell should complete file names instead. */
  files: boolean;
}

/**
 * Completes the last word of `words` (the words after `svc`, the last one being typed, maybe
 * empty): a command name, a flag of the command (or a global one), an option's value, or the
 * positional argument at that place. `programs` lists program names (from the daemon).
 */
export async function complete(model: CliModel, words: string[], programs: () => Promise<string[]>): Promise<Completion> {
  const done = words.slice(0, -1);
  const current = words[words.length - 1] ?? '';
  const find = (options: OptionModel[], flag: string) => options.find((o) => o.flags.includes(flag.split('=')[0] ?? flag));
  let command: CommandModel | undefined;
  let positional = 0;
  let pendingValue: OptionModel | undefined;
  for (const word of done) {
    if (pendingValue) {
      pendingValue = undefined;
      continue;
    }
    if (word.startsWith('-')) {
      const option = find([...(command?.options ?? []), ...model.globalOptions], word);
      if (option?.takesValue && !word.includes('=')) pendingValue = option;
      continue;
    }
    if (!command) {
      command = model.commands.find((c) => c.names.includes(word));
      if (!command) return { candidates: [], files: false };
    } else positional++;
  }
  if (pendingValue) return valuesOf(pendingValue.value, programs);
  if (current.startsWith('-')) {
    const options = [...(command?.options ?? []), ...model.globalOptions];
    return { candidates: [...new Set(options.flatMap((o) => o.flags.filter((f) => f.startsWith('--'))))], files: false };
  }
  if (!command) return { candidates: model.commands.flatMap((c) => c.names), files: false };
  const args = command.args;
  const last = args[args.length - 1];
  const arg = args[positional] ?? (last?.variadic ? last : undefined);
  return arg ? valuesOf(arg.value, programs) : { candidates: [], files: false };
}

async function valuesOf(value: ValueKind, programs: () => Promise<string[]>): Promise<Completion> {
  switch (value.kind) {
    case 'choices':
      return { candidates: value.values, files: false };
    case 'files':
      return { candidates: [], files: true };
    case 'programs':
      return { candidates: await programs(), files: false };
    case 'none':
      return { candidates: [], files: false };
  }
}
