// Drives scan-kernel.wat, the `.mflrr` reader's hot path in WebAssembly: plain `S` and `I` lines of
// ids it was taught, about three times faster than the same loop was in JavaScript (10M-op bench
// trace: about 140 ms against 400-500 ms; no bounds check per byte, 8-byte loads for the id). TraceScanner calls run() between the lines it reads itself, and
// teaches the kernel every id it interns, so the kernel never decides whether an id is valid.
//
// One instance per trace being read (its memory holds that trace's id table and counts). The reader
// reads the file into two slots in the kernel's memory (slots()), which the kernel scans in place;
// the records it reads are copied out into the TimelineBuilder's arrays after each call.
import type { TimelineBuilder } from '../model/timeline';
import { HEX_VALUE } from './hex';
import { WASM_BASE64 } from './scan-kernel.wasm';

interface KernelExports {
  memory: WebAssembly.Memory;
  /** p and end are addresses in `memory`; returns the address where it stopped. */
  scan(p: number, end: number, recBase: number, payBase: number, sKind: number, iKind: number, wide: number): number;
  teach(len: number, thread: number): number;
  [layout: string]: unknown;
}

let compiled: WebAssembly.Module | null | undefined;

function kernelModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(Buffer.from(WASM_BASE64, 'base64'));
    } catch {
      compiled = null; // no WebAssembly here: the reader reads every line itself
    }
  }
  return compiled;
}

export class ScanKernel {
  /** Lines (= records) and `I` records the last run() read. */
  lines = 0;
  ioRecords = 0;

  private readonly mem: Uint8Array;
  private readonly state: Int32Array;
  private readonly kind: Uint8Array;
  private readonly thread: Uint16Array;
  private readonly narrowThread: Uint8Array;
  private readonly pend: Uint32Array;
  private readonly prec: Uint32Array;
  private readonly pay: Uint8Array;
  private readonly ops: Uint32Array;
  private readonly ios: Uint32Array;
  private readonly idAt: number;
  private readonly inAt: number;
  private readonly readAt: number;
  private readonly readSize: number;
  private readonly window: number;
  private readonly maxThread: number;
  /** The bytes a line needs from its start to the window's end for the kernel to read it. */
  private readonly room: number;
  /** The bytes of buf[winStart, winEnd) are in the kernel's input (null: nothing loaded). */
  private winBuf: Uint8Array | null = null;
  private winStart = 0;
  private winEnd = 0;

  /** A kernel for one trace, or null where WebAssembly is missing. */
  static create(): ScanKernel | null {
    const module = kernelModule();
    return module ? new ScanKernel(new WebAssembly.Instance(module).exports as unknown as KernelExports) : null;
  }

  private constructor(private readonly k: KernelExports) {
    const at = (name: string) => (k[name] as WebAssembly.Global).value as number;
    const buffer = k.memory.buffer;
    this.window = at('WINDOW');
    const maxRecords = (this.window >> 2) + 1;
    this.mem = new Uint8Array(buffer);
    this.state = new Int32Array(buffer, at('STATE'), 5);
    this.kind = new Uint8Array(buffer, at('KIND'), maxRecords);
    this.thread = new Uint16Array(buffer, at('THREAD'), maxRecords);
    this.narrowThread = new Uint8Array(buffer, at('THREAD'), maxRecords);
    this.pend = new Uint32Array(buffer, at('PEND'), maxRecords);
    this.prec = new Uint32Array(buffer, at('PREC'), maxRecords);
    this.pay = new Uint8Array(buffer, at('PAY'), (this.window >> 1) + 1);
    this.maxThread = at('MAX_THREAD');
    this.ops = new Uint32Array(buffer, at('OPS'), this.maxThread + 1);
    this.ios = new Uint32Array(buffer, at('IOS'), this.maxThread + 1);
    this.room = at('ROOM');
    this.idAt = at('ID');
    this.inAt = at('IN');
    this.readAt = at('READ');
    this.readSize = at('READ_SIZE');
    this.mem.set(new Uint8Array(HEX_VALUE.buffer), at('HEX')); // -1 (not a digit) reads as 255
  }

