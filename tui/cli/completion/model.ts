import type { Argument, Command, Option } from 'commander';

/** What can fill a positional argument or an option value. */
export type ValueKind = { kind: 'none' } | { kind: 'files' } | { kind: 'programs' } | { kind: 'choices'; values: string[] };

export interface OptionModel {
  flags: string[];
  takesValue: boolean;
  value: ValueKind;
}

export interface CommandModel {
  /** Name and aliases. */
  names: string[];
  options: OptionModel[];
  args: { value: ValueKind; variadic: boolean }[];
}

export interface CliModel {
  globalOptions: OptionModel[];
  commands: CommandModel[];
}

/** The signals `svc signal` takes (spec: batch Signal payload). */
const SIGNALS = ['hup', 'int', 'term', 'kill', 'quit', 'usr1', 'usr2'];

/**
 * The completion model of the CLI, read from commander's own definitions, so a new command or
 * flag completes without touching this: arguments named `program(s)`/`names` complete program
 * names, `file(s)` and `command` complete paths, `signal` the signal names, choices their values.
 */
export function cliModel(program: Command): CliModel {
  const commands = program.commands
    .filter((c) => !(c as unknown as { _hidden?: boolean })._hidden)
    .map((c) => ({
      names: [c.name(), ...c.aliases()],
      options: [...c.options.map(optionModel), { flags: ['--help', '-h'], takesValue: false, value: { kind: 'none' as const } }],
      args: c.registeredArguments.map((a) => ({ value: argumentKind(a), variadic: a.variadic })),
    }));
  return { globalOptions: [...program.options.map(optionModel), { flags: ['--help', '-h'], takesValue: false, value: { kind: 'none' } }], commands };
}

function optionModel(o: Option): OptionModel {
  const flags = [o.long, o.short].filter((f): f is string => typeof f === 'string');
  const takesValue = o.required || o.optional;
  let value: ValueKind = { kind: 'none' };
  if (o.argChoices) value = { kind: 'choices', values: [...o.argChoices] };
  else if (takesValue && /file|output|dir|root/.test(o.long ?? '')) value = { kind: 'files' };
  return { flags, takesValue, value };
}

function argumentKind(a: Argument): ValueKind {
  const name = a.name();
  if (a.argChoices) return { kind: 'choices', values: [...a.argChoices] };
  if (/^program|^names$/.test(name)) return { kind: 'programs' };
  if (name === 'signal') return { kind: 'choices', values: SIGNALS };
  if (/file|^command$/.test(name)) return { kind: 'files' };
  return { kind: 'none' };
}
