// Which bytes of a record say what it *is* (compared by `compare`'s alignment) and which say what
// it *got* (compared separately, as a value difference). Each format says it of its own records
// (Recording.comparisonParts):
// - trace: a record is its payload (an `S` line has none, an `I` line its bytes); no separate result.
// - capsule: an effect is its key (what was asked); its result is outcome, ident and data.

/** Every record's identity bytes: record r is pool[begin[r], end[r]). */
export interface IdentityBytes {
  pool: Uint8Array;
  begin: Uint32Array;
  end: Uint32Array;
}

export interface RecordParts {
  identity: IdentityBytes;
  /** Record r's result bytes, compared between matched records; null when the format has no results apart from identity. */
  result: ((r: number) => Uint8Array) | null;
  /** The value shown for record r in a list of differences. */
  valueText: (r: number) => string;
}
