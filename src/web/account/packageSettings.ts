// The package settings pages at Gitea's paths, for a user (/user/settings/packages, the signed-in user's
// own) and an organization (/org/{org}/settings/packages, its owners'): the list of cleanup rules, adding
// and editing one (Gitea's PackageCleanupRuleForm: enabled, type, keep_count, keep_pattern, remove_days,
// remove_pattern, match_full_name, action=save|remove), deleting it, and the preview of the versions it
// removes (the `cleanup_packages` task's own selection). Gitea 1.26 has no API for these rules.
//
// Anyone else gets 404 (Gitea's OrgAssignment and getCleanupRuleByContext); every form is CSRF-checked.
// A refused form is shown again with its message, answered 422 (a bad value) or 409 (the type has a rule)
// where Gitea answers 200; a saved rule redirects (303) to its page, a deleted one to the list.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Config } from '../../config.js';
import type { PackageCleanupRuleRow, UserRow } from '../../db/schema/index.js';
import type { Services } from '../../services/index.js';
import { NotFound } from '../../services/errors.js';
import {
  CleanupRuleInvalid, CleanupRuleTaken, cleanupRuleTypes, keepCountChoices, removeDaysChoices, type CleanupRuleInput,
} from '../../services/packages/cleanupRules.js';
import { html } from '../pages/html.js';
import { csrfField, csrfToken, readForm, sendPage, signedInUser } from './session.js';
import { guarded } from './signin.js';

/** Whose settings a page is: the owner and the base of its settings paths (`…/settings/packages`). */
interface Scope {
  owner: UserRow;
  root: string;
}

const ruleId = (raw: string | undefined): number => {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) throw new NotFound();
  return Number(raw);
};

/** A form's number: empty is 0 (Gitea's binding default), anything but digits is NaN (refused by the choices). */
const formInt = (v: string | null): number => (v === null || v === '' ? 0 : /^\d{1,6}$/.test(v) ? Number(v) : NaN);
/** A checkbox: Gitea's binding reads `on` and `true`. */
const formBool = (v: string | null): boolean => v === 'on' || v === 'true' || v === '1';

function inputOf(form: URLSearchParams): CleanupRuleInput {
  return {
    enabled: formBool(form.get('enabled')),
    type: form.get('type') ?? '',
    keepCount: formInt(form.get('keep_count')),
    keepPattern: form.get('keep_pattern') ?? '',
    removeDays: formInt(form.get('remove_days')),
    removePattern: form.get('remove_pattern') ?? '',
    matchFullName: formBool(form.get('match_full_name')),
  };
}

