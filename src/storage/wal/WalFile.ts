/**
 * The file operations a WalWriter uses; a `FileHandle` of `node:fs/promises` has them all.
 * Tests pass their own to watch what reaches the disk.
 */
export interface WalFile {
  write: (buffer: Buffer, offset: number, length: number, position: number) => Promise<{ bytesWritten: number }>;
  /** Makes the written data durable (fdatasync). */
  datasync: () => Promise<void>;
  /** Makes data and metadata durable (fsync). */
  sync: () => Promise<void>;
  truncate: (length: number) => Promise<void>;
  close: () => Promise<void>;
}

/** Opens `path` with open(2)-style `flags` ('r+', 'wx', 'w'). */
export type WalFileOpener = (path: string, flags: string) => Promise<WalFile>;
