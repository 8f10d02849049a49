import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Flushes a directory's entries (a new or renamed file in it) to disk. */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await fs.open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `file` with `content` so that a crash at any moment leaves either the old or the new
 * content, and the new one is on disk when this resolves: a temporary file, fsynced, renamed over
 * the old one, then the directory fsynced.
 */
export async function writeFileDurably(file: string, content: string | Buffer, mode = 0o600): Promise<void> {
  const temporary = `${file}.${randomUUID()}.tmp`;
  try {
    const handle = await fs.open(temporary, 'wx', mode);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, file);
  } catch (error: unknown) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(path.dirname(file));
}
