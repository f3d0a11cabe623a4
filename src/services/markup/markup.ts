// POST /markdown, /markdown/raw and /markup: Gitea's modes over the one renderer (markdown.ts). This
// service decides what the text may link: accounts that exist and the caller may see, and the issues of
// the context's repository when the caller can read them.
import { inArray } from 'drizzle-orm';
import { users, type UserRow } from '../../db/schema/index.js';
import { canRead } from '../../permissions/repo.js';
import { canSeeUser } from '../../permissions/users.js';
import type { ServiceDeps } from '../context.js';
import { Invalid, NotFound } from '../errors.js';
import type { RepoService } from '../repos/repos.js';
import { mentionedNames, renderMarkdown, type RenderEnv } from './markdown.js';

export const markupModes = ['markdown', 'gfm', 'comment', 'wiki', 'file'] as const;
const markdownFile = /\.(md|markdown|mdown|mkd|mkdn|livemd)$/i;

export interface MarkupInput {
  mode?: string;
  text?: string;
  /** A URL path: `/{owner}/{repo}` or `/{owner}/{repo}/src/{branch|commit|tag}/{ref}/{dir}`. */
  context?: string;
  filePath?: string;
}

export class MarkupService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly repos: RepoService,
  ) {}

  /** Gitea's POST /markup: an unknown mode, or a file that is not Markdown in `file` mode, is 422. */
  async render(input: MarkupInput, actor: UserRow | null): Promise<string> {
    const mode = input.mode || 'markdown';
    if (!(markupModes as readonly string[]).includes(mode)) throw new Invalid(`Unknown mode: ${mode}`);
    if (mode === 'file' && !markdownFile.test(input.filePath ?? '')) {
      throw new Invalid(`Unsupported render extension: ${(input.filePath ?? '').match(/\.[^./]*$/)?.[0] ?? ''}`);
    }
    const text = input.text ?? '';
    const env: RenderEnv = { appUrl: this.deps.config.rootUrl, mentionable: await this.mentionable(text, actor) };
    const context = (input.context ?? '').trim();
    if (context) {
      const path = context.replace(/^\/+/, '');
      env.linkBase = new URL(path.endsWith('/') ? path : `${path}/`, this.deps.config.rootUrl).href;
      const [owner, name] = path.split('/');
      if (mode !== 'markdown' && owner && name) {
        const loaded = await this.repos.load(owner, name, actor).catch((err: unknown) => {
          if (err instanceof NotFound) return undefined;
          throw err;
        });
        if (loaded && canRead(loaded.perm, 'repo.issues')) env.issueRepo = `${loaded.owner.name}/${loaded.repo.name}`;
      }
    }
    return renderMarkdown(text, env);
  }

  /** Gitea's POST /markdown: `gfm` and `comment` keep their mode, anything else is plain markdown. */
  renderMarkdown(input: MarkupInput, actor: UserRow | null): Promise<string> {
    const mode = input.mode === 'gfm' || input.mode === 'comment' ? input.mode : 'markdown';
    return this.render({ ...input, mode, filePath: undefined }, actor);
  }

  private async mentionable(text: string, actor: UserRow | null): Promise<Set<string>> {
    const names = mentionedNames(text).slice(0, 100);
    if (!names.length) return new Set();
    const rows = await this.deps.db.select().from(users).where(inArray(users.lowerName, names));
    return new Set(rows.filter((u) => canSeeUser(actor, u)).map((u) => u.lowerName));
  }
}
