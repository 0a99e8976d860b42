import type { Command } from 'commander';
import { AddressError } from '../client/address.js';
import { ApiClient } from '../client/http.js';
import { credentialsFile, savedToken } from './credentials.js';

/** What every command needs: the API client built from global options, and output mode. */
export interface CliContext {
  client(): ApiClient;
  json(): boolean;
  print(text: string): void;
}

export function createContext(program: Command, env: NodeJS.ProcessEnv = process.env): CliContext {
  let client: ApiClient | null = null;
  return {
    client() {
      if (client) return client;
      const o = program.opts<{ url?: string; token?: string }>();
      // An empty variable (`SVC_URL= svc list`) is as if unset, as shells and most tools read it.
      const url = o.url ?? (env.SVC_URL || 'http://127.0.0.1:9002');
      // --token, then SVC_TOKEN, then what `svc login` saved for this daemon (an empty one is unset).
      const given = givenToken(o.token, env);
      const file = credentialsFile(env);
      const saved = given === undefined ? savedToken(url, file) : undefined;
      // A saved credential svcd refuses (its secret changed, the token was revoked) is named as
      // the saved one: the user typed none.
      const credentialHint = saved === undefined ? undefined : `the credential svc login saved for ${url} in ${file}: run svc login again, or use --token or SVC_TOKEN`;
      try {
        client = new ApiClient({ url, token: given ?? saved, credentialHint });
      } catch (err) {
        // The address is named as the user gave it: the option, or the variable.
        if (err instanceof AddressError && o.url === undefined) throw new AddressError(err.message.replace(/^--url: /, 'SVC_URL: '));
        throw err;
      }
      return client;
    },
    json: () => Boolean(program.opts<{ json?: boolean }>().json),
    print: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  };
}

/** The credential of `--token` or else SVC_TOKEN; empty ones count as not given (`export SVC_TOKEN=`). */
export function givenToken(option: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return option || env.SVC_TOKEN || undefined;
}
