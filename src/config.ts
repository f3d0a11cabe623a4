// The only reader of process.env: every setting anvil has, typed and checked once at start.
import { hostname } from 'node:os';
import { resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Always ends with a slash, e.g. http://localhost:3000/ */
  rootUrl: string;
  logLevel: string;
  /** LOG_FORMAT: `json` (one object a line, the default) or `pretty` (pino-pretty, for a person at a terminal). */
  logFormat: 'json' | 'pretty';
  /** Gitea's `[metrics]`: GET /metrics in Prometheus' format. */
  metrics: MetricsConfig;
  admin: { username?: string; password?: string; email?: string };
  /**
   * SECRET_KEY: what Actions secrets are encrypted with (AES-256-GCM under a key derived from it). Unset:
   * a key generated into `$DATA_DIR/secret_key` on first start (the first of several processes wins).
   * SECRET_KEY_PREVIOUS: the key before a rotation; secrets still under it are re-encrypted at start.
   */
  secretKey: string | undefined;
  secretKeyPrevious: string | undefined;
  pageSize: { default: number; max: number };
  bodyLimitBytes: number;
  /** Domain of the placeholder e-mail shown instead of hidden addresses. */
  noReplyDomain: string;
  minPasswordLength: number;
  /** log2 of scrypt's N for new password hashes (tests use a cheap one; existing hashes keep theirs). */
  passwordHashCost: number;
  /** MAX_CREATION_LIMIT: repositories an owner may have when their own max_repo_creation is -1; -1: no limit. */
  maxCreationLimit: number;
  /** Whether plain users may create organizations (admins always may). */
  allowCreateOrganization: boolean;
  /**
   * DISABLE_GIT_HOOKS (Gitea's `[security]`, true by default): false lets site administrators and users
   * given `allow_git_hook` write repositories' pre-receive, update and post-receive hooks, which pushes
   * then run on the server (docs/repository.md). While true no hook can be written and none is run.
   */
  disableGitHooks: boolean;
  attachment: AttachmentConfig;
  /** Where each kind of blob is kept (Gitea's [storage], [attachment], [lfs], [avatar], [repo-avatar], [actions_log], [actions_artifacts]). */
  storage: Record<StorageKind, StorageSettings>;
  lfs: LfsConfig;
  packages: PackagesConfig;
  /** Gitea's `[repository.release]`: RELEASE_ALLOWED_TYPES, the release assets' own allow-list (empty: any type). */
  release: { allowedTypes: string };
  /**
   * Gitea's `[repository.pull-request]` CLOSE_KEYWORDS and REOPEN_KEYWORDS: the words that, just before an
   * issue reference (`fixes #12`), make a pushed commit or a merged pull request close or reopen it.
   * Comma-separated, case-insensitive, letters only; unset: Gitea's English defaults; empty: none.
   */
  issueKeywords: { close: string[]; reopen: string[] };
  /** Gitea's `[repository.signing]`: the key anvil signs the commits it writes with, and when (docs/signing.md). */
  signing: SigningConfig;
  webhook: WebhookConfig;
  /** Gitea's `[migrations]` and `[mirror]` (#39): which hosts migrations and mirrors may reach, and mirror intervals. */
  migrations: MigrationsConfig;
  cron: CronConfig;
  ssh: SshConfig;
  actions: ActionsConfig;
  /** The built-in runner (`npm run cli -- runner`, or started by the server with RUNNER_BUILTIN=true). */
  runner: RunnerConfig;
  /** Gitea's `[oauth2]` section: the OAuth2/OpenID Connect provider (#36, docs/oauth2.md). */
  oauth2: OAuth2Config;
  /** SESSION_LIFETIME_HOURS: how long a browser's sign-in lasts (the session cookie's row). */
  sessionLifetimeMs: number;
  /** How often the auto-merge worker looks at scheduled merges (PULL_AUTO_MERGE_POLL_INTERVAL_MS); a status reported to this process wakes it at once. */
  autoMergePollMs: number;
  /**
   * Work a process leaves half-done when it dies (pushes whose events are not recorded yet, repository
   * folders moved around a transaction): each is a row leased by the process doing it, renewed while it
   * runs; past the lease any live process takes it over.
   */
  leftovers: {
    /** LEFTOVERS_LEASE_SECONDS: how long a silent process keeps its half-done work. */
    leaseMs: number;
    /** LEFTOVERS_POLL_INTERVAL_MS: how often each process looks for lapsed leases. */
    pollIntervalMs: number;
    /**
     * ANVIL_TEST_CRASH_AFTER_PUSH=1, for tests only: the process kills itself (SIGKILL) once git has
     * finished a push and before it is recorded, as a crash at the worst moment would.
     */
    crashAfterPush: boolean;
    /**
     * ANVIL_TEST_CRASH_AFTER_MIRROR_FETCH=1, for tests only: the process kills itself (SIGKILL) once a
     * pull mirror's fetch moved its refs and before the changes are recorded.
     */
    crashAfterMirrorFetch: boolean;
    /**
     * ANVIL_TEST_CRASH_MID_MIGRATION=1, for tests only: the process kills itself (SIGKILL) once a
     * migration has read its source and before it writes anything.
     */
    crashMidMigration: boolean;
  };
}

