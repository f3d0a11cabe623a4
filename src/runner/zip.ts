// A small zip writer and reader for the artifact actions: entries deflated (or stored), written one by
// one to a file; reading inflates every entry to a folder. Paths that would leave the folder are refused.
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

export interface ZipInput {
  /** The name inside the zip (forward slashes). */
  name: string;
  /** The file on disk. */
  path: string;
}

function dosTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** Writes `files` into a zip at `out`; answers its size. */
export function writeZip(files: ZipInput[], out: string): number {
  const fd = openSync(out, 'w');
  let offset = 0;
  const central: Buffer[] = [];
  const { time, date } = dosTime(new Date());
  try {
    for (const f of files) {
      const data = readFileSync(f.path);
      const crc = crc32(data);
      const deflated = deflateRawSync(data);
      const useDeflate = deflated.length < data.length;
      const body = useDeflate ? deflated : data;
      const name = Buffer.from(f.name, 'utf8');
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(0x0800, 6); // UTF-8 names
      local.writeUInt16LE(useDeflate ? 8 : 0, 8);
      local.writeUInt16LE(time, 10);
      local.writeUInt16LE(date, 12);
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(body.length, 18);
      local.writeUInt32LE(data.length, 22);
      local.writeUInt16LE(name.length, 26);
      local.writeUInt16LE(0, 28);
      const cd = Buffer.alloc(46);
      cd.writeUInt32LE(0x02014b50, 0);
      cd.writeUInt16LE(20, 4);
      cd.writeUInt16LE(20, 6);
      cd.writeUInt16LE(0x0800, 8);
      cd.writeUInt16LE(useDeflate ? 8 : 0, 10);
      cd.writeUInt16LE(time, 12);
      cd.writeUInt16LE(date, 14);
      cd.writeUInt32LE(crc, 16);
      cd.writeUInt32LE(body.length, 20);
      cd.writeUInt32LE(data.length, 24);
      cd.writeUInt16LE(name.length, 28);
      cd.writeUInt32LE(offset, 42);
      central.push(cd, name);
      for (const b of [local, name, body]) {
        writeSync(fd, b);
        offset += b.length;
      }
    }
    const cdBuf = Buffer.concat(central);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(files.length, 8);
    end.writeUInt16LE(files.length, 10);
    end.writeUInt32LE(cdBuf.length, 12);
    end.writeUInt32LE(offset, 16);
    writeSync(fd, cdBuf);
    writeSync(fd, end);
    return offset + cdBuf.length + end.length;
  } finally {
    closeSync(fd);
  }
}

/** Extracts a zip into `dest`; answers the names written. */
export function extractZip(zip: Buffer, dest: string): string[] {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const names: string[] = [];
  const root = normalize(dest) + sep;
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('broken zip directory');
    const method = zip.readUInt16LE(p + 10);
    const compressed = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const localAt = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    p += 46 + nameLen + extraLen + commentLen;
    const dataAt = localAt + 30 + zip.readUInt16LE(localAt + 26) + zip.readUInt16LE(localAt + 28);
    const body = zip.subarray(dataAt, dataAt + compressed);
    const target = normalize(join(dest, name));
    if (!target.startsWith(root)) throw new Error(`zip entry leaves the folder: ${name}`);
    if (name.endsWith('/')) {
      mkdirSync(target, { recursive: true });
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    const data = method === 8 ? inflateRawSync(body) : method === 0 ? body : undefined;
    if (!data) throw new Error(`zip entry ${name}: compression method ${method} is not supported`);
    const fd = openSync(target, 'w');
    try {
      writeSync(fd, data);
    } finally {
      closeSync(fd);
    }
    names.push(name);
  }
  return names;
}
