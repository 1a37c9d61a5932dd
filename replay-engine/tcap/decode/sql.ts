// mysql@1 / postgres@1 keys: `Q ` (query) or `E ` (exec), then each query part and argument, each
// followed by `\n`. Parts and arguments alternate (the text between placeholders, then the value);
// an argument is `I` decimal, `F` float, `S` string, `B` true/false, `X` hex, or `H` secret handle.
import type { DecodedValue } from '../../model/recording';
import { child, looseText, malformed, plain, quote } from './bytes-text';

const ARG_TYPES: Record<string, string> = { I: 'integer', F: 'float', S: 'string', B: 'bool', X: 'bytes', H: 'secret' };

export interface SqlArgument {
  type: string;
  text: string;
}

export function parseSql(key: Uint8Array): { verb: 'query' | 'exec'; parts: string[]; args: SqlArgument[] } | string {
  const text = looseText(key);
  const verb = text.startsWith('Q ') ? 'query' : text.startsWith('E ') ? 'exec' : undefined;
  if (!verb) return 'does not start with `Q ` or `E `';
  const items = text.slice(2).split('\n');
  if (items[items.length - 1] !== '') return 'the last part is not followed by a newline';
  items.pop();
  const parts: string[] = [];
  const args: SqlArgument[] = [];
  items.forEach((item, i) => {
    if (i % 2 === 0) parts.push(item);
    else args.push({ type: ARG_TYPES[item[0]] ?? `unknown (${item[0] ?? 'empty'})`, text: item.slice(1) });
  });
  return { verb, parts, args };
}

function argValue(a: SqlArgument): DecodedValue {
  switch (a.type) {
    case 'string':
      return { text: quote(a.text), type: 'text' };
    case 'bytes':
      return { text: `0x${plain(a.text)}`, type: 'hex' };
    case 'secret':
      return { text: `${plain(a.text)} (secret handle)`, type: 'secret' };
    case 'bool':
      return { text: plain(a.text), type: 'bool' };
    case 'integer':
    case 'float':
      return { text: plain(a.text), type: 'number' };
    default:
      return { text: quote(a.text), type: 'malformed' };
  }
}

/** The statement with its arguments shown in place: `select … where order_id = 9`. */
export function sqlInline(p: { parts: string[]; args: SqlArgument[] }): string {
  let out = '';
  for (let i = 0; i < Math.max(p.parts.length, p.args.length); i++) {
    if (i < p.parts.length) out += p.parts[i];
    if (i < p.args.length) out += argValue(p.args[i]).text.replace(/ \(secret handle\)$/, '');
  }
  return out;
}

export function sqlKeyValue(key: Uint8Array): DecodedValue {
  const p = parseSql(key);
  if (typeof p === 'string') return malformed(p, key);
  return {
    text: `${p.verb} ${quote(sqlInline(p))}`,
    type: 'sql',
    children: [
      child('verb', { text: p.verb, type: 'text' }),
      child('parts', { text: `${p.parts.length} parts`, type: 'list', children: p.parts.map((s, i) => child(`[${i}]`, { text: quote(s), type: 'text' })) }),
      child('arguments', {
        text: `${p.args.length} arguments`,
        type: 'list',
        children: p.args.map((a, i) => child(`$${i + 1} ${a.type}`, argValue(a))),
      }),
    ],
  };
}
