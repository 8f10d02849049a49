import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { errnoOf } from './Errors';

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
 * Makes `directory` (and its missing parents) so that it survives a power loss: each directory made
 * is synced in its parent (a file fsynced in a directory whose own entry is not durable can vanish
 * with it). Directories already there cost one mkdir.
 */
export async function makeDirectoryDurably(directory: string, mode?: number): Promise<void> {
  const created = await fs.mkdir(directory, { recursive: true, ...mode === undefined ? {} : { mode } });
  if (created === undefined) {
    return;
  }
  const top = path.resolve(created);
  for (let current = path.resolve(directory); ; current = path.dirname(current)) {
    await syncDirectory(path.dirname(current));
    if (current === top || path.dirname(current) === current) {
      return;
    }
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
    await writeNewFileSynced(temporary, content, mode);
    await fs.rename(temporary, file);
  } catch (error: unknown) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(path.dirname(file));
}

/**
 * Creates `file` with `content` (mode 0600) unless it exists, whoever else tries at once: written
 * whole under a temporary name and fsynced, then linked to its name, which fails if another process
 * made it first (then theirs is the one), and the directory fsynced. For keys made once and shared by
 * every node of a data directory: a key answered to nobody yet, but signing tokens at once, must not
 * come back empty after a power loss.
 */
export async function createFileOnce(file: string, content: string): Promise<void> {
  await makeDirectoryDurably(path.dirname(file), 0o700);
  const temporary = `${file}.${randomUUID()}.tmp`;
  try {
    await writeNewFileSynced(temporary, content, 0o600);
    await fs.link(temporary, file);
  } catch (error: unknown) {
    if (errnoOf(error) !== 'EEXIST') {
      throw error;
    }
  } finally {
    await fs.rm(temporary, { force: true });
  }
  await syncDirectory(path.dirname(file));
}

/** Writes a file that must not exist yet, and fsyncs it (its directory entry is the caller's to sync). */
export async function writeNewFileSynced(file: string, content: string | Buffer, mode: number): Promise<void> {
  const handle = await fs.open(file, 'wx', mode);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
