// mysql@1 / postgres@1 keys: `Q ` (query) or `E ` (exec), then each query part and argument, each
// followed by `\n`. Parts and arguments alternate (the text between placeholders, then the value);
// an argument is `I` decimal, `F` float, `S` string, `B` true/false, `X` hex, or `H` secret handle.
// One pass notes where each item starts (a typed array); parts and arguments become values only
// when shown (long-list.ts), and the inline statement is built from the first ones.
import type { DecodedValue } from '../../model/recording';
import { child, looseText, malformed, plain, quote } from './bytes-text';
import { LIST_TEXT_LIMIT, longList } from './long-list';

const ARG_TYPES: Record<string, string> = { I: 'integer', F: 'float', S: 'string', B: 'bool', X: 'bytes', H: 'secret' };

export interface SqlArgument {
  type: string;
  text: string;
}

/** Item i (part i/2 when i is even, argument (i-1)/2 when odd) is key[itemAt[i] .. itemAt[i+1]-1). */
interface SqlIndex {
  verb: 'query' | 'exec';
  itemAt: Uint32Array;
  items: number;
  parts: number;
  args: number;
}

function indexSql(key: Uint8Array): SqlIndex | string {
  const verb = key[0] === 0x51 && key[1] === 0x20 ? 'query' : key[0] === 0x45 && key[1] === 0x20 ? 'exec' : undefined;
  if (!verb) return 'does not start with `Q ` or `E `';
  if (key.length > 2 && key[key.length - 1] !== 0x0a) return 'the last part is not followed by a newline';
  let items = 0;
  for (let i = 2; i < key.length; i++) if (key[i] === 0x0a) items++;
  const itemAt = new Uint32Array(items + 1);
  let n = 0;
  itemAt[0] = 2;
  for (let i = 2; i < key.length; i++) if (key[i] === 0x0a) itemAt[++n] = i + 1;
  return { verb, itemAt, items, parts: Math.ceil(items / 2), args: Math.floor(items / 2) };
}

function itemText(key: Uint8Array, ix: SqlIndex, i: number): string {
  return looseText(key.subarray(ix.itemAt[i], ix.itemAt[i + 1] - 1));
}

function argument(key: Uint8Array, ix: SqlIndex, a: number): SqlArgument {
  const item = itemText(key, ix, 2 * a + 1);
  return { type: ARG_TYPES[item[0]] ?? `unknown (${item[0] ?? 'empty'})`, text: item.slice(1) };
}

/** Verb, parts and arguments as arrays (for tests and small keys), or the reason the layout is wrong. */
export function parseSql(key: Uint8Array): { verb: 'query' | 'exec'; parts: string[]; args: SqlArgument[] } | string {
  const ix = indexSql(key);
  if (typeof ix === 'string') return ix;
  return {
    verb: ix.verb,
    parts: Array.from({ length: ix.parts }, (_, p) => itemText(key, ix, 2 * p)),
    args: Array.from({ length: ix.args }, (_, a) => argument(key, ix, a)),
  };
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

/** The statement with its arguments shown in place (`select … where order_id = 9`), from its first items. */
function sqlInline(key: Uint8Array, ix: SqlIndex): string {
  let out = '';
  for (let i = 0; i < ix.items; i++) {
    out += i % 2 === 0 ? itemText(key, ix, i) : argValue(argument(key, ix, (i - 1) / 2)).text.replace(/ \(secret handle\)$/, '');
    if (out.length > LIST_TEXT_LIMIT && i + 1 < ix.items) return `${out.slice(0, LIST_TEXT_LIMIT)}…`;
  }
  return out;
}

export function sqlKeyValue(key: Uint8Array): DecodedValue {
  const ix = indexSql(key);
  if (typeof ix === 'string') return malformed(ix, key);
  const counted = ix.args > 0 ? ` (${ix.args.toLocaleString('en')} arguments)` : '';
  const inline = sqlInline(key, ix);
  return {
    text: `${ix.verb} ${quote(inline, inline.endsWith('…') ? inline.length : undefined)}${inline.endsWith('…') ? counted : ''}`,
    type: 'sql',
    children: [
      child('verb', { text: ix.verb, type: 'text' }),
      child('parts', { text: `${ix.parts} parts`, type: 'list', ...longList(ix.parts, (p) => child(`[${p}]`, { text: quote(itemText(key, ix, 2 * p)), type: 'text' })) }),
      child('arguments', {
        text: `${ix.args} arguments`,
        type: 'list',
        ...longList(ix.args, (a) => {
          const arg = argument(key, ix, a);
          return child(`$${a + 1} ${arg.type}`, argValue(arg));
        }),
      }),
    ],
  };
}
