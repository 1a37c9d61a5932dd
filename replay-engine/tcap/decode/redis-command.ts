// redis@1 keys: each command's words as `LEN:BYTES` joined by spaces and ended by `\n`
// (`3:GET 6:cart:7\n`); a pipeline holds several commands. Words are bytes and may hold spaces.
import type { DecodedValue } from '../../model/recording';
import { bytesValue, child, malformed, printableText } from './bytes-text';

/** The commands as lists of words, or a reason the key is not in that layout. */
export function parseRedisCommands(key: Uint8Array): Uint8Array[][] | string {
  const commands: Uint8Array[][] = [];
  let words: Uint8Array[] = [];
  let pos = 0;
  while (pos < key.length) {
    let len = 0;
    const start = pos;
    while (pos < key.length && key[pos] >= 0x30 && key[pos] <= 0x39 && pos - start < 10) len = len * 10 + (key[pos++] - 0x30);
    if (pos === start || key[pos] !== 0x3a) return `byte ${pos}: expected LEN:`;
    pos++;
    if (len > key.length - pos) return `byte ${start}: word length ${len} is more than the bytes that remain`;
    words.push(key.subarray(pos, pos + len));
    pos += len;
    if (key[pos] === 0x20) pos++;
    else if (key[pos] === 0x0a) {
      pos++;
      commands.push(words);
      words = [];
    } else return `byte ${pos}: expected a space or a newline after a word`;
  }
  if (words.length) return 'the last command is not ended by a newline';
  return commands;
}

export function wordText(w: Uint8Array): string {
  const t = printableText(w);
  if (t !== undefined && !/[\s"]/.test(t) && t !== '') return t;
  return t !== undefined ? JSON.stringify(t) : `0x${Buffer.from(w).toString('hex')}`;
}

export function redisKeyValue(key: Uint8Array): DecodedValue {
  const parsed = parseRedisCommands(key);
  if (typeof parsed === 'string') return malformed(parsed, key);
  const commands = parsed.map((words) => ({
    text: words.map(wordText).join(' '),
    type: 'redis-command',
    children: words.map((w, i) => child(`[${i}]`, bytesValue(w))),
  }));
  if (commands.length === 1) return commands[0];
  return {
    text: commands.map((c) => c.text).join('; '),
    type: 'redis-pipeline',
    children: commands.map((c, i) => child(`command ${i + 1}`, c)),
  };
}