/** When a kind of commit anvil writes is signed: Gitea's `INITIAL_COMMIT`, `CRUD_ACTIONS`, `WIKI`, `MERGES` values. */
export type SigningRule = 'never' | 'always' | 'pubkey' | 'twofa' | 'parentsigned' | 'basesigned' | 'headsigned' | 'commitssigned' | 'approved';

export interface SigningConfig {
  /**
   * SIGNING_KEY: the path of the private key file (an armored OpenPGP secret key, or an unencrypted
   * OpenSSH ed25519 private key); unset, `none` or `default` (Gitea's git-config key, which anvil's git
   * has none of): no key, and nothing is signed.
   */
  keyFile: string | undefined;
  /** SIGNING_FORMAT: `openpgp` or `ssh`; unset: what the key file holds. */
  format: 'openpgp' | 'ssh' | undefined;
  /** SIGNING_KEY_PASSPHRASE: the OpenPGP secret key's passphrase, when it has one. */
  passphrase: string | undefined;
  /** SIGNING_NAME, SIGNING_EMAIL: who the key's signatures are reported as (OpenPGP: the key's first user id by default). */
  name: string | undefined;
  email: string | undefined;
  initialCommit: SigningRule[];
  crudActions: SigningRule[];
  wiki: SigningRule[];
  merges: SigningRule[];
}

export interface MetricsConfig {
  /** METRICS_ENABLED=true serves /metrics; otherwise it answers 404. */
  enabled: boolean;
  /** METRICS_TOKEN: when set, /metrics wants `Authorization: Bearer <token>` (401 otherwise). */
  token: string | undefined;
}

export interface RunnerConfig {
  /** RUNNER_BUILTIN=true: the server starts the built-in runner itself, registered with the site's token. */
  builtin: boolean;
  /** RUNNER_NAME (default: the host's name). */
  name: string;
  /** RUNNER_LABELS, comma-separated (default ubuntu-latest,ubuntu-22.04,linux,self-hosted). */
  labels: string[];
  /** RUNNER_DIR: its credentials (.runner) and work folders (default $DATA_DIR/runner). */
  dir: string;
  /** RUNNER_INSTANCE: the server it talks to (default ROOT_URL). */
  instance: string;
  /** RUNNER_FETCH_INTERVAL_MS: how often it asks for a job (default 2000, as act_runner). */
  fetchIntervalMs: number;
}

/** Gitea's `[oauth2]` section. */
export interface OAuth2Config {
  /** OAUTH2_ENABLED=false: no provider (its paths answer 404) and OAuth2 tokens are not accepted. */
  enabled: boolean;
  /** OAUTH2_ACCESS_TOKEN_EXPIRATION_TIME (seconds, 3600). */
  accessTokenTtlS: number;
  /** OAUTH2_REFRESH_TOKEN_EXPIRATION_TIME (hours, 730). */
  refreshTokenTtlS: number;
  /** OAUTH2_DEFAULT_APPLICATIONS: which of Gitea's built-in public clients exist (comma-separated). */
  defaultApplications: string[];
}

