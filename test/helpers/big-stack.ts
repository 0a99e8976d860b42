/** A YAML stack of `count` services, about 160 bytes each (5 000 services is about 800 KB). */
export function bigYamlStack(count: number): string {
  const lines = ['prune: false', 'services:'];
  for (let i = 0; i < count; i++) {
    lines.push(`  - name: svc-${i}`, '    command: /bin/sleep', '    args: ["1000"]', '    autostart: false', '    env:', '      A: "1"', '      B: "two"', '    startsecs: 1');
  }
  return `${lines.join('\n')}\n`;
}
