import { git } from './core.js';
import { rawTime, type Signature } from './commit.js';
import { createRef } from './refs.js';

/** Creates refs/tags/<name> at `target`; annotated (a tag object) when a message is given. */
export async function createTag(dir: string, name: string, target: string, message: string | undefined, tagger: Signature): Promise<string> {
  if (!message) {
    await createRef(dir, `refs/tags/${name}`, target);
    return target;
  }
  const body = message.endsWith('\n') ? message : `${message}\n`;
  const raw = `object ${target}\ntype commit\ntag ${name}\ntagger ${tagger.name} <${tagger.email}> ${rawTime(tagger.date)}\n\n${body}`;
  const { stdout } = await git(dir, ['hash-object', '-t', 'tag', '-w', '--stdin'], { stdin: raw });
  const id = stdout.trim();
  await createRef(dir, `refs/tags/${name}`, id);
  return id;
}

export interface TagTip {
  name: string;
  /** The tag object (annotated) or the commit (lightweight). */
  id: string;
  commit: string;
  message: string;
  /** The tagger's date (annotated) or the commit's (lightweight). */
  date: Date;
}

const tipFormat = '--format=%(refname:strip=2)%00%(objectname)%00%(*objectname)%00%(creatordate:iso-strict)%00%(contents)%00%00';

/** One tag, or undefined when there is none of that name. */
export async function tagTip(dir: string, name: string): Promise<TagTip | undefined> {
  const { stdout } = await git(dir, ['for-each-ref', tipFormat, `refs/tags/${name}`]);
  return parseTips(stdout).find((t) => t.name === name);
}

export async function listTags(dir: string): Promise<TagTip[]> {
  const { stdout } = await git(dir, ['for-each-ref', '--sort=-*creatordate', tipFormat, 'refs/tags/']);
  return parseTips(stdout);
}

function parseTips(stdout: string): TagTip[] {
  return stdout.split('\0\0\n').filter((s) => s.trim()).map((rec) => {
    const [name, id, peeled, date, message] = rec.replace(/^\n/, '').split('\0');
    return { name: name!, id: id!, commit: peeled || id!, message: message ?? '', date: new Date(date!) };
  });
}
