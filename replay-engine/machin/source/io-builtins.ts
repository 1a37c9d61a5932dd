// machin 0.137.0's builtins whose result a recording run writes as `I` lines of the calling
// goroutine (its I/O queue, replayed in order), and how many lines one call writes. Taken from
// machin's codegen.go: the runtime functions that call mfl_rr_io_log_hex / _i64 / _bytes or
// mfl_rr_log_http (three lines: status, body, err) when recording, and the builtin names its
// builtin switch (and multiRetBuiltinC, for http_get / http_request) maps to them. Not here
// because machin records nothing for them: input, env, args, read_file_raw, tls_client_fd.
// A `select` statement also writes one line (the case it took): `SELECT_IO_RECORDS`.
export const IO_BUILTIN_RECORDS: ReadonlyMap<string, number> = new Map([
  // stdin, clock, files (mfl_read_stdin, mfl_now, mfl_now_ms, mfl_read_file, mfl_read_file_bytes)
  ['read_stdin', 1], ['now', 1], ['now_ms', 1], ['read_file', 1], ['read_file_bytes', 1],
  // sockets (mfl_listen, mfl_accept, mfl_peer_addr, mfl_socket_timeout, mfl_dial, mfl_read, ...)
  ['listen', 1], ['accept', 1], ['peer_addr', 1], ['socket_timeout', 1], ['dial', 1],
  ['read', 1], ['read_bytes', 1], ['write', 1], ['write_bytes', 1],
  // TLS (mfl_tls_accept, mfl_tls_read_str, mfl_tls_read_bytes_h, mfl_tls_write_str, mfl_tls_write_bytes_h)
  ['tls_accept', 1], ['tls_read', 1], ['tls_read_bytes', 1], ['tls_write', 1], ['tls_write_bytes', 1],
  // HTTP(S) and WebSocket (mfl_https_get/post; mfl_http_get/request log status, body, err)
  ['https_get', 1], ['https_post', 1], ['http_get', 3], ['http_request', 3],
  ['wss_open', 1], ['wss_send', 1], ['wss_recv', 1], ['wss_recv_bin', 1], ['wss_send_bin', 1],
  // randomness (mfl_crypto_rand)
  ['rand_bytes', 1],
]);

/** The chosen case of a `select`, recorded as one `I` line of its goroutine. */
export const SELECT_IO_RECORDS = 1;
