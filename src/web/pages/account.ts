// A user's or an organization's page (its repositories the viewer may see) and an organization's project.
import { loadOrg, loadUser } from '../../api/load.js';
import { presentColumns, presentProject } from '../../present/projects.js';
import { NotFound } from '../../services/errors.js';
import { enc, ownerHref, pageNumber, pageSize, pager, stateOf, when, type Page, type PageReq } from './common.js';
import { html } from './html.js';
import { markdown } from './markdown.js';

export async function accountPage(req: PageReq, name: string): Promise<Page> {
  const found = await req.services.users.byName(name);
  if (!found) throw new NotFound();
  const account = found.type === 'Organization' ? (await loadOrg(req, name)).org : await loadUser(req, name);
  const page = pageNumber(req);
  const size = pageSize(req);
  const { rows, total } = await req.services.repos.search(req.auth.actor, { uid: account.id, exclusive: true, sort: 'id' }, { limit: size, offset: (page - 1) * size });
  const isOrg = account.type === 'Organization';
  const body = html`<main class="account ${isOrg ? 'org' : 'user'}">
<h1>${account.fullName ? html`${account.fullName} <span class="muted">(${account.name})</span>` : account.name}</h1>
${account.description ? html`<p class="description">${account.description}</p>` : ''}
${account.location ? html`<p class="location">${account.location}</p>` : ''}
<h2>Repositories</h2>
${rows.length === 0 ? html`<p class="muted">No repositories.</p>` : html`<table class="list repos">${rows.map(({ repo }) => html`<tr>
<td><a href="${ownerHref(req, account.name)}/${enc(repo.name)}">${repo.name}</a>${repo.isPrivate ? html` <span class="label">private</span>` : ''}${repo.forkId ? html` <span class="label">fork</span>` : ''}</td>
<td>${repo.description}</td><td>${when(repo.updatedAt)}</td></tr>`)}</table>`}
${pager(req, page, size, total)}
</main>`;
  return { title: account.name, crumbs: [{ label: account.name, href: ownerHref(req, account.name) }], body };
}

export async function orgProjectPage(req: PageReq, orgName: string, rawId: string): Promise<Page> {
  if (!/^[1-9]\d{0,15}$/.test(rawId)) throw new NotFound();
  const { org } = await loadOrg(req, orgName);
  const loaded = await req.services.projects.load(org, req.auth.actor, Number(rawId), 'read');
  const [project, columns] = await Promise.all([
    presentProject(req, loaded.project),
    req.services.projectColumns.list(loaded, { limit: 100, offset: 0 }).then(({ rows }) => presentColumns(req, rows)),
  ]);
  const body = html`<main class="project">
<h1>${project.title}</h1>
<p>${stateOf(project.state)} · ${project.num_open_issues} open, ${project.num_closed_issues} closed · created ${when(project.created_at)}</p>
<div class="markdown">${markdown(project.description)}</div>
<h2>Columns</h2>
${columns.length === 0 ? html`<p class="muted">No columns.</p>` : html`<ul class="columns">${columns.map((c) => html`<li class="column" id="column-${c.id}">${c.title}</li>`)}</ul>`}
</main>`;
  return {
    title: project.title,
    crumbs: [{ label: org.name, href: ownerHref(req, org.name) }, { label: 'Projects' }, { label: project.title }],
    body,
  };
}
