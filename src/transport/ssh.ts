// git over SSH (ssh2): the server answers `git-upload-pack` and `git-receive-pack` for a repository and
// nothing else. A client signs in with a public key anvil knows — a user's key acts as that user, a
// deploy key reaches its repository alone (GitTransportService.openForKey) — under any user name (`git`).
// The host key is made once into $DATA_DIR/ssh. ssh2 is loaded only when the server starts.
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type ssh2Types from 'ssh2';
import type { Config } from '../config.js';
import { isGitService, type GitService } from '../git/smartHttp.js';
import { DomainError, NotFound, Unauthorized } from '../services/errors.js';
import type { KeyHolder } from '../services/git/gitTransport.js';
import type { Services } from '../services/index.js';

export interface SshServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The host key, made on first start. Processes sharing DATA_DIR and starting together must end up with one
 * key (clients would see it change between them): each writes its candidate to a file of its own and links
 * it into place, which only the first link does; the others read the winner's.
 */
export function hostKey(dataDir: string, utils: typeof ssh2Types.utils): Buffer {
  const dir = join(dataDir, 'ssh');
  const file = join(dir, 'anvil_host_ed25519');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    // ssh2's ed25519 generator strips a public key's leading zero bytes, so about 1 key in 256 is one that
    // ssh2 itself then refuses ("Malformed OpenSSH private key", mscdex/ssh2#1390): the server would never
    // start on that data folder. Such a key is never written; another is made.
    let pair = utils.generateKeyPairSync('ed25519');
    while (utils.parseKey(pair.private) instanceof Error || utils.parseKey(pair.public) instanceof Error) pair = utils.generateKeyPairSync('ed25519');
    const candidate = join(dir, `.anvil_host_ed25519.${process.pid}.${randomBytes(6).toString('hex')}`);
    writeFileSync(candidate, pair.private, { mode: 0o600 });
    chmodSync(candidate, 0o600);
    try {
      linkSync(candidate, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      unlinkSync(candidate);
    }
  }
  return readFileSync(file);
}

/**
 * `git-upload-pack '/owner/repo.git'` (and the forms git and its users send: without the slash or the
 * quotes or `.git`, `git upload-pack`) → the service and the repository; anything else undefined.
 */
export function parseGitCommand(command: string): { service: GitService; owner: string; repo: string } | undefined {
  const m = /^git[- ](upload-pack|receive-pack) +'?\/?([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?'?$/.exec(command.trim());
  if (!m) return undefined;
  const service = `git-${m[1]}`;
  return isGitService(service) ? { service, owner: m[2]!, repo: m[3]! } : undefined;
}

/** `git-lfs-authenticate 'owner/repo.git' download` (or `git-lfs-transfer …`) → its parts; anything else undefined. */
export function parseLfsCommand(command: string): { command: 'git-lfs-authenticate' | 'git-lfs-transfer'; owner: string; repo: string; operation: 'upload' | 'download' } | undefined {
  const m = /^(git-lfs-authenticate|git-lfs-transfer) +'?\/?([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?'? +(upload|download)$/.exec(command.trim());
  if (!m) return undefined;
  return { command: m[1] as 'git-lfs-authenticate' | 'git-lfs-transfer', owner: m[2]!, repo: m[3]!, operation: m[4] as 'upload' | 'download' };
}

/**
 * Opens the repository of a git command; an old name of a renamed or transferred repository (or of a
 * renamed owner) is followed silently to the current one, as Gitea's `serv` does, and opened with the same
 * checks, so a caller who may not reach it gets the same "not found" as for a missing one.
 */
async function openFollowingRedirect(services: Services, cmd: { service: GitService; owner: string; repo: string }, holder: KeyHolder) {
  try {
    return await services.gitTransport.openForKey(cmd.owner, cmd.repo, holder, cmd.service);
  } catch (err) {
    if (!(err instanceof NotFound || err instanceof Unauthorized)) throw err;
    const wiki = /\.wiki$/i.exec(cmd.repo)?.[0] ?? '';
    const moved = await services.redirects.resolveRepo(cmd.owner, cmd.repo.slice(0, cmd.repo.length - wiki.length));
    if (!moved) throw err;
    return services.gitTransport.openForKey(moved.owner, moved.name + wiki, holder, cmd.service);
  }
}

