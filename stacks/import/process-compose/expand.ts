/**
 * process-compose expands `$VAR` and `${VAR}` in its file from its environment (and a `.env`
 * next to it) when it loads the file, unless `disable_env_expansion` is set; `$$` is a `$`.
 * svc import does the same for values svc stores literally (paths, env values, probe URLs), and
 * leaves commands alone: they run through the shell, which expands them when the program starts.
 */
export function expandVariables(value: string, env: Record<string, string | undefined>): { value: string; used: string[] } {
  const used: string[] = [];
  const out = value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced: string | undefined, bare: string | undefined) => {
    if (whole === '$$') return '$';
    const name = (braced ?? bare) as string;
    used.push(name);
    return env[name] ?? '';
  });
  return { value: out, used };
}

/** Go template references to `vars` (`{{.NAME}}`, `{{ .NAME }}`), which process-compose renders. */
export function renderVars(value: string, vars: Record<string, unknown>): { value: string; unknown: string[] } {
  const unknown: string[] = [];
  const out = value.replace(/\{\{-?\s*\.([A-Za-z_][A-Za-z0-9_]*)\s*-?\}\}/g, (whole, name: string) => {
    if (!(name in vars)) {
      unknown.push(name);
      return whole;
    }
    return String(vars[name]);
  });
  return { value: out, unknown };
}
