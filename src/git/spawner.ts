// Git runs from a small helper process, not from the server itself. Starting a program costs the parent
// time in proportion to the memory it maps (fork copies its page tables), on the event loop: 25 ms from a
// server holding embedded PostgreSQL (PGlite) against 4 ms from a small process, and every push, branch,
// tag and diffpatch starts several. The helper (plain JavaScript, started once with `node -e`) starts git
// for us; each run is one connection to its Unix socket: a header (program, arguments, directory,
// environment), then git's stdin; back come framed stdout and stderr chunks and, last, the exit status.
// Closing the connection early stops git. The helper ends when the server does (its stdin closes).
import { spawn as spawnChild } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';

/** What git's callers use of a child process: its three streams, kill, and exit, close and error. */
export interface GitChild extends EventEmitter {
  readonly stdin: PassThrough;
  readonly stdout: PassThrough;
  readonly stderr: PassThrough;
  kill(signal?: NodeJS.Signals): boolean;
  /** Whether the running git keeps the server's event loop alive (as ChildProcess.ref/unref). */
  ref(): void;
  unref(): void;
}

export interface SpawnSpec {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string | undefined>;
}

// Frames the helper sends back: stdout and stderr bytes, then the exit status or the failure to start.
const FRAME_STDOUT = 1;
const FRAME_STDERR = 2;
const FRAME_EXIT = 3;
const FRAME_ERROR = 4;

// Frames the server sends: the run (JSON, first), stdin bytes, and stdin's end. The connection closing
// (from the server's side) before git has ended stops git.
const IN_SPEC = 0;
const IN_DATA = 1;
const IN_END = 2;

// The helper, in CommonJS for `node -e`. argv[1] is its socket path.
const helperSource = `
const net = require('net');
const { spawn } = require('child_process');
const fs = require('fs');
const socketPath = process.argv[1];
try { fs.unlinkSync(socketPath); } catch {}
const server = net.createServer({ allowHalfOpen: true }, (sock) => {
  let pending = Buffer.alloc(0);
  let child = null;
  let done = false;
  const frame = (type, payload) => {
    const head = Buffer.alloc(5);
    head[0] = type;
    head.writeUInt32BE(payload.length, 1);
    return sock.write(Buffer.concat([head, payload]));
  };
  const relay = (stream, type) => stream.on('data', (chunk) => {
    if (!frame(type, chunk)) { stream.pause(); sock.once('drain', () => stream.resume()); }
  });
  const finish = (type, info) => {
    if (done) return;
    done = true;
    frame(type, Buffer.from(JSON.stringify(info)));
    sock.end();
  };
  const stop = () => { if (child && !done) child.kill('SIGTERM'); };
  const input = (type, payload) => {
    if (type === ${IN_SPEC} && !child) {
      const spec = JSON.parse(payload.toString('utf8'));
      try {
        child = spawn(spec.file, spec.args, { cwd: spec.cwd, env: spec.env });
      } catch (err) {
        return finish(${FRAME_ERROR}, { message: err.message, code: err.code });
      }
      child.stdin.on('error', () => {});
      relay(child.stdout, ${FRAME_STDOUT});
      relay(child.stderr, ${FRAME_STDERR});
      child.on('error', (err) => finish(${FRAME_ERROR}, { message: err.message, code: err.code }));
      child.on('close', (code, signal) => finish(${FRAME_EXIT}, { code, signal }));
    } else if (!child || child.stdin.destroyed || child.stdin.writableEnded) {
      // git has stopped reading: what is still sent is dropped.
    } else if (type === ${IN_DATA}) {
      if (!child.stdin.write(payload)) { sock.pause(); child.stdin.once('drain', () => sock.resume()); }
    } else if (type === ${IN_END}) {
      child.stdin.end();
    }
  };
  sock.on('data', (data) => {
    pending = pending.length ? Buffer.concat([pending, data]) : data;
    while (pending.length >= 5) {
      const size = pending.readUInt32BE(1);
      if (pending.length < 5 + size) break;
      const type = pending[0];
      const payload = pending.subarray(5, 5 + size);
      pending = pending.subarray(5 + size);
      input(type, payload);
    }
  });
  sock.on('end', stop);
  sock.on('close', stop);
  sock.on('error', () => {});
});
server.listen(socketPath, () => process.stdout.write('ready\\n'));
process.stdin.on('end', () => { try { fs.unlinkSync(socketPath); } catch {} process.exit(0); });
process.stdin.resume();
`;

/** One frame: a type byte, a 32-bit length, the bytes. */
function frameOf(type: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head[0] = type;
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
}

let helper: Promise<string> | undefined;

