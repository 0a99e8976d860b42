/** Whether the user wants colour: not when NO_COLOR is set and not empty (no-color.org), or FORCE_COLOR=0. */
export function coloursWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return !env.NO_COLOR && env.FORCE_COLOR !== '0';
}
