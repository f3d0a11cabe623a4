// Repositories generated from a template repository (Gitea's `POST /repos/{o}/{r}/generate`): a new
// repository made as any other (repoCreate.ts: scratch folder, journal, one transaction, the `created`
// event) with, as the caller chooses, the template's default branch as one new commit (`.gitea/template`
// expansion, templateExpansion.ts), its topics, labels, webhooks, branch protections, avatar and, when the
// site enables them, its git hooks. The
// template's git is read with no transaction open; everything the database gets is written in the
// creation's one transaction, so a failure leaves neither a row nor a folder (nor an avatar copy).
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { RepoRow, UserRow } from '../../db/schema/index.js';
import { copyCustomHooks } from '../../git/customHooks.js';
import { repoDir } from '../../git/paths.js';
import { branchHead, listTreeFiles, readBlobBinary, writeFirstCommit } from '../../git/templateCopy.js';
import { canRead, type RepoPermission } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, Invalid, NotFound } from '../errors.js';
import { signatureOf } from '../identity.js';
import type { OrgService } from '../orgs/orgs.js';
import type { UserService } from '../users/users.js';
import type { AccessService } from './access.js';
import type { LoadedRepo } from './loadedRepo.js';
import type { RepoAvatarService } from './repoAvatars.js';
import type { RepoService } from './repos.js';
import { MAX_EXPANDED_FILE, parseTemplateFile, planTemplate, variableMap, type TemplateRules } from './templateExpansion.js';
import type { CommitSigning } from '../keys/commitSigning.js';

export interface GenerateInput {
  owner: string;
  name: string;
  description?: string;
  defaultBranch?: string;
  private?: boolean;
  gitContent?: boolean;
  topics?: boolean;
  gitHooks?: boolean;
  webhooks?: boolean;
  avatar?: boolean;
  labels?: boolean;
  protectedBranch?: boolean;
}

