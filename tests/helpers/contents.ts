// Repositories with files, an .editorconfig and git notes, for the contents-ext, file-contents,
// editorconfig and notes operation tests.
import type { TestApp } from './harness.js';
import { dirOf, disk, repoFor, roles, type Roles } from './gitFixtures.js';
import type { Repository } from './repos.js';

export interface ContentsWorld {
  r: Roles;
  /** Public, with the files below on main and `dev`. */
  repo: Repository;
  /** Private, the same files. */
  priv: Repository;
  /** No commits at all. */
  empty: Repository;
  dir: string;
  /** main's tip, and the commit before it (`docs/guide.md`'s first version). */
  tip: string;
  first: string;
  /** A commit with a note (main's tip), one without (first), and the notes ref's commit that wrote the note. */
  notesCommit: string;
}

export const editorconfig = [
  'root = true',
  '[*]',
  'indent_style = space',
  'indent_size = 2',
  'insert_final_newline = true',
  '[*.go]',
  'indent_style = tab',
  'indent_size = tab',
  'tab_width = 8',
  '[docs/**.md]',
  'trim_trailing_whitespace = false',
  'charset = unset',
  '',
].join('\n');

async function fill(dir: string): Promise<{ first: string; tip: string }> {
  const first = await disk.commit(dir, 'main', { 'docs/guide.md': 'old guide\n' }, { message: 'first guide\n', date: new Date('2020-01-01T00:00:00Z') });
  const tip = await disk.commit(dir, 'main', {
    'docs/guide.md': '# Guide\n',
    'docs/x.txt': 'x\n',
    'docs/sub/inner.go': 'package sub\n',
    'link': { symlink: 'docs/guide.md' },
    '.editorconfig': editorconfig,
  }, { message: 'docs\n\nwith a body\n', date: new Date('2021-02-03T04:05:06Z') });
  await disk.commit(dir, 'dev', { 'docs/guide.md': 'dev guide\n', '.editorconfig': '[*]\nindent_size = 4\n' }, { from: 'main' });
  return { first, tip };
}

export async function contentsWorld(app: TestApp): Promise<ContentsWorld> {
  const r = await roles(app);
  const [repo, priv, empty] = await Promise.all([
    repoFor(app, r),
    repoFor(app, r, { private: true }),
    repoFor(app, r, { auto_init: false }),
  ]);
  const dir = dirOf(app, repo);
  const { first, tip } = await fill(dir);
  await fill(dirOf(app, priv));
  const env = { GIT_AUTHOR_NAME: 'Noter', GIT_AUTHOR_EMAIL: 'noter@example.com', GIT_COMMITTER_NAME: 'Noter', GIT_COMMITTER_EMAIL: 'noter@example.com' };
  await disk.run(dir, ['notes', 'add', '-m', 'reviewed by the release team', tip], { env });
  const notesCommit = (await disk.rev(dir, 'refs/notes/commits'))!;
  return { r, repo, priv, empty, dir, tip, first, notesCommit };
}

/** A repository of `r.owner` (collaborators as repoFor makes them) with `files` committed to main. */
export async function issueConfigRepo(app: TestApp, r: Roles, files: Record<string, string>, isPrivate = false): Promise<Repository> {
  const repo = await repoFor(app, r, { private: isPrivate });
  await disk.commit(dirOf(app, repo), 'main', files);
  return repo;
}
