;; The hot path of the `.mflrr` reader (see scan-kernel.ts, which drives it, and trace-scanner.ts,
;; which handles every line this kernel leaves alone). It reads `S G\n` and `I G HEX\n` lines whose
;; goroutine id (up to 16 bytes) it has been taught, ending in LF or CR LF, and stops at the first
;; line that is anything else: a header, blank or bad line, an id it does not know, odd or bad hex,
;; or a line that does not end inside what it was given. So every error message, and every id check, stays in one place:
;; the JavaScript reader. Records go into scratch arrays laid out as TimelineBuilder's arrays, which
;; the driver copies out after each call.
;;
;; Assembled into scan-kernel.wasm.ts by `npm run wasm` (wabt's wat2wasm); a test checks that the
;; committed bytes are this file's.
(module
  (memory (export "memory") 143)

  ;; Memory layout (byte offsets). The driver reads them from these exports.
  ;;   HEX     0        256 bytes: the value of each byte as a hex digit, 255 when it is not one
  ;;   STATE   256      i32 counts of the last scan: records, (free), payload bytes, io records;
  ;;                    then the number of ids in the table
  ;;   ID      512      32 bytes: the id `teach` reads, zero-padded
  ;;   TABLE   1024     2^15 slots of 32 bytes: id bytes 0-7 (i64), 8-15 (i64), thread + 1 (i32; 0: empty)
  ;;   OPS     1049600  u32 per thread (65536): `S` records this kernel read
  ;;   IOS     1311744  u32 per thread: `I` records this kernel read
  ;;   IN      1573888  a window of bytes from outside this memory (WINDOW bytes, 64 spare)
  ;;   KIND    2622528  u8 per record (MAX_RECORDS)
  ;;   THREAD  2884736  per record: u16 when `scan` is called with wide, else u8 (as the timeline's column)
  ;;   PEND    3409152  u32 per `I` record: where its payload ends in the timeline's payload pool
  ;;           4457984  (free)
  ;;   PAY     5506816  payload bytes (WINDOW / 2 + 64)
  ;;   PREC    6031168  u32 per `I` record: its record index in the timeline (a payload, not a step)
  ;;   READ    7080000  2228224 bytes: the two slots read-trace.ts reads the trace into, read in place
  (global (export "HEX") i32 (i32.const 0))
  (global (export "STATE") i32 (i32.const 256))
  (global (export "ID") i32 (i32.const 512))
  (global (export "OPS") i32 (i32.const 1049600))
  (global (export "IOS") i32 (i32.const 1311744))
  (global (export "IN") i32 (i32.const 1573888))
  (global (export "WINDOW") i32 (i32.const 1048576))
  (global (export "KIND") i32 (i32.const 2622528))
  (global (export "THREAD") i32 (i32.const 2884736))
  (global (export "PEND") i32 (i32.const 3409152))
  (global (export "PAY") i32 (i32.const 5506816))
  (global (export "PREC") i32 (i32.const 6031168))
  (global (export "READ") i32 (i32.const 7080000))
  (global (export "READ_SIZE") i32 (i32.const 2228224))
  ;; A table at most half full keeps probes short; threads past 65535 do not fit THREAD's u16.
  (global (export "MAX_IDS") i32 (i32.const 16384))
  (global (export "MAX_THREAD") i32 (i32.const 65535))
  ;; The bytes a line needs from its start to the window's end before `scan` looks at it.
  (global (export "ROOM") i32 (i32.const 19))

  ;; The mask keeping the low n bytes of a word (n >= 8: all of them).
  (func $low_bytes (param $n i32) (result i64)
    (if (result i64) (i32.ge_u (local.get $n) (i32.const 8))
      (then (i64.const -1))
      (else (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (i32.shl (local.get $n) (i32.const 3)))) (i64.const 1)))))

  ;; The table slot an id starts probing at: a multiplicative hash of its two words, top 15 bits.
  (func $slot_of (param $k1 i64) (param $k2 i64) (result i32)
    (i32.wrap_i64
      (i64.shr_u
        (i64.add
          (i64.mul (local.get $k1) (i64.const 0x9E3779B97F4A7C15))
          (i64.mul (local.get $k2) (i64.const 0xC2B2AE3D27D4EB4F)))
        (i64.const 49))))

  ;; The address of the slot holding id (k1, k2), or of the empty slot where it would go.
  (func $find (param $k1 i64) (param $k2 i64) (result i32)
    (local $slot i32)
    (local $at i32)
    (local.set $slot (call $slot_of (local.get $k1) (local.get $k2)))
    (loop $probe (result i32)
      (local.set $at (i32.add (i32.const 1024) (i32.shl (local.get $slot) (i32.const 5))))
      (if (i32.eqz (i32.load offset=16 (local.get $at)))
        (then (return (local.get $at))))
      (if (i32.and
            (i64.eq (i64.load (local.get $at)) (local.get $k1))
            (i64.eq (i64.load offset=8 (local.get $at)) (local.get $k2)))
        (then (return (local.get $at))))
      (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (i32.const 32767)))
      (br $probe)))

  ;; Teach the kernel that the id in ID (len bytes, 1..16, zero-padded) is thread t.
  ;; Returns 0 when the table is full or t does not fit: lines of that id then stay with JavaScript.
  (func (export "teach") (param $len i32) (param $t i32) (result i32)
    (local $k1 i64)
    (local $k2 i64)
    (local $at i32)
    (if (i32.or
          (i32.ge_u (i32.load (i32.const 272)) (i32.const 16384))
          (i32.ge_u (local.get $t) (i32.const 65535)))
      (then (return (i32.const 0))))
    (if (i32.or (i32.eqz (local.get $len)) (i32.gt_u (local.get $len) (i32.const 16)))
      (then (return (i32.const 0))))
    (local.set $k1 (i64.and (i64.load (i32.const 512)) (call $low_bytes (local.get $len))))
    (local.set $k2 (i64.const 0))
    (if (i32.gt_u (local.get $len) (i32.const 8))
      (then (local.set $k2 (i64.and (i64.load (i32.const 520)) (call $low_bytes (i32.sub (local.get $len) (i32.const 8)))))))
    (local.set $at (call $find (local.get $k1) (local.get $k2)))
    (if (i32.eqz (i32.load offset=16 (local.get $at)))
      (then
        (i64.store (local.get $at) (local.get $k1))
        (i64.store offset=8 (local.get $at) (local.get $k2))
        (i32.store offset=16 (local.get $at) (i32.add (local.get $t) (i32.const 1)))
        (i32.store (i32.const 272) (i32.add (i32.load (i32.const 272)) (i32.const 1)))))
    (i32.const 1))

  ;; Read the lines of memory[p, end) (in IN or in READ). The records get indexes recBase.. and
  ;; their payloads start at payBase in the timeline; threads are written as u16 when wide, else u8. Returns the address of the first line left
  ;; for JavaScript (end when none), and stores the counts at STATE.
  (func (export "scan")
    (param $p i32) (param $end i32) (param $recBase i32) (param $payBase i32)
    (param $sKind i32) (param $iKind i32) (param $wide i32)
    (result i32)
    (local $r i32) (local $o i32) (local $io i32)
    (local $c i32) (local $w i64) (local $m i64) (local $len i32)
    (local $k1 i64) (local $k2 i64) (local $at i32) (local $t i32)
    (local $q i32) (local $d i32) (local $hi i32) (local $lo i32) (local $next i32)
    (block $stop
      (loop $line
        ;; Room for the fixed part of the longest line read here: tag, space, 16 id bytes, one more.
        (br_if $stop (i32.gt_u (i32.add (local.get $p) (i32.const 19)) (local.get $end)))
        (local.set $c (i32.load8_u (local.get $p)))
        (br_if $stop (i32.ne (i32.load8_u offset=1 (local.get $p)) (i32.const 32)))
        ;; The id is the bytes up to the first one below 0x21 (LF, CR, space), found 8 at a time:
        ;; (w - 0x21..21) & ~w & 0x80..80 marks it exactly (bytes >= 0x80 are never marked).
        (local.set $w (i64.load offset=2 (local.get $p)))
        (local.set $m
          (i64.and
            (i64.and (i64.sub (local.get $w) (i64.const 0x2121212121212121)) (i64.xor (local.get $w) (i64.const -1)))
            (i64.const 0x8080808080808080)))
        (if (i64.ne (local.get $m) (i64.const 0))
          (then
            ;; The bytes below the marked one: ((m & -m) >> 7) - 1.
            (local.set $len (i32.wrap_i64 (i64.shr_u (i64.ctz (local.get $m)) (i64.const 3))))
            (local.set $k1 (i64.and (local.get $w)
              (i64.sub (i64.shr_u (i64.and (local.get $m) (i64.sub (i64.const 0) (local.get $m))) (i64.const 7)) (i64.const 1))))
            (local.set $k2 (i64.const 0)))
          (else
            (local.set $k1 (local.get $w))
            (local.set $w (i64.load offset=10 (local.get $p)))
            (local.set $m
              (i64.and
                (i64.and (i64.sub (local.get $w) (i64.const 0x2121212121212121)) (i64.xor (local.get $w) (i64.const -1)))
                (i64.const 0x8080808080808080)))
            (br_if $stop (i64.eqz (local.get $m)))
            (local.set $len (i32.add (i32.const 8) (i32.wrap_i64 (i64.shr_u (i64.ctz (local.get $m)) (i64.const 3)))))
            (local.set $k2 (i64.and (local.get $w)
              (i64.sub (i64.shr_u (i64.and (local.get $m) (i64.sub (i64.const 0) (local.get $m))) (i64.const 7)) (i64.const 1))))))
        (br_if $stop (i32.eqz (local.get $len)))
        ;; q: the byte after the id, the line end for `S`, a space for `I`.
        (local.set $q (i32.add (i32.add (local.get $p) (i32.const 2)) (local.get $len)))
        (if (i32.eq (local.get $c) (i32.const 83))
          (then
            ;; next: after the line end at q, LF or CR LF (0: neither, the line is JavaScript's).
            (local.set $next (i32.const 0))
            (if (i32.eq (i32.load8_u (local.get $q)) (i32.const 10))
              (then (local.set $next (i32.add (local.get $q) (i32.const 1))))
              (else
                (if (i32.and
                      (i32.eq (i32.load8_u (local.get $q)) (i32.const 13))
                      (i32.and
                        (i32.lt_u (i32.add (local.get $q) (i32.const 1)) (local.get $end))
                        (i32.eq (i32.load8_u offset=1 (local.get $q)) (i32.const 10))))
                  (then (local.set $next (i32.add (local.get $q) (i32.const 2)))))))
            (br_if $stop (i32.eqz (local.get $next))))
          (else
            (br_if $stop (i32.ne (local.get $c) (i32.const 73)))
            (br_if $stop (i32.ne (i32.load8_u (local.get $q)) (i32.const 32)))))
        ;; Its thread: $slot_of and $find written out here (V8 does not inline WebAssembly calls).
        (local.set $at
          (i32.wrap_i64 (i64.shr_u
            (i64.add
              (i64.mul (local.get $k1) (i64.const 0x9E3779B97F4A7C15))
              (i64.mul (local.get $k2) (i64.const 0xC2B2AE3D27D4EB4F)))
            (i64.const 49))))
        (loop $probe
          (local.set $at (i32.add (i32.const 1024) (i32.shl (local.get $at) (i32.const 5))))
          (local.set $t (i32.load offset=16 (local.get $at)))
          (br_if $stop (i32.eqz (local.get $t)))
          (if (i32.eqz (i32.and
                (i64.eq (i64.load (local.get $at)) (local.get $k1))
                (i64.eq (i64.load offset=8 (local.get $at)) (local.get $k2))))
            (then
              (local.set $at (i32.and (i32.add (i32.shr_u (i32.sub (local.get $at) (i32.const 1024)) (i32.const 5)) (i32.const 1)) (i32.const 32767)))
              (br $probe))))
        (local.set $t (i32.sub (local.get $t) (i32.const 1)))
        (if (i32.eq (local.get $c) (i32.const 83))
          (then
            (i32.store8 offset=2622528 (local.get $r) (local.get $sKind))
            (if (local.get $wide)
              (then (i32.store16 offset=2884736 (i32.shl (local.get $r) (i32.const 1)) (local.get $t)))
              (else (i32.store8 offset=2884736 (local.get $r) (local.get $t))))
            (local.set $at (i32.shl (local.get $t) (i32.const 2)))
            (i32.store offset=1049600 (local.get $at) (i32.add (i32.load offset=1049600 (local.get $at)) (i32.const 1)))
            (local.set $r (i32.add (local.get $r) (i32.const 1)))
            (local.set $p (local.get $next))
            (br $line)))
        ;; `I`: hex digit pairs up to the line end, decoded into the payload scratch.
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (local.set $d (local.get $o))
        (block $hex_end
          (loop $hex
            (br_if $hex_end (i32.ge_u (i32.add (local.get $q) (i32.const 1)) (local.get $end)))
            (local.set $hi (i32.load8_u (i32.load8_u (local.get $q))))
            (local.set $lo (i32.load8_u (i32.load8_u offset=1 (local.get $q))))
            (br_if $hex_end (i32.gt_u (i32.or (local.get $hi) (local.get $lo)) (i32.const 15)))
            (i32.store8 offset=5506816 (local.get $d) (i32.or (i32.shl (local.get $hi) (i32.const 4)) (local.get $lo)))
            (local.set $d (i32.add (local.get $d) (i32.const 1)))
            (local.set $q (i32.add (local.get $q) (i32.const 2)))
            (br $hex)))
        (br_if $stop (i32.ge_u (local.get $q) (local.get $end)))
        ;; next: after the line end at q, LF or CR LF (0: neither, the line is JavaScript's).
        (local.set $next (i32.const 0))
        (if (i32.eq (i32.load8_u (local.get $q)) (i32.const 10))
          (then (local.set $next (i32.add (local.get $q) (i32.const 1))))
          (else
            (if (i32.and
                  (i32.eq (i32.load8_u (local.get $q)) (i32.const 13))
                  (i32.and
                    (i32.lt_u (i32.add (local.get $q) (i32.const 1)) (local.get $end))
                    (i32.eq (i32.load8_u offset=1 (local.get $q)) (i32.const 10))))
              (then (local.set $next (i32.add (local.get $q) (i32.const 2)))))))
        (br_if $stop (i32.eqz (local.get $next)))
        (local.set $o (local.get $d))
        (i32.store8 offset=2622528 (local.get $r) (local.get $iKind))
        (if (local.get $wide)
              (then (i32.store16 offset=2884736 (i32.shl (local.get $r) (i32.const 1)) (local.get $t)))
              (else (i32.store8 offset=2884736 (local.get $r) (local.get $t))))
        (local.set $at (i32.shl (local.get $io) (i32.const 2)))
        (i32.store offset=3409152 (local.get $at) (i32.add (local.get $payBase) (local.get $o)))
        (i32.store offset=6031168 (local.get $at) (i32.add (local.get $recBase) (local.get $r)))
        (local.set $at (i32.shl (local.get $t) (i32.const 2)))
        (i32.store offset=1311744 (local.get $at) (i32.add (i32.load offset=1311744 (local.get $at)) (i32.const 1)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (local.set $io (i32.add (local.get $io) (i32.const 1)))
        (local.set $p (local.get $next))
        (br $line)))
    (i32.store (i32.const 256) (local.get $r))
    (i32.store (i32.const 264) (local.get $o))
    (i32.store (i32.const 268) (local.get $io))
    (local.get $p))
)
