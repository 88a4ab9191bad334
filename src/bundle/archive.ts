/**
 * The bundle's container: a tar (modern-tar) compressed with zstd level 19 (@mongodb-js/zstd, a
 * prebuilt native module). Both are imported here, lazily, so that only `pack` and bundle runs load them.
 * Every header is canonical (mtime, uid and gid 0, no owner names), so the same members always give
 * the same bytes.
 */
export interface ArchiveMember {
  readonly name: string;
  /** Permission bits, 0o644 or 0o755. */
  readonly mode: number;
  readonly bytes: Uint8Array;
}

export interface ReadMember extends ArchiveMember {
  /** The tar entry type: only `file` is accepted by the verifier. */
  readonly type: string;
}

const ZSTD_LEVEL = 19;

export async function writeArchive(members: readonly ArchiveMember[]): Promise<Buffer> {
  const { packTar } = await import("modern-tar");
  const { compress } = await import("@mongodb-js/zstd");
  const tar = await packTar(
    members.map((member) => ({
      header: {
        name: member.name,
        size: member.bytes.byteLength,
        mode: member.mode,
        mtime: new Date(0),
        uid: 0,
        gid: 0,
        type: "file" as const,
      },
      body: member.bytes,
    })),
  );
  return compress(Buffer.from(tar.buffer, tar.byteOffset, tar.byteLength), ZSTD_LEVEL);
}

/** Decompresses and lists a bundle's entries in archive order; throws when it is not zstd or not tar. */
export async function readArchive(bytes: Buffer): Promise<ReadMember[]> {
  const { unpackTar } = await import("modern-tar");
  const { decompress } = await import("@mongodb-js/zstd");
  const tar = await decompress(bytes);
  const entries = await unpackTar(new Uint8Array(tar.buffer, tar.byteOffset, tar.byteLength));
  return entries.map((entry) => ({
    name: entry.header.name,
    type: entry.header.type ?? "file",
    mode: entry.header.mode ?? 0,
    bytes: entry.data ?? new Uint8Array(),
  }));
}
