// Turns a failed open/read of a recording into the one error the engine lets escape.
import { RecordingError } from './model/errors';

export function fileError(file: string, err: unknown): RecordingError {
  if (err instanceof RecordingError) return err;
  const e = err as NodeJS.ErrnoException;
  const why =
    e.code === 'ENOENT' ? 'no such file (check the path)'
    : e.code === 'EACCES' || e.code === 'EPERM' ? 'permission denied (check the file\'s permissions)'
    : e.code === 'EISDIR' ? 'it is a folder, not a recording file'
    : e.message ?? String(err);
  return new RecordingError('io', `${file}: cannot read: ${why}`, { file });
}
