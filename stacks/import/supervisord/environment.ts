/**
 * supervisord's `environment = KEY="value",KEY2=value2` (datatypes.dict_of_key_value_pairs): a
 * non-POSIX shlex with word characters `[A-Za-z0-9_/.+\-():]`, quotes kept in the token and then
 * stripped, `#` starting a comment, and triples `KEY = VALUE` separated by one token (the comma).
 * Anything else (an unquoted `@` or `$` in a value) is an error, as it is for supervisord.
 */
export function parseEnvironment(text: string): Record<string, string> {
  const tokens = tokenize(text);
  const out: Record<string, string> = {};
  for (let i = 0; i < tokens.length; i += 4) {
    const [key, eq, value] = tokens.slice(i, i + 3);
    if (key === undefined || eq !== '=' || value === undefined) {
      throw new Error(`unexpected end of key/value pairs in value '${text}' (quote values that contain other characters than letters, digits and _/.+-():)`);
    }
    out[key] = value.replace(/^['"]+|['"]+$/g, '');
  }
  return out;
}

const WORD = /[A-Za-z0-9_/.+\-():]/;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '#') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (ch === '"' || ch === "'") {
      const end = text.indexOf(ch, i + 1);
      if (end < 0) throw new Error(`no closing quotation in '${text}'`);
      tokens.push(text.slice(i, end + 1));
      i = end + 1;
    } else if (WORD.test(ch)) {
      let j = i;
      while (j < text.length && WORD.test(text[j])) j++;
      tokens.push(text.slice(i, j));
      i = j;
    } else {
      tokens.push(ch);
      i++;
    }
  }
  return tokens;
}