export class TemplateService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly users: UserService,
    private readonly orgs: OrgService,
    private readonly repos: RepoService,
    private readonly avatars: RepoAvatarService,
    private readonly signing: CommitSigning,
  ) {}

  /**
   * Generates a repository for `input.owner` from the template `loaded`, in Gitea's order of checks:
   * the caller must read the template's code (403), it must be a template (422), at least one item must be
   * chosen (422); another owner than the caller must exist (404) and be an organization the caller may
   * create repositories in, unless the caller is a site administrator (403).
   */
  async generate(loaded: LoadedRepo, actor: UserRow, input: GenerateInput): Promise<{ repo: RepoRow; owner: UserRow; perm: RepoPermission }> {
    const template = loaded.repo;
    if (!canRead(loaded.perm, 'repo.code')) throw new Forbidden('user should have specific read permission or be a repo admin or a site admin');
    if (!template.isTemplate) throw new Invalid('this is not a template repo');
    const chosen = input.gitContent || input.topics || input.gitHooks || input.webhooks || input.avatar || input.labels || input.protectedBranch;
    if (!chosen) throw new Invalid('must select at least one template item');
    let owner = actor;
    if (input.owner.toLowerCase() !== actor.lowerName) {
      const found = await this.users.byName(input.owner);
      if (!found) throw new NotFound(`request owner \`${input.owner}\` does not exist`);
      if (!actor.isAdmin && found.type !== 'Organization') throw new Forbidden('Only admin can generate repository for other user.');
      if (!actor.isAdmin && !(await this.orgs.canCreateRepo(found, actor))) {
        throw new Forbidden('Given user is not allowed to create repository in organization.');
      }
      owner = found;
    }

    const { config } = this.deps;
    const templateDir = repoDir(config.dataDir, loaded.owner.name, template.name);
    const defaultBranch = input.defaultBranch?.trim() || template.defaultBranch;
    const avatar = input.avatar ? await this.avatars.copyOf(template) : undefined;
    const templateId = template.id;
    const content = !!input.gitContent && !template.isEmpty;
    // The template's git hooks (hooks/<name>.d/<name>), as Gitea copies them; with git hooks disabled none is written.
    const hooks = !!input.gitHooks && !config.disableGitHooks;
    try {
      const repo = await this.repos.create(owner, actor, {
        name: input.name,
        description: input.description ?? '',
        private: input.private ?? false,
        defaultBranch,
        trustModel: template.trustModel,
        objectFormat: template.objectFormat,
      }, {
        row: { templateId, ...(avatar ? { avatar } : {}), ...(input.topics ? { topics: template.topics } : {}) },
        fill: content || hooks
          ? async (scratch) => {
            if (hooks) copyCustomHooks(templateDir, scratch);
            return content ? this.fillFromTemplate(templateDir, scratch, loaded, owner, actor, input, defaultBranch) : false;
          }
          : undefined,
        inTx: (tx, row) => this.copyRows(tx, templateId, row.id, input),
      });
      return { repo, owner, perm: await this.access.repoPermission(repo, owner, actor) };
    } catch (err) {
      if (avatar) await this.avatars.discard(avatar);
      throw err;
    }
  }

  /** The template's default branch as the new repository's first commit; false when the template has none. */
  private async fillFromTemplate(
    templateDir: string, scratch: string, loaded: LoadedRepo, owner: UserRow, actor: UserRow, input: GenerateInput, defaultBranch: string,
  ): Promise<boolean> {
    const { config } = this.deps;
    const head = await branchHead(templateDir, loaded.repo.defaultBranch);
    if (!head) return false;
    const entries = await listTreeFiles(templateDir, head);
    const marker = entries.find((e) => e.path === '.gitea/template' && (e.mode === '100644' || e.mode === '100755') && e.size <= MAX_EXPANDED_FILE);
    let rules: TemplateRules | undefined;
    if (marker) rules = parseTemplateFile(await readBlobBinary(templateDir, marker.id));
    const link = (o: string, n: string) => `${new URL(config.rootUrl).pathname.replace(/\/$/, '')}/${encodeURIComponent(o)}/${encodeURIComponent(n)}`;
    const ssh = (o: string, n: string) => `ssh://git@${config.ssh.domain}${config.ssh.port === 22 ? '' : `:${config.ssh.port}`}/${o}/${n}.git`;
    const vars = variableMap({
      repoName: input.name, repoOwner: owner.name, repoDescription: input.description ?? '',
      repoLink: link(owner.name, input.name), repoHttpsUrl: `${config.rootUrl}${owner.name}/${input.name}.git`, repoSshUrl: ssh(owner.name, input.name),
      templateName: loaded.repo.name, templateOwner: loaded.owner.name, templateDescription: loaded.repo.description,
      templateLink: link(loaded.owner.name, loaded.repo.name), templateHttpsUrl: `${config.rootUrl}${loaded.owner.name}/${loaded.repo.name}.git`,
      templateSshUrl: ssh(loaded.owner.name, loaded.repo.name),
      now: new Date(),
    });
    const files = await planTemplate(
      entries.map((e) => ({ path: e.path, mode: e.mode, id: e.id })), rules, vars,
      async (e) => {
        const size = entries.find((x) => x.id === e.id)?.size ?? 0;
        return size > MAX_EXPANDED_FILE ? undefined : readBlobBinary(templateDir, e.id);
      },
    );
    // Gitea commits as the new repository's owner.
    // Signed as a first commit is (INITIAL_COMMIT), the rules asked about whoever generates it.
    const sign = await this.signing.signer('initialCommit', { actor, dir: scratch });
    await writeFirstCommit(templateDir, scratch, files, { branch: defaultBranch, message: 'Initial commit\n', author: signatureOf(owner, config), sign });
    return true;
  }

  /** The chosen rows of the template, copied in the creation's transaction (read there too: what they are at its commit). */
  private async copyRows(tx: Db, templateId: number, repoId: number, input: GenerateInput): Promise<void> {
    if (input.labels) {
      await tx.execute(sql`insert into labels (repo_id, name, color, description, exclusive)
        select ${repoId}, name, color, description, exclusive from labels where repo_id = ${templateId} order by id`);
    }
    if (input.webhooks) {
      await tx.execute(sql`insert into hooks (repo_id, name, type, url, content_type, http_method, secret, authorization_header, branch_filter, events, config, active)
        select ${repoId}, name, type, url, content_type, http_method, secret, authorization_header, branch_filter, events, config, active
        from hooks where repo_id = ${templateId} order by id`);
    }
    if (input.protectedBranch) {
      await tx.execute(sql`insert into branch_protections (repo_id, rule_name, priority, settings)
        select ${repoId}, rule_name, priority, settings from branch_protections where repo_id = ${templateId} order by id`);
    }
  }
}