export function buildPackageSettings(services: Services, config: Config): Router {
  const base = new URL(config.rootUrl).pathname;
  const router = new Router();
  const rules = services.packageCleanupRules;

  /** The signed-in user and the owner they manage; a redirect to sign in (undefined), or 404 for anyone else. */
  const scopeOf = async (ctx: Context): Promise<Scope | undefined> => {
    const user = await signedInUser(ctx, services, base);
    if (!user) return undefined;
    const orgName = ctx.params.org;
    // The user's own rules, or an organization's (its owners' and site administrators'); 404 otherwise.
    const owner = orgName !== undefined ? await rules.managedOrg(orgName, user) : user;
    if (orgName === undefined) await rules.requireManager(user, user);
    return { owner, root: orgName !== undefined ? `${base}org/${encodeURIComponent(owner.name)}/settings/packages` : `${base}user/settings/packages` };
  };

  const heading = (scope: Scope) => (scope.owner.type === 'Organization' ? html` of <strong class="owner">${scope.owner.name}</strong>` : '');

  const listPage = async (ctx: Context, scope: Scope) => {
    const list = await rules.list(scope.owner.id);
    const rows = list.map((r) => html`<tr class="rule" data-id="${r.id}" data-type="${r.type}"><td>${r.type}</td><td>${r.enabled ? 'enabled' : 'disabled'}</td>
<td>${r.keepCount}</td><td><code>${r.keepPattern}</code></td><td>${r.removeDays}</td><td><code>${r.removePattern}</code></td><td>${r.matchFullName ? 'yes' : 'no'}</td>
<td><a class="edit" href="${scope.root}/rules/${r.id}">Edit</a> <a class="preview" href="${scope.root}/rules/${r.id}/preview">Preview</a></td></tr>`);
    sendPage(ctx, base, 'Packages', html`<main class="settings packages"><h1>Packages${heading(scope)}</h1>
<h2>Cleanup rules</h2>
<p class="muted">The <code>cleanup_packages</code> task applies each enabled rule: past the newest "keep" versions of each package,
a version is removed unless it matches the keep pattern, is younger than the days given, or does not match the remove pattern.</p>
${list.length
    ? html`<table class="list rules"><tr><th>Type</th><th>State</th><th>Keep newest</th><th>Keep pattern</th><th>Remove older than (days)</th><th>Remove pattern</th><th>Full name</th><th></th></tr>${rows}</table>`
    : html`<p class="muted no-rules">There are no cleanup rules yet.</p>`}
<p><a class="add-rule" href="${scope.root}/rules/add">Add cleanup rule</a></p></main>`);
  };

  /** The add or edit form, with the values sent (a refused form) or stored. */
  const editPage = (ctx: Context, scope: Scope, rule: PackageCleanupRuleRow | undefined, values: CleanupRuleInput, error?: { field: string; message: string }, status = 200) => {
    const token = csrfToken(ctx, config);
    const action = rule ? `${scope.root}/rules/${rule.id}` : `${scope.root}/rules/add`;
    const bad = (field: string) => (error?.field === field ? 'error' : undefined);
    const options = (choices: readonly number[], value: number) => choices.map((c) => html`<option value="${c}"${c === value ? html` selected` : ''}>${c}</option>`);
    sendPage(ctx, base, rule ? 'Edit cleanup rule' : 'Add cleanup rule', html`<main class="settings rule-edit"><h1>${rule ? 'Edit' : 'Add'} cleanup rule${heading(scope)}</h1>
${error ? html`<p class="flash error" role="alert">${error.message}</p>` : ''}
<form method="post" action="${action}" class="rule-form">${csrfField(token)}
<p><label><input type="checkbox" name="enabled"${values.enabled ? html` checked` : ''}> Enabled</label></p>
<p><label class="${bad('type')}">Type<br>${rule
    ? html`<input name="type" value="${rule.type}" readonly>`
    : html`<select name="type">${cleanupRuleTypes.map((t) => html`<option value="${t}"${t === values.type ? html` selected` : ''}>${t}</option>`)}</select>`}</label></p>
<p><label><input type="checkbox" name="match_full_name"${values.matchFullName ? html` checked` : ''}> Match the full name (<code>name/version</code>) instead of the version</label></p>
<h2>Keep</h2>
<p><label class="${bad('keepCount')}">Keep the most recent versions<br><select name="keep_count">${options(keepCountChoices, values.keepCount)}</select></label></p>
<p><label class="${bad('keepPattern')}">Keep versions matching (anchored, case-insensitive regular expression)<br><input name="keep_pattern" value="${values.keepPattern}" maxlength="255"></label></p>
<h2>Remove</h2>
<p><label class="${bad('removeDays')}">Remove versions older than (days, 0: any age)<br><select name="remove_days">${options(removeDaysChoices, values.removeDays)}</select></label></p>
<p><label class="${bad('removePattern')}">Remove versions matching (empty: any version)<br><input name="remove_pattern" value="${values.removePattern}" maxlength="255"></label></p>
<p><button type="submit" name="action" value="save" class="save">${rule ? 'Save' : 'Add rule'}</button></p>
</form>
${rule ? html`<p><a class="preview" href="${scope.root}/rules/${rule.id}/preview">Preview</a></p>
<form method="post" action="${action}" class="rule-delete">${csrfField(token)}<input type="hidden" name="type" value="${rule.type}"><button type="submit" name="action" value="remove" class="remove">Delete rule</button></form>` : ''}
<p><a href="${scope.root}">Back to the cleanup rules</a></p></main>`, status);
  };

  const stored = (r: PackageCleanupRuleRow): CleanupRuleInput => ({
    enabled: r.enabled, type: r.type, keepCount: r.keepCount, keepPattern: r.keepPattern,
    removeDays: r.removeDays, removePattern: r.removePattern, matchFullName: r.matchFullName,
  });
  const fresh: CleanupRuleInput = { enabled: true, type: 'generic', keepCount: 0, keepPattern: '', removeDays: 0, removePattern: '', matchFullName: false };

  /** Saves the form; a refused one is shown again with its message and status. */
  const save = async (ctx: Context, scope: Scope, rule: PackageCleanupRuleRow | undefined, form: URLSearchParams) => {
    const input = inputOf(form);
    const action = form.get('action');
    if (action !== 'save' && action !== 'remove') {
      return editPage(ctx, scope, rule, input, { field: 'action', message: 'action: must be save or remove' }, 422);
    }
    if (action === 'remove') {
      if (!rule) return editPage(ctx, scope, rule, input, { field: 'action', message: 'action: there is no rule to remove yet' }, 422);
      await rules.remove(scope.owner.id, rule.id);
      ctx.status = 303;
      return ctx.redirect(scope.root);
    }
    try {
      const saved = rule ? await rules.update(scope.owner.id, rule.id, input) : await rules.create(scope.owner.id, input);
      ctx.status = 303;
      ctx.redirect(`${scope.root}/rules/${saved.id}`);
    } catch (err) {
      if (err instanceof CleanupRuleInvalid) return editPage(ctx, scope, rule, input, { field: err.field, message: err.message }, 422);
      if (err instanceof CleanupRuleTaken) return editPage(ctx, scope, rule, input, { field: err.field, message: err.message }, 409);
      throw err;
    }
  };

  const previewPage = async (ctx: Context, scope: Scope, rule: PackageCleanupRuleRow) => {
    const chosen = await rules.preview(rule);
    const rows = chosen.map((c) => html`<tr class="version"><td>${c.pkg.type}</td><td class="name">${c.pkg.name}</td><td class="version-name">${c.version.version}</td><td>${c.version.createdAt.toISOString()}</td></tr>`);
    sendPage(ctx, base, 'Cleanup rule preview', html`<main class="settings rule-preview"><h1>Cleanup rule preview${heading(scope)}</h1>
<p>The rule for <strong>${rule.type}</strong> packages${rule.enabled ? '' : ' (disabled)'} removes these <span class="count">${chosen.length}</span> package versions now:</p>
${chosen.length
    ? html`<table class="list versions"><tr><th>Type</th><th>Name</th><th>Version</th><th>Created</th></tr>${rows}</table>`
    : html`<p class="muted nothing">No version would be removed.</p>`}
<p><a href="${scope.root}/rules/${rule.id}">Back to the rule</a></p></main>`);
  };

  for (const prefix of ['/user/settings/packages', '/org/:org/settings/packages']) {
    router.get(prefix, async (ctx) => {
      ctx.state.operationId = 'web.settings.packages';
      await guarded(ctx, base, async () => {
        const scope = await scopeOf(ctx);
        if (scope) await listPage(ctx, scope);
      });
    });
    router.get(`${prefix}/rules/add`, async (ctx) => {
      ctx.state.operationId = 'web.settings.packages.rule';
      await guarded(ctx, base, async () => {
        const scope = await scopeOf(ctx);
        if (scope) editPage(ctx, scope, undefined, fresh);
      });
    });
    router.post(`${prefix}/rules/add`, async (ctx) => {
      ctx.state.operationId = 'web.settings.packages.rule';
      await guarded(ctx, base, async () => {
        const form = await readForm(ctx);
        const scope = await scopeOf(ctx);
        if (scope) await save(ctx, scope, undefined, form);
      });
    });
    router.get(`${prefix}/rules/:id`, async (ctx) => {
      ctx.state.operationId = 'web.settings.packages.rule';
      await guarded(ctx, base, async () => {
        const scope = await scopeOf(ctx);
        if (!scope) return;
        const rule = await rules.get(scope.owner.id, ruleId(ctx.params.id));
        editPage(ctx, scope, rule, stored(rule));
      });
    });
    router.post(`${prefix}/rules/:id`, async (ctx) => {
      ctx.state.operationId = 'web.settings.packages.rule';
      await guarded(ctx, base, async () => {
        const form = await readForm(ctx);
        const scope = await scopeOf(ctx);
        if (!scope) return;
        await save(ctx, scope, await rules.get(scope.owner.id, ruleId(ctx.params.id)), form);
      });
    });
    router.get(`${prefix}/rules/:id/preview`, async (ctx) => {
      ctx.state.operationId = 'web.settings.packages.preview';
      await guarded(ctx, base, async () => {
        const scope = await scopeOf(ctx);
        if (!scope) return;
        await previewPage(ctx, scope, await rules.get(scope.owner.id, ruleId(ctx.params.id)));
      });
    });
  }
  return router;
}

