// The run's logs as one zip (its `logs_url`), written as it is read: each entry deflated while it streams
// in, its CRC and sizes in a data descriptor after it (general-purpose flag bit 3), the central directory
// at the end. Nothing is held whole in memory. No ZIP64: an entry or the archive past 4 GiB is refused.
import { Readable } from 'node:stream';
import { crc32, createDeflateRaw } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** The entry's bytes, opened when its turn comes. */
  open: () => Promise<Readable>;
}

const limit = 0xffffffff;

function dosTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

async function* zipChunks(entries: ZipEntry[], now: Date): AsyncGenerator<Buffer> {
  const { time, date } = dosTime(now);
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0808, 6); // sizes after the data; UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt16LE(name.length, 26);
    yield local;
    yield name;
    const start = offset;
    offset += local.length + name.length;

    let crc = 0;
    let size = 0;
    let compressed = 0;
    const deflate = createDeflateRaw();
    const source = await entry.open();
    source.on('data', (chunk: Buffer) => {
      crc = crc32(chunk, crc);
      size += chunk.length;
    });
    source.once('error', (err) => deflate.destroy(err));
    source.pipe(deflate);
    for await (const chunk of deflate as AsyncIterable<Buffer>) {
      compressed += chunk.length;
      yield chunk;
    }
    if (size > limit || compressed > limit) throw new Error(`${entry.name} is past 4 GiB`);
    offset += compressed;

    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(size, 12);
    yield descriptor;
    offset += descriptor.length;
    if (offset > limit) throw new Error('the archive is past 4 GiB');

    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4); // made by
    header.writeUInt16LE(20, 6); // needed
    header.writeUInt16LE(0x0808, 8);
    header.writeUInt16LE(8, 10);
    header.writeUInt16LE(time, 12);
    header.writeUInt16LE(date, 14);
    header.writeUInt32LE(crc >>> 0, 16);
    header.writeUInt32LE(compressed, 20);
    header.writeUInt32LE(size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(start, 42);
    central.push(header, name);
  }
  const dir = Buffer.concat(central);
  yield dir;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  yield end;
}

/** A zip of `entries`, streamed. */
export function zipStream(entries: ZipEntry[], now = new Date()): Readable {
  if (entries.length > 0xffff) throw new Error('too many entries for a zip without ZIP64');
  return Readable.from(zipChunks(entries, now), { objectMode: false });
}

/** A job's name as a file name inside the archive: no slashes, no control characters. */
export function entryName(n: number, jobName: string): string {
  const safe = jobName.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_').trim().slice(0, 200) || 'job';
  return `${n}_${safe}.txt`;
}