/** Gitea's `[actions]` section: workflow runs and the runner protocol. */
export interface ActionsConfig {
  /** ACTIONS_ENABLED=false: no runs are made and the runner protocol answers 404. */
  enabled: boolean;
  /** ACTIONS_TRIGGER_WORKER_ENABLED: whether this process turns pushes into runs (several may). */
  workerEnabled: boolean;
  /** How often an idle trigger worker looks for queued pushes (ACTIONS_POLL_INTERVAL_MS). */
  pollIntervalMs: number;
  /** A claimed trigger's lease: past it, another worker may take it. */
  leaseMs: number;
  /** ACTIONS_DEFAULT_ACTIONS_URL: where runners fetch `uses:` actions without a host (Gitea's DEFAULT_ACTIONS_URL). */
  defaultActionsUrl: string;
  /** ACTIONS_ZOMBIE_TASK_TIMEOUT (minutes): a running task not heard from for this long fails (stop_zombie_tasks). */
  zombieTaskTimeoutMs: number;
  /** ACTIONS_ENDLESS_TASK_TIMEOUT (minutes): a task running for this long fails (stop_endless_tasks). */
  endlessTaskTimeoutMs: number;
  /** ACTIONS_ABANDONED_JOB_TIMEOUT (hours): a job no runner took for this long is cancelled (cancel_abandoned_jobs). */
  abandonedJobTimeoutMs: number;
  /** ACTIONS_RETENTION_DAYS: ended runs and their logs older than this are deleted (cleanup_actions). */
  retentionDays: number;
  /** ACTIONS_ARTIFACT_RETENTION_DAYS: how long an artifact is kept when its upload names no shorter time (Gitea: 90). */
  artifactRetentionDays: number;
  /** ACTIONS_OFFLINE_RUNNER_TIMEOUT (hours): runners offline for this long are deleted (cleanup_offline_runners). */
  offlineRunnerTimeoutMs: number;
}

/** The built-in SSH server for git (Gitea's `[server]` SSH settings). */
export interface SshConfig {
  /** SSH_DISABLED=true turns it off. */
  enabled: boolean;
  /** SSH_PORT (2222): where it listens and what ssh_url names. */
  port: number;
  /** SSH_LISTEN_HOST: the address it listens on (HOST by default). */
  listenHost: string;
  /** SSH_DOMAIN: the host ssh_url names (ROOT_URL's host by default). */
  domain: string;
}

/** Gitea's `[cron]` sections: the scheduler, and per task its schedule, switch and start-up run. */
export interface CronConfig {
  /** CRON_ENABLED: whether this process runs the scheduler (tasks still run when asked for). */
  enabled: boolean;
  /** CRON_<TASK>_SCHEDULE, CRON_<TASK>_ENABLED, CRON_<TASK>_RUN_AT_START, by lower-case task name (checked against the tasks at start). */
  tasks: Record<string, { schedule?: string; enabled?: boolean; runAtStart?: boolean }>;
  /** CRON_REPO_HEALTH_CHECK_TIMEOUT (seconds): how long one repository's fsck may take. */
  healthCheckTimeoutMs: number;
  /** CRON_DELETE_INACTIVE_ACCOUNTS_OLDER_THAN (hours): never-activated accounts older than this go. */
  inactiveAccountsOlderThanMs: number;
  /** CRON_DELETE_OLD_ACTIONS_OLDER_THAN (hours): feed rows older than this go. */
  oldActionsOlderThanMs: number;
  /** CRON_ARCHIVE_CLEANUP_OLDER_THAN (hours): abandoned temporary files older than this go. */
  tmpFilesOlderThanMs: number;
}

export interface MigrationsConfig {
  /** MIGRATIONS_ALLOWED_DOMAINS: host globs a migration may reach (empty: any not blocked). */
  allowedDomains: string;
  /** MIGRATIONS_BLOCKED_DOMAINS: host globs refused. */
  blockedDomains: string;
  /** MIGRATIONS_ALLOW_LOCALNETWORKS: private and loopback addresses (refused by default). */
  allowLocalNetworks: boolean;
  /** MIRROR_DEFAULT_INTERVAL / MIRROR_MIN_INTERVAL, in seconds. */
  mirrorDefaultIntervalS: number;
  mirrorMinIntervalS: number;
  /** MIRROR_LEASE_SECONDS: how long a sync holds its mirror before another process may take it. */
  mirrorLeaseMs: number;
}