  /** From now on the kernel reads lines of goroutine `id` as thread t (ids over 16 bytes: never). */
  teach(id: string, t: number): void {
    if (id.length > 16 || id.length === 0 || this.full) return;
    this.mem.fill(0, this.idAt, this.idAt + 32);
    for (let i = 0; i < id.length; i++) this.mem[this.idAt + i] = id.charCodeAt(i);
    // Refused an id it could read: its table is full or t is past its thread column, and thread
    // numbers only grow, so it will refuse every later one too.
    if (this.k.teach(id.length, t) === 0) this.full = true;
  }

  /** The kernel learns no more ids (see teach). */
  private full = false;

  /** The caller's buffer holds new bytes: the loaded window is stale. */
  forgetWindow(): void {
    this.winBuf = null;
  }

  /**
   * Two buffers of `size` bytes in the kernel's memory, for the reader to read the trace into, so
   * that run() reads them in place; null when they do not fit (the reader then uses its own).
   */
  slots(size: number): [Uint8Array, Uint8Array] | null {
    if (2 * size > this.readSize) return null;
    const buffer = this.k.memory.buffer;
    return [new Uint8Array(buffer, this.readAt, size), new Uint8Array(buffer, this.readAt + size, size)];
  }

  /**
   * Reads the lines of buf[p, end) the kernel can, into `builder`. Returns the offset of the first
   * line it left (end when none); sets `lines` and `ioRecords`. A buffer from slots() is read in
   * place; any other is copied into the kernel's memory a window at a time.
   */
  run(buf: Uint8Array, p: number, end: number, builder: TimelineBuilder, sKind: number, iKind: number): number {
    this.lines = 0;
    this.ioRecords = 0;
    const inPlace = buf.buffer === this.k.memory.buffer;
    for (;;) {
      /** The address of buf[0] in the kernel's memory, and the end of what this call may read. */
      let base: number;
      let limit: number;
      if (inPlace) {
        base = buf.byteOffset;
        limit = Math.min(end, p + this.window); // the scratch arrays hold one window's records
      } else {
        if (this.winBuf !== buf || p < this.winStart || (p + this.room > this.winEnd && this.winEnd < end)) {
          if (end - p < this.room) return p;
          this.winBuf = buf;
          this.winStart = p;
          this.winEnd = Math.min(end, p + this.window);
          this.mem.set(buf.subarray(p, this.winEnd), this.inAt);
        }
        base = this.inAt - this.winStart;
        limit = this.winEnd;
      }
      if (limit - p < this.room) return p;
      const r0 = builder.recordCount;
      const i0 = builder.otherCount;
      const j0 = builder.payloadCount;
      const u0 = builder.payloadUsed;
      // Threads as wide as the timeline's column (u8 while a trace has at most 256 goroutines).
      const narrow = builder.threadBytes === 1;
      p = this.k.scan(base + p, base + limit, r0, u0, sKind, iKind, narrow ? 0 : 1) - base;
      const records = this.state[0];
      if (records > 0) {
        const bytes = this.state[2];
        const ios = this.state[3];
        const a = builder.reserve(records, bytes);
        a.kind.set(this.kind.subarray(0, records), r0);
        a.thread.set(narrow ? this.narrowThread.subarray(0, records) : this.thread.subarray(0, records), r0);
        // Its `I` records are the ones that are not steps, and the ones with a payload.
        a.otherRecord.set(this.prec.subarray(0, ios), i0);
        a.payloadRecord.set(this.prec.subarray(0, ios), j0);
        a.payloadOffset.set(this.pend.subarray(0, ios), j0 + 1);
        a.bytes.set(this.pay.subarray(0, bytes), u0);
        builder.commit(r0 + records, i0 + ios, j0 + ios, u0 + bytes);
        this.lines += records;
        this.ioRecords += ios;
      }
      // It stopped at a line it leaves to the caller, or at the end of what it was given.
      if (limit === end || p + this.room <= limit) return p;
    }
  }

  /** Adds the `S` and `I` records the kernel read, per thread, to the caller's counts. */
  addCounts(ops: Uint32Array, ios: Uint32Array): void {
    const n = Math.min(ops.length, this.maxThread + 1);
    for (let t = 0; t < n; t++) {
      ops[t] += this.ops[t];
      ios[t] += this.ios[t];
    }
  }
}
