// The body scan run once on a small made-up body while a large capsule's file is still being
// read (this thread only waits then), so that the optimizing compiler has the scan ready when the
// real body comes. Without it a one-shot process (the CLI) ran about half of a 300,000-record
// scan unoptimized while the compiler worked: parseBody took 37 to 45 ms of such a capsule, and
// 22 to 27 ms after this warm-up (which costs 6 to 8 ms of the read's idle time).
import { parseBody } from './body';
import { RESUME_KIND } from './format';

/** Records of the made-up body: enough for the compiler to call the scan hot. */
const RECORDS = 3000;
let warmed = false;

/** Runs the warm-up once per process (later calls do nothing); never throws. */
export function warmUpScan(): void {
  if (warmed) return;
  warmed = true;
  try {
    parseBody(madeUpBody(), 'scan warm-up', 0);
  } catch {
    // a warm-up only: the real scan says what is wrong with a real body
  }
}

/** Schema 2, empty texts, then clock reads and task switches among 3 tasks (a valid body: the warm-up must run the scan, not its error path). */
export function madeUpBody(): Uint8Array {
  const kinds = [RESUME_KIND, 'tide.now@1'].map((k) => Buffer.from(k, 'latin1'));
  const recordLength = (k: Buffer) => 8 + 8 + k.length + 8 + 8 + 8 + 8 + 8;
  const size = 11 * 8 + RECORDS * Math.max(...kinds.map(recordLength));
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  let p = 0;
  const word = (v: number) => {
    view.setUint32(p, v, true); // the high half stays 0
    p += 8;
  };
  word(2); // schema
  word(0); // tin
  word(0); // program
  word(0); // wall
  word(0); // core
  word(500); // status
  word(0); // flags
  word(0); // request
  word(0); // panic
  word(0); // peer
  word(RECORDS);
  for (let i = 0; i < RECORDS; i++) {
    const k = kinds[i % 4 === 0 ? 0 : 1];
    word(i);
    word(k.length);
    bytes.set(k, p);
    p += k.length;
    word(0); // key
    word(0); // outcome
    word(0); // ident
    word(8);
    word(i % 4 === 0 ? (i >> 2) % 3 : i);
  }
  return bytes.subarray(0, p);
}