/** The helper's socket path, starting the helper on first use. */
function helperSocket(): Promise<string> {
  helper ??= new Promise<string>((resolve, reject) => {
    const socketPath = join(tmpdir(), `anvil-git-${process.pid}-${randomBytes(4).toString('hex')}.sock`);
    const child = spawnChild(process.execPath, ['-e', helperSource, socketPath], { stdio: ['pipe', 'pipe', 'inherit'] });
    let said = '';
    child.stdout!.on('data', (d: Buffer) => {
      said += d.toString('utf8');
      if (!said.includes('ready\n')) return;
      // Ready: from now on the helper must not keep the server alive, nor outlive it (it ends with its stdin).
      child.unref();
      (child.stdin as unknown as Socket).unref();
      (child.stdout as unknown as Socket).unref();
      resolve(socketPath);
    });
    const gone = (why: string) => {
      helper = undefined; // the next run starts a new one
      reject(new Error(`the git helper ${why}`));
    };
    child.on('error', (err) => gone(`could not start: ${err.message}`));
    child.on('exit', (code) => gone(`ended (${code})`));
  });
  // A rejection seen by no run yet must not crash the process.
  helper.catch(() => undefined);
  return helper;
}

class HelperChild extends EventEmitter implements GitChild {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  private socket?: Socket;
  private finished = false;
  private killed = false;
  private held = true;

  constructor(spec: SpawnSpec) {
    super();
    helperSocket().then(
      (path) => this.connect(path, spec),
      (err: Error) => this.fail(err),
    );
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (this.finished) return false;
    this.killed = true;
    this.socket?.destroy(); // the helper stops git when the connection closes
    this.end(null, signal);
    return true;
  }

  ref(): void {
    this.held = true;
    this.socket?.ref();
  }

  unref(): void {
    this.held = false;
    this.socket?.unref();
  }

  private connect(path: string, spec: SpawnSpec): void {
    if (this.killed) return;
    const sock = connect({ path, allowHalfOpen: true });
    this.socket = sock;
    if (!this.held) sock.unref();
    sock.write(frameOf(IN_SPEC, Buffer.from(JSON.stringify(spec), 'utf8')));
    this.stdin.on('data', (chunk: Buffer) => {
      if (this.finished) return;
      if (!sock.write(frameOf(IN_DATA, chunk))) {
        this.stdin.pause();
        sock.once('drain', () => this.stdin.resume());
      }
    });
    this.stdin.on('end', () => {
      if (!this.finished) sock.write(frameOf(IN_END, Buffer.alloc(0)));
    });
    let buffered: Buffer = Buffer.alloc(0);
    sock.on('data', (data: Buffer) => {
      buffered = buffered.length ? Buffer.concat([buffered, data]) : data;
      while (buffered.length >= 5) {
        const length = buffered.readUInt32BE(1);
        if (buffered.length < 5 + length) break;
        const type = buffered[0];
        const payload = buffered.subarray(5, 5 + length);
        buffered = buffered.subarray(5 + length);
        this.frame(type!, payload, sock);
      }
    });
    sock.on('error', (err) => this.fail(err));
    sock.on('close', () => this.fail(new Error('the git helper closed the connection before git ended')));
  }

  private frame(type: number, payload: Buffer, sock: Socket): void {
    if (this.finished) return;
    if (type === FRAME_STDOUT || type === FRAME_STDERR) {
      const out = type === FRAME_STDOUT ? this.stdout : this.stderr;
      if (!out.write(payload)) {
        sock.pause();
        out.once('drain', () => sock.resume());
      }
    } else if (type === FRAME_EXIT) {
      const { code, signal } = JSON.parse(payload.toString('utf8')) as { code: number | null; signal: NodeJS.Signals | null };
      this.end(code, signal);
      // The helper has ended its side; ending ours closes the connection (half-open, it stayed open for good).
      sock.end();
    } else if (type === FRAME_ERROR) {
      const { message, code } = JSON.parse(payload.toString('utf8')) as { message: string; code?: string };
      this.fail(Object.assign(new Error(message), { code }));
      sock.end();
    }
  }

  /** Exit, then — once both output streams have been read to their end — close, as a child process does. */
  private end(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.finished) return;
    this.finished = true;
    this.stdin.resume(); // what the caller still writes is dropped
    this.emit('exit', code, signal);
    let open = 2;
    const closed = () => {
      if (--open === 0) this.emit('close', code, signal);
    };
    for (const s of [this.stdout, this.stderr]) {
      s.once('end', closed);
      s.end();
    }
  }

  private fail(err: Error): void {
    if (this.finished) return;
    this.finished = true;
    this.stdin.resume();
    this.emit('error', err);
    this.stdout.end();
    this.stderr.end();
    this.emit('close', null, null);
  }
}

/** Starts git (or any program) through the helper. */
export function spawnViaHelper(spec: SpawnSpec): GitChild {
  return new HelperChild(spec);
}
