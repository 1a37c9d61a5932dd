// redis@1 keys: each command's words as `LEN:BYTES` joined by spaces and ended by `\n`
// (`3:GET 6:cart:7\n`); a pipeline holds several commands. Words are bytes and may hold spaces.
// One pass checks the layout and notes where each word starts and ends (typed arrays, no object
// per word); commands and words become values only when shown (long-list.ts).
import type { DecodedValue } from '../../model/recording';
import { bytesValue, child, malformed, printableText } from './bytes-text';
import { joinedText, longList } from './long-list';

/** Word w is key[wordAt[w] .. wordEnd[w]); command c is words commandWord[c] .. commandWord[c+1]-1. */
interface RedisIndex {
  wordAt: Uint32Array;
  wordEnd: Uint32Array;
  commandWord: Uint32Array;
  commands: number;
}

/** The layout of the commands, or a reason the key is not in that layout. */
export function indexRedisCommands(key: Uint8Array): RedisIndex | string {
  // A word takes at least 3 bytes (`0:` and a separator): arrays sized by that bound.
  const maxWords = Math.ceil(key.length / 3) + 1;
  const wordAt = new Uint32Array(maxWords);
  const wordEnd = new Uint32Array(maxWords);
  const commandWord = new Uint32Array(maxWords + 1);
  let words = 0;
  let commands = 0;
  let inCommand = false;
  let pos = 0;
  while (pos < key.length) {
    let len = 0;
    const start = pos;
    while (pos < key.length && key[pos] >= 0x30 && key[pos] <= 0x39 && pos - start < 10) len = len * 10 + (key[pos++] - 0x30);
    if (pos === start || key[pos] !== 0x3a) return `byte ${pos}: expected LEN:`;
    pos++;
    if (len > key.length - pos) return `byte ${start}: word length ${len} is more than the bytes that remain`;
    if (!inCommand) {
      commandWord[commands] = words;
      inCommand = true;
    }
    wordAt[words] = pos;
    wordEnd[words++] = pos + len;
    pos += len;
    if (key[pos] === 0x20) pos++;
    else if (key[pos] === 0x0a) {
      pos++;
      commands++;
      inCommand = false;
    } else return `byte ${pos}: expected a space or a newline after a word`;
  }
  if (inCommand) return 'the last command is not ended by a newline';
  commandWord[commands] = words;
  return { wordAt, wordEnd, commandWord, commands };
}

/** The commands as lists of words (for tests and small keys), or the reason the layout is wrong. */
export function parseRedisCommands(key: Uint8Array): Uint8Array[][] | string {
  const ix = indexRedisCommands(key);
  if (typeof ix === 'string') return ix;
  const out: Uint8Array[][] = [];
  for (let c = 0; c < ix.commands; c++) {
    const words: Uint8Array[] = [];
    for (let w = ix.commandWord[c]; w < ix.commandWord[c + 1]; w++) words.push(key.subarray(ix.wordAt[w], ix.wordEnd[w]));
    out.push(words);
  }
  return out;
}

export function wordText(w: Uint8Array): string {
  const t = printableText(w);
  if (t !== undefined && !/[\s"]/.test(t) && t !== '') return t;
  return t !== undefined ? JSON.stringify(t) : `0x${Buffer.from(w).toString('hex')}`;
}

function commandValue(key: Uint8Array, ix: RedisIndex, c: number): DecodedValue {
  const first = ix.commandWord[c];
  const count = ix.commandWord[c + 1] - first;
  const word = (i: number) => key.subarray(ix.wordAt[first + i], ix.wordEnd[first + i]);
  return {
    text: joinedText(count, (i) => wordText(word(i)), ' ', 'words'),
    type: 'redis-command',
    ...longList(count, (i) => child(`[${i}]`, bytesValue(word(i)))),
  };
}

export function redisKeyValue(key: Uint8Array): DecodedValue {
  const ix = indexRedisCommands(key);
  if (typeof ix === 'string') return malformed(ix, key);
  if (ix.commands === 1) return commandValue(key, ix, 0);
  return {
    text: joinedText(ix.commands, (c) => commandValue(key, ix, c).text, '; ', 'commands'),
    type: 'redis-pipeline',
    ...longList(ix.commands, (c) => child(`command ${c + 1}`, commandValue(key, ix, c))),
  };
}
