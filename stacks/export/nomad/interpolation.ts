/**
 * Nomad interpolates twice after the job file is parsed. The client evaluates a task's driver
 * `config` (command, args) as HCL2 templates, where `$${` and `%%{` are a literal `${` and `%{`:
 * escaped here, so the program gets its arguments exactly. `env` values and check commands go
 * through its `${name}` replacement instead (helper/args ReplaceEnv): a name of the task's
 * environment (raw_exec: the client's too) or a node attribute is replaced, any other left as
 * written, and there is no escape: those are reported.
 */
const RUNTIME_REFERENCE = /\$\{[A-Za-z0-9_.-]+\}/g;

/** A string of the task's driver config that the client's HCL2 evaluation gives back unchanged. */
export function literalConfigString(text: string): string {
  return text.replace(/\$\{/g, () => '$${').replace(/%\{/g, () => '%%{');
}

/** The `${name}` references Nomad may replace at run time, in the order found, once each. */
export function runtimeReferences(values: string[]): string[] {
  return [...new Set(values.flatMap((v) => v.match(RUNTIME_REFERENCE) ?? []))];
}

/** The report message for values with such references. */
export function runtimeReferenceMessage(refs: string[]): string {
  return `Nomad replaces ${refs.join(', ')} at run time with the value of a variable of the task's environment (raw_exec: also the client's) or a node attribute of that name, when there is one; it has no escape for this`;
}