/** Webhook delivery (Gitea's `[webhook]` section, plus anvil's retries and retention). */
export interface WebhookConfig {
  /** WEBHOOK_ALLOWED_HOST_LIST: `external`, `private`, `loopback`, `*`, host globs and CIDRs, comma-separated. */
  allowedHostList: string;
  deliverTimeoutMs: number;
  /** First retry after this long, doubling up to `retryMaxMs`, for `retryWindowMs` after the delivery was made. */
  retryBaseMs: number;
  retryMaxMs: number;
  retryWindowMs: number;
  /** How often an idle worker looks for due deliveries. */
  pollIntervalMs: number;
  /** A delivery's lease: past it, another worker may take the delivery. */
  leaseMs: number;
  retentionDays: number;
  /** WEBHOOK_DELIVERY_ENABLED: whether this process runs the delivery worker (several may; none delivers if all are off). */
  deliveryEnabled: boolean;
}

/** Gitea's `[attachment]` section: uploads to issues and comments. */
export interface AttachmentConfig {
  /** When false, the attachment operations answer 404 (Gitea's mustEnableAttachments). */
  enabled: boolean;
  /** Comma-separated extensions (`.zip`) and MIME patterns (`image/*`); empty or `*\/*` allows any type. */
  allowedTypes: string;
  /** Largest file, in MiB (as Gitea's MAX_SIZE). */
  maxSizeMiB: number;
  maxFiles: number;
}

/** The kinds of blob, each stored where its settings say (by default `$DATA_DIR/<kind>`). */
export const storageKinds = ['attachments', 'avatars', 'repo-avatars', 'lfs', 'actions_log', 'actions_artifacts', 'packages'] as const;
export type StorageKind = (typeof storageKinds)[number];

/** The environment prefix of each kind's section, as Gitea names its sections. */
const storagePrefix: Record<StorageKind, string> = {
  attachments: 'ATTACHMENT', avatars: 'AVATAR', 'repo-avatars': 'REPO_AVATAR', lfs: 'LFS', actions_log: 'ACTIONS_LOG', actions_artifacts: 'ACTIONS_ARTIFACTS', packages: 'PACKAGES',
};

/** One kind's storage: `<PREFIX>_STORAGE_TYPE`, `<PREFIX>_PATH`, `<PREFIX>_SERVE_DIRECT`, `<PREFIX>_MINIO_*`, each falling back to `STORAGE_*`. */
export interface StorageSettings {
  /** `local` (a folder, default) or `minio` (S3-compatible object storage). */
  type: 'local' | 'minio';
  /** The folder of a local store (`$DATA_DIR/<kind>` by default). */
  path: string;
  /** Downloads are redirects to presigned URLs (minio only). */
  serveDirect: boolean;
  minio: {
    endpoint: string;
    accessKeyId: string;
    secretAccessKey: string;
    bucket: string;
    location: string;
    useSsl: boolean;
    basePath: string;
  };
}

/** Gitea's [packages] settings: sizes in bytes, -1 for no limit. */
export interface PackagesConfig {
  /** PACKAGES_ENABLED: whether the registry answers (it does by default). */
  enabled: boolean;
  /** PACKAGES_LIMIT_TOTAL_OWNER_COUNT: the most versions an owner may have. */
  limitTotalOwnerCount: number;
  /** PACKAGES_LIMIT_TOTAL_OWNER_SIZE: the most bytes of files an owner may have. */
  limitTotalOwnerSize: number;
  /** PACKAGES_LIMIT_SIZE_<TYPE> (GENERIC, NPM, PYPI, CONTAINER): the largest file of that type. */
  limitSize: Record<string, number>;
}

/** Gitea's LFS settings ([server] LFS_*). */
export interface LfsConfig {
  /** LFS_START_SERVER: whether the LFS server answers (it does by default). */
  enabled: boolean;
  /** LFS_MAX_FILE_SIZE: the largest object accepted, in bytes; 0 for no limit. */
  maxFileSize: number;
  /** LFS_JWT_SECRET: signs the tokens git-lfs-authenticate hands out (made once into $DATA_DIR when empty). */
  jwtSecret: string | undefined;
  /** LFS_HTTP_AUTH_EXPIRY (minutes): how long such a token lives. */
  authExpiryMs: number;
  /** LFS_LOCKS_PAGING_NUM: the most locks one list answer holds. */
  locksPagingNum: number;
}