const fingerprintOf = (blob: Buffer) => `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;

export async function startSshServer(services: Services, config: Config, log: Logger, port = config.ssh.port): Promise<SshServer> {
  const { Server, utils } = (await import('ssh2')).default;
  const server = new Server({ hostKeys: [hostKey(config.dataDir, utils)], ident: 'anvil' }, (client) => {
    let holder: KeyHolder | undefined;
    client.on('error', (err) => log.debug({ err: err.message }, 'ssh client error'));
    client.on('authentication', (ctx) => {
      if (ctx.method !== 'publickey') return ctx.reject(['publickey']);
      void (async () => {
        const found = await services.keys.byFingerprint(fingerprintOf(ctx.key.data));
        if (!found) return ctx.reject(['publickey']);
        if (found.key.type === 'user' && (!found.owner || !found.owner.isActive || found.owner.prohibitLogin)) return ctx.reject(['publickey']);
        // Without a signature the client only asks whether the key would do.
        if (!ctx.signature || !ctx.blob) return ctx.accept();
        const parsed = utils.parseKey(found.key.content);
        if (parsed instanceof Error || !parsed.verify(ctx.blob, ctx.signature, ctx.hashAlgo)) return ctx.reject(['publickey']);
        holder = found.key.type === 'user' ? { kind: 'user', user: found.owner! } : { kind: 'deploy', keyId: found.key.id };
        ctx.accept();
      })().catch((err: Error) => {
        log.error({ err: err.message }, 'ssh authentication failed');
        ctx.reject(['publickey']);
      });
    });
    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        const session = acceptSession();
        let gitProtocol: string | undefined;
        session.on('env', (accept, _reject, info) => {
          if (info.key === 'GIT_PROTOCOL') gitProtocol = info.val;
          accept?.();
        });
        session.on('pty', (_accept, reject) => reject?.());
        session.on('shell', (_accept, reject) => reject?.());
        session.on('exec', (accept, _reject, info) => {
          const channel = accept();
          // A client that goes away mid-pack makes writes fail; servePack stops git then.
          channel.on('error', (err: Error) => log.debug({ err: err.message }, 'ssh channel error'));
          const fail = (message: string) => {
            channel.stderr.write(`anvil: ${message}\n`);
            channel.exit(1);
            channel.end();
          };
          const lfs = parseLfsCommand(info.command);
          if (lfs) {
            if (!holder) return fail('not signed in');
            // git-lfs 3 tries the pure-SSH transfer first and, when it fails, asks for HTTP credentials.
            if (lfs.command === 'git-lfs-transfer') return fail('git-lfs-transfer is not served here: use git-lfs-authenticate');
            void services.lfs.authenticateSsh(lfs.owner, lfs.repo, holder, lfs.operation).then((answer) => {
              channel.write(`${JSON.stringify(answer)}\n`);
              channel.exit(0);
              channel.end();
            }, (err: Error) => {
              if (!(err instanceof DomainError)) log.error({ err: err.message }, 'git-lfs-authenticate failed');
              fail(err instanceof DomainError ? err.message : 'internal error');
            });
            return;
          }
          const cmd = parseGitCommand(info.command);
          if (!cmd) return fail('only git-upload-pack, git-receive-pack and git-lfs-authenticate are served here');
          if (!holder) return fail('not signed in');
          void (async () => {
            const { loaded, pusher, deployKey } = await openFollowingRedirect(services, cmd, holder!);
            const code = await services.gitTransport.servePack(loaded, cmd.service, { input: channel, output: channel, errors: channel.stderr }, pusher, {
              gitProtocol,
              onError: (err) => log.warn({ err: err.message, repo: `${cmd.owner}/${cmd.repo}` }, 'git over ssh'),
            }, deployKey);
            channel.exit(code);
            channel.end();
          })().catch((err: Error) => {
            if (!(err instanceof DomainError)) log.error({ err: err.message }, 'git over ssh failed');
            fail(err instanceof DomainError ? err.message : 'internal error');
          });
        });
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, config.ssh.listenHost, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
