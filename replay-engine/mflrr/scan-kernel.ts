// Drives scan-kernel.wat, the `.mflrr` reader's hot path in WebAssembly: plain `S` and `I` lines of
// ids it was taught, about ten times faster than the same loop in JavaScript (no bounds checks per
// byte, 8-byte loads for the id). TraceScanner calls run() between the lines it reads itself, and
// teaches the kernel every id it interns, so the kernel never decides whether an id is valid.
//
// One instance per trace being read (its memory holds that trace's id table and counts). The
// trace's bytes are copied into the kernel's memory a window at a time; the records it reads are
// copied out into the TimelineBuilder's arrays after each call.
import type { TimelineBuilder } from '../model/timeline';
import { HEX_VALUE } from './hex';
import { WASM_BASE64 } from './scan-kernel.wasm';

interface KernelExports {
  memory: WebAssembly.Memory;
  scan(p: number, end: number, recBase: number, payBase: number, sKind: number, iKind: number): number;
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
  private readonly pend: Uint32Array;
  private readonly prec: Uint32Array;
  private readonly pay: Uint8Array;
  private readonly ops: Uint32Array;
  private readonly ios: Uint32Array;
  private readonly idAt: number;
  private readonly inAt: number;
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
    this.pend = new Uint32Array(buffer, at('PEND'), maxRecords);
    this.prec = new Uint32Array(buffer, at('PREC'), maxRecords);
    this.pay = new Uint8Array(buffer, at('PAY'), (this.window >> 1) + 1);
    this.maxThread = at('MAX_THREAD');
    this.ops = new Uint32Array(buffer, at('OPS'), this.maxThread + 1);
    this.ios = new Uint32Array(buffer, at('IOS'), this.maxThread + 1);
    this.room = at('ROOM');
    this.idAt = at('ID');
    this.inAt = at('IN');
    this.mem.set(new Uint8Array(HEX_VALUE.buffer), at('HEX')); // -1 (not a digit) reads as 255
  }

  /** From now on the kernel reads lines of goroutine `id` as thread t (ids over 16 bytes: never). */
  teach(id: string, t: number): void {
    if (id.length > 16) return;
    this.mem.fill(0, this.idAt, this.idAt + 32);
    for (let i = 0; i < id.length; i++) this.mem[this.idAt + i] = id.charCodeAt(i);
    this.k.teach(id.length, t);
  }

  /** The caller's buffer holds new bytes: the loaded window is stale. */
  forgetWindow(): void {
    this.winBuf = null;
  }

  /**
   * Reads the lines of buf[p, end) the kernel can, into `builder`. Returns the offset of the first
   * line it left (end when none); sets `lines` and `ioRecords`.
   */
  run(buf: Uint8Array, p: number, end: number, builder: TimelineBuilder, sKind: number, iKind: number): number {
    this.lines = 0;
    this.ioRecords = 0;
    for (;;) {
      if (this.winBuf !== buf || p < this.winStart || (p + this.room > this.winEnd && this.winEnd < end)) {
        if (end - p < this.room) return p;
        this.winBuf = buf;
        this.winStart = p;
        this.winEnd = Math.min(end, p + this.window);
        this.mem.set(buf.subarray(p, this.winEnd), this.inAt);
      }
      const r0 = builder.recordCount;
      const i0 = builder.otherCount;
      const j0 = builder.payloadCount;
      const u0 = builder.payloadUsed;
      p = this.winStart + this.k.scan(p - this.winStart, this.winEnd - this.winStart, r0, u0, sKind, iKind);
      const records = this.state[0];
      if (records > 0) {
        const bytes = this.state[2];
        const ios = this.state[3];
        const a = builder.reserve(records, bytes);
        a.kind.set(this.kind.subarray(0, records), r0);
        a.thread.set(this.thread.subarray(0, records), r0);
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
      if (this.winEnd === end || p + this.room <= this.winEnd) return p;
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