function storageSettings(env: Env, dataDir: string, kind: StorageKind): StorageSettings {
  const p = storagePrefix[kind];
  const pick = (key: string) => env[`${p}_${key}`] || env[`STORAGE_${key}`] || undefined;
  const type = (pick('STORAGE_TYPE') || env.STORAGE_TYPE || 'local').toLowerCase();
  if (type !== 'local' && type !== 'minio') throw new ConfigError(`${p}_STORAGE_TYPE must be local or minio, got "${type}"`);
  const flag = (key: string, dflt: boolean) => {
    const name = env[`${p}_${key}`] ? `${p}_${key}` : `STORAGE_${key}`;
    return bool(env, name, dflt);
  };
  const minio = {
    endpoint: pick('MINIO_ENDPOINT') || 'localhost:9000',
    accessKeyId: pick('MINIO_ACCESS_KEY_ID') || '',
    secretAccessKey: pick('MINIO_SECRET_ACCESS_KEY') || '',
    bucket: pick('MINIO_BUCKET') || 'anvil',
    location: pick('MINIO_LOCATION') || 'us-east-1',
    useSsl: flag('MINIO_USE_SSL', false),
    // The kind's own base path, else `<kind>/` (a shared STORAGE_MINIO_BASE_PATH prefixes it).
    basePath: env[`${p}_MINIO_BASE_PATH`] ?? `${env.STORAGE_MINIO_BASE_PATH ?? ''}${kind}/`,
  };
  if (type === 'minio' && (!minio.accessKeyId || !minio.secretAccessKey)) {
    throw new ConfigError(`${p}_STORAGE_TYPE is minio: ${p}_MINIO_ACCESS_KEY_ID and ${p}_MINIO_SECRET_ACCESS_KEY (or STORAGE_MINIO_*) are needed`);
  }
  return {
    type,
    path: resolve(dataDir, env[`${p}_PATH`] || kind),
    serveDirect: type === 'minio' && flag('SERVE_DIRECT', false),
    minio,
  };
}

/** Gitea's default `[attachment] ALLOWED_TYPES`. */
export const defaultAllowedTypes =
  '.avif,.cpuprofile,.csv,.dmp,.docx,.fodg,.fodp,.fods,.fodt,.gif,.gz,.jpeg,.jpg,.json,.jsonc,.log,.md,.mov,.mp4,.odf,.odg,.odp,.ods,.odt,.patch,.pdf,.png,.pptx,.svg,.tgz,.txt,.webm,.webp,.xls,.xlsx,.zip';

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, dflt: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
}

function cronTasks(env: Env): CronConfig['tasks'] {
  const tasks: CronConfig['tasks'] = {};
  for (const [key, value] of Object.entries(env)) {
    const m = /^CRON_([A-Z0-9_]+?)_(SCHEDULE|ENABLED|RUN_AT_START)$/.exec(key);
    if (!m || value === undefined || value === '') continue;
    const [, upper, what] = m;
    const t = (tasks[upper!.toLowerCase()] ??= {});
    if (what === 'SCHEDULE') t.schedule = value.trim();
    else if (what === 'ENABLED') t.enabled = bool(env, key, true);
    else t.runAtStart = bool(env, key, false);
  }
  return tasks;
}

