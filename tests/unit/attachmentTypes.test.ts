import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultAllowedTypes, loadConfig, ConfigError } from '../../src/config.js';
import { sanitizeAttachmentName, sniffType, typeAllowed } from '../../src/services/issues/attachmentTypes.js';

const bytes = (...b: number[]) => Buffer.from(b);

test('sniffType: the table, then text or binary', () => {
  assert.is(sniffType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0)), 'image/png');
  assert.is(sniffType(bytes(0xff, 0xd8, 0xff, 0xe0)), 'image/jpeg');
  assert.is(sniffType(Buffer.from('GIF89a....')), 'image/gif');
  assert.is(sniffType(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')), 'image/webp');
  assert.is(sniffType(Buffer.from('%PDF-1.4')), 'application/pdf');
  assert.is(sniffType(Buffer.from('PK\x03\x04rest')), 'application/zip');
  assert.is(sniffType(bytes(0x1f, 0x8b, 0x08, 0)), 'application/x-gzip');
  assert.is(sniffType(Buffer.from('plain words\n\ttabbed ünïcode')), 'text/plain');
  assert.is(sniffType(Buffer.alloc(0)), 'text/plain');
  assert.is(sniffType(bytes(0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00)), 'application/octet-stream');
});

test('typeAllowed: extension or sniffed MIME; */* and empty allow all; case-insensitive; | separators', () => {
  const png = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
  assert.ok(typeAllowed(defaultAllowedTypes, 'x.TXT', Buffer.from('t')));
  assert.not.ok(typeAllowed(defaultAllowedTypes, 'file.bad', Buffer.from('t')));
  assert.not.ok(typeAllowed(defaultAllowedTypes, 'txt', Buffer.from('t')), 'no extension');
  assert.ok(typeAllowed('image/*', 'x.bin', png));
  assert.not.ok(typeAllowed('image/*', 'x.png', Buffer.from('text')));
  assert.ok(typeAllowed('text/plain', 'notes', Buffer.from('text')));
  assert.ok(typeAllowed('.zip|.png', 'a.png', Buffer.alloc(0)));
  assert.ok(typeAllowed('*/*', 'a.exe', bytes(0)));
  assert.ok(typeAllowed(' , ', 'a.exe', bytes(0)));
});

test('sanitizeAttachmentName: last segment, no control or direction characters, trimmed', () => {
  assert.is(sanitizeAttachmentName('../../etc/passwd'), 'passwd');
  assert.is(sanitizeAttachmentName('C:\\Users\\me\\a.txt'), 'a.txt');
  assert.is(sanitizeAttachmentName(' \u0000a\u001fb\u007fc\u0085.txt '), 'abc.txt');
  assert.is(sanitizeAttachmentName('evil\u202Etxt.exe'), 'eviltxt.exe');
  assert.is(sanitizeAttachmentName('ünï cødé.md'), 'ünï cødé.md');
  for (const empty of ['', '   ', 'dir/', '..', '.', '\u0001']) assert.is(sanitizeAttachmentName(empty), '', JSON.stringify(empty));
});

test('config: attachment settings and their checks', () => {
  assert.equal(loadConfig({}).attachment, { enabled: true, allowedTypes: defaultAllowedTypes, maxSizeMiB: 4, maxFiles: 5 });
  const c = loadConfig({ ATTACHMENT_ENABLED: 'no', ATTACHMENT_ALLOWED_TYPES: '', ATTACHMENT_MAX_SIZE: '100', ATTACHMENT_MAX_FILES: '1' });
  assert.equal(c.attachment, { enabled: false, allowedTypes: '', maxSizeMiB: 100, maxFiles: 1 });
  assert.throws(() => loadConfig({ ATTACHMENT_MAX_SIZE: '0' }), (e: unknown) => e instanceof ConfigError);
  assert.throws(() => loadConfig({ ATTACHMENT_MAX_SIZE: 'big' }), (e: unknown) => e instanceof ConfigError);
  assert.throws(() => loadConfig({ ATTACHMENT_ENABLED: 'maybe' }), (e: unknown) => e instanceof ConfigError);
});

test.run();
