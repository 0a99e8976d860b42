import { Agent, request } from 'undici';

/** The smallest XML-RPC client that supervisord's unix-socket API needs: no-argument calls. */
export class XmlRpcClient {
  private readonly agent: Agent;

  constructor(socketPath: string) {
    this.agent = new Agent({ connect: { socketPath } });
  }

  async call(method: string): Promise<string> {
    const body = `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params></params></methodCall>`;
    const res = await request('http://localhost/RPC2', { method: 'POST', dispatcher: this.agent, headers: { 'content-type': 'text/xml' }, body });
    const text = await res.body.text();
    if (res.statusCode !== 200 || text.includes('<fault>')) throw new Error(`supervisord ${method}: ${res.statusCode} ${text.slice(0, 300)}`);
    return text;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** The structs of an XML-RPC array response, each as a map of member name to its text value. */
export function parseStructs(xml: string): Map<string, string>[] {
  return xml
    .split('<struct>')
    .slice(1)
    .map((chunk) => {
      const members = new Map<string, string>();
      for (const m of chunk.matchAll(/<member>\s*<name>([^<]+)<\/name>\s*<value>(?:<\w+>)?([^<]*)/g)) members.set(m[1], m[2]);
      return members;
    });
}