function bool(env: Env, name: string, dflt: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return dflt;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

/** A comma-separated list of words (Gitea's parseKeywords: Unicode letters only, lower-cased). */
function keywords(env: Env, name: string, dflt: string): string[] {
  const words = (env[name] ?? dflt).split(',').map((w) => w.trim().toLowerCase()).filter(Boolean);
  const bad = words.find((w) => !/^\p{L}+$/u.test(w));
  if (bad !== undefined) throw new ConfigError(`${name} must list words of letters only, separated by commas; got "${bad}"`);
  return [...new Set(words)];
}

const signingRules = ['never', 'always', 'pubkey', 'twofa', 'parentsigned', 'basesigned', 'headsigned', 'commitssigned', 'approved'] as const;

/** A comma-separated rule list as Gitea reads it: `never` or `always` anywhere is the whole answer; none at all is `never`. */
function rules(env: Env, name: string, dflt: string): SigningRule[] {
  const out: SigningRule[] = [];
  for (const raw of (env[name] ?? dflt).split(',')) {
    const rule = raw.trim().toLowerCase();
    if (!rule) continue;
    if (!(signingRules as readonly string[]).includes(rule)) throw new ConfigError(`${name} may list ${signingRules.join(', ')}; got "${raw.trim()}"`);
    if (rule === 'never' || rule === 'always') return [rule];
    out.push(rule as SigningRule);
  }
  return out.length ? out : ['never'];
}

function signingConfig(env: Env): SigningConfig {
  const key = env.SIGNING_KEY?.trim();
  const format = env.SIGNING_FORMAT?.trim().toLowerCase() || undefined;
  if (format !== undefined && format !== 'openpgp' && format !== 'ssh') throw new ConfigError(`SIGNING_FORMAT must be openpgp or ssh, got "${env.SIGNING_FORMAT}"`);
  return {
    keyFile: !key || key === 'none' || key === 'default' ? undefined : resolve(key),
    format,
    passphrase: env.SIGNING_KEY_PASSPHRASE || undefined,
    name: env.SIGNING_NAME || undefined,
    email: env.SIGNING_EMAIL || undefined,
    initialCommit: rules(env, 'SIGNING_INITIAL_COMMIT', 'always'),
    crudActions: rules(env, 'SIGNING_CRUD_ACTIONS', 'pubkey, twofa, parentsigned'),
    wiki: rules(env, 'SIGNING_WIKI', 'never'),
    merges: rules(env, 'SIGNING_MERGES', 'pubkey, twofa, basesigned, commitssigned'),
  };
}

function logFormat(env: Env): Config['logFormat'] {
  const raw = (env.LOG_FORMAT || 'json').toLowerCase();
  if (raw !== 'json' && raw !== 'pretty') throw new ConfigError(`LOG_FORMAT must be json or pretty, got "${env.LOG_FORMAT}"`);
  return raw;
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000);
  let rootUrl = env.ROOT_URL || `http://localhost:${port}/`;
  try {
    new URL(rootUrl);
  } catch {
    throw new ConfigError(`ROOT_URL must be an absolute URL, got "${rootUrl}"`);
  }
  if (!rootUrl.endsWith('/')) rootUrl += '/';
  const pageMax = int(env, 'MAX_PAGE_SIZE', 50, 1);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    rootUrl,
    logLevel: env.LOG_LEVEL || 'info',
    logFormat: logFormat(env),
    metrics: { enabled: bool(env, 'METRICS_ENABLED', false), token: env.METRICS_TOKEN || undefined },
    admin: { username: env.ADMIN_USERNAME, password: env.ADMIN_PASSWORD, email: env.ADMIN_EMAIL },
    secretKey: env.SECRET_KEY || undefined,
    secretKeyPrevious: env.SECRET_KEY_PREVIOUS || undefined,
    pageSize: { default: Math.min(int(env, 'DEFAULT_PAGE_SIZE', 30, 1), pageMax), max: pageMax },
    bodyLimitBytes: int(env, 'MAX_BODY_SIZE', 10 * 1024 * 1024, 1024),
    noReplyDomain: env.NO_REPLY_DOMAIN || `noreply.${new URL(rootUrl).hostname}`,
    minPasswordLength: int(env, 'MIN_PASSWORD_LENGTH', 8, 1),
    passwordHashCost: Math.min(int(env, 'PASSWORD_HASH_COST', 15, 10), 20),
    allowCreateOrganization: bool(env, 'ALLOW_CREATE_ORGANIZATION', true),
    disableGitHooks: bool(env, 'DISABLE_GIT_HOOKS', true),
    maxCreationLimit: int(env, 'MAX_CREATION_LIMIT', -1, -1),
    attachment: {
      enabled: bool(env, 'ATTACHMENT_ENABLED', true),
      allowedTypes: env.ATTACHMENT_ALLOWED_TYPES ?? defaultAllowedTypes,
      maxSizeMiB: int(env, 'ATTACHMENT_MAX_SIZE', 4, 1),
      maxFiles: int(env, 'ATTACHMENT_MAX_FILES', 5, 1),
    },
    storage: Object.fromEntries(storageKinds.map((k) => [k, storageSettings(env, resolve(env.DATA_DIR || './data'), k)])) as Record<StorageKind, StorageSettings>,
    lfs: {
      enabled: bool(env, 'LFS_START_SERVER', true),
      maxFileSize: int(env, 'LFS_MAX_FILE_SIZE', 0, 0),
      jwtSecret: env.LFS_JWT_SECRET || undefined,
      authExpiryMs: int(env, 'LFS_HTTP_AUTH_EXPIRY', 24 * 60, 1) * 60_000,
      locksPagingNum: int(env, 'LFS_LOCKS_PAGING_NUM', 50, 1),
    },
    packages: {
      enabled: bool(env, 'PACKAGES_ENABLED', true),
      limitTotalOwnerCount: int(env, 'PACKAGES_LIMIT_TOTAL_OWNER_COUNT', -1, -1),
      limitTotalOwnerSize: int(env, 'PACKAGES_LIMIT_TOTAL_OWNER_SIZE', -1, -1),
      limitSize: Object.fromEntries(['generic', 'npm', 'pypi', 'container'].map((t) => [t, int(env, `PACKAGES_LIMIT_SIZE_${t.toUpperCase()}`, -1, -1)])),
    },
    release: { allowedTypes: env.RELEASE_ALLOWED_TYPES ?? '' },
    issueKeywords: {
      close: keywords(env, 'CLOSE_KEYWORDS', 'close,closes,closed,fix,fixes,fixed,resolve,resolves,resolved'),
      reopen: keywords(env, 'REOPEN_KEYWORDS', 'reopen,reopens,reopened'),
    },
    signing: signingConfig(env),
    webhook: {
      allowedHostList: env.WEBHOOK_ALLOWED_HOST_LIST?.trim() || 'external',
      deliverTimeoutMs: int(env, 'WEBHOOK_DELIVER_TIMEOUT', 5, 1) * 1000,
      retryBaseMs: int(env, 'WEBHOOK_RETRY_BASE_MS', 10_000, 1),
      retryMaxMs: int(env, 'WEBHOOK_RETRY_MAX_MS', 6 * 3600_000, 1),
      retryWindowMs: int(env, 'WEBHOOK_RETRY_WINDOW_HOURS', 24, 0) * 3600_000,
      pollIntervalMs: int(env, 'WEBHOOK_POLL_INTERVAL_MS', 1000, 10),
      leaseMs: int(env, 'WEBHOOK_LEASE_SECONDS', 60, 1) * 1000,
      retentionDays: int(env, 'WEBHOOK_DELIVERY_RETENTION_DAYS', 7, 0),
      deliveryEnabled: bool(env, 'WEBHOOK_DELIVERY_ENABLED', true),
    },
    migrations: {
      allowedDomains: env.MIGRATIONS_ALLOWED_DOMAINS ?? '',
      blockedDomains: env.MIGRATIONS_BLOCKED_DOMAINS ?? '',
      allowLocalNetworks: bool(env, 'MIGRATIONS_ALLOW_LOCALNETWORKS', false),
      mirrorDefaultIntervalS: int(env, 'MIRROR_DEFAULT_INTERVAL', 8 * 3600, 0),
      mirrorMinIntervalS: int(env, 'MIRROR_MIN_INTERVAL', 600, 0),
      mirrorLeaseMs: int(env, 'MIRROR_LEASE_SECONDS', 600, 1) * 1000,
    },
    oauth2: {
      enabled: bool(env, 'OAUTH2_ENABLED', true),
      accessTokenTtlS: int(env, 'OAUTH2_ACCESS_TOKEN_EXPIRATION_TIME', 3600, 1),
      refreshTokenTtlS: int(env, 'OAUTH2_REFRESH_TOKEN_EXPIRATION_TIME', 730, 1) * 3600,
      defaultApplications: (env.OAUTH2_DEFAULT_APPLICATIONS ?? 'git-credential-oauth,git-credential-manager,tea')
        .split(',').map((s) => s.trim()).filter(Boolean),
    },
    sessionLifetimeMs: int(env, 'SESSION_LIFETIME_HOURS', 24 * 7, 1) * 3600_000,
    autoMergePollMs: int(env, 'PULL_AUTO_MERGE_POLL_INTERVAL_MS', 10_000, 10),
    leftovers: {
      leaseMs: int(env, 'LEFTOVERS_LEASE_SECONDS', 10, 1) * 1000,
      pollIntervalMs: int(env, 'LEFTOVERS_POLL_INTERVAL_MS', 1000, 10),
      crashAfterPush: bool(env, 'ANVIL_TEST_CRASH_AFTER_PUSH', false),
      crashAfterMirrorFetch: bool(env, 'ANVIL_TEST_CRASH_AFTER_MIRROR_FETCH', false),
      crashMidMigration: bool(env, 'ANVIL_TEST_CRASH_MID_MIGRATION', false),
    },
    actions: {
      enabled: bool(env, 'ACTIONS_ENABLED', true),
      workerEnabled: bool(env, 'ACTIONS_TRIGGER_WORKER_ENABLED', true),
      pollIntervalMs: int(env, 'ACTIONS_POLL_INTERVAL_MS', 1000, 10),
      leaseMs: int(env, 'ACTIONS_LEASE_SECONDS', 60, 1) * 1000,
      defaultActionsUrl: env.ACTIONS_DEFAULT_ACTIONS_URL?.trim() || 'https://github.com',
      zombieTaskTimeoutMs: int(env, 'ACTIONS_ZOMBIE_TASK_TIMEOUT', 10, 1) * 60_000,
      endlessTaskTimeoutMs: int(env, 'ACTIONS_ENDLESS_TASK_TIMEOUT', 180, 1) * 60_000,
      abandonedJobTimeoutMs: int(env, 'ACTIONS_ABANDONED_JOB_TIMEOUT', 24, 1) * 3600_000,
      retentionDays: int(env, 'ACTIONS_RETENTION_DAYS', 365, 1),
      offlineRunnerTimeoutMs: int(env, 'ACTIONS_OFFLINE_RUNNER_TIMEOUT', 24, 1) * 3600_000,
      artifactRetentionDays: int(env, 'ACTIONS_ARTIFACT_RETENTION_DAYS', 90, 1),
    },
    runner: {
      builtin: bool(env, 'RUNNER_BUILTIN', false),
      name: env.RUNNER_NAME?.trim() || hostname(),
      labels: (env.RUNNER_LABELS?.trim() || 'ubuntu-latest,ubuntu-22.04,linux,self-hosted').split(',').map((l) => l.trim()).filter(Boolean),
      dir: resolve(env.RUNNER_DIR || resolve(env.DATA_DIR || './data', 'runner')),
      instance: env.RUNNER_INSTANCE?.trim() || rootUrl,
      fetchIntervalMs: int(env, 'RUNNER_FETCH_INTERVAL_MS', 2000, 10),
    },
    ssh: {
      enabled: !bool(env, 'SSH_DISABLED', false),
      port: int(env, 'SSH_PORT', 2222, 1),
      listenHost: env.SSH_LISTEN_HOST || env.HOST || '0.0.0.0',
      domain: env.SSH_DOMAIN || new URL(rootUrl).hostname,
    },
    cron: {
      enabled: bool(env, 'CRON_ENABLED', true),
      tasks: cronTasks(env),
      healthCheckTimeoutMs: int(env, 'CRON_REPO_HEALTH_CHECK_TIMEOUT', 60, 1) * 1000,
      inactiveAccountsOlderThanMs: int(env, 'CRON_DELETE_INACTIVE_ACCOUNTS_OLDER_THAN', 72, 0) * 3600_000,
      oldActionsOlderThanMs: int(env, 'CRON_DELETE_OLD_ACTIONS_OLDER_THAN', 365 * 24, 0) * 3600_000,
      tmpFilesOlderThanMs: int(env, 'CRON_ARCHIVE_CLEANUP_OLDER_THAN', 24, 0) * 3600_000,
    },
  };
}
